import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { sql } from 'kysely';
import { type Static, Type } from 'typebox';
import { requirePrincipal } from '../audit/audit-log.js';
import type { AnyDatabase } from '../db/schema.js';
import { notFound } from '../errors.js';
import { EXPECTED } from '../resources/definition.js';
import { responses } from '../resources/schemas.js';

export const MAX_ATTEMPTS_PAGE = 100;

const Attempt = Type.Object({
  id: Type.String({ description: 'The attempt, for `before` paging.' }),
  delivery_id: Type.String({ format: 'uuid', description: 'Sent as `webhook-id`.' }),
  event: Type.String(),
  resource: Type.String(),
  resource_id: Type.String(),
  attempt: Type.Integer({ description: '1 for the first attempt of the delivery.' }),
  attempted_at: Type.String({ format: 'date-time' }),
  status_code: Type.Union([Type.Integer(), Type.Null()]),
  duration_ms: Type.Integer(),
  error: Type.Union([Type.String(), Type.Null()]),
  response_excerpt: Type.Union([Type.String(), Type.Null()], {
    description: 'The first 512 bytes of the answer, control characters replaced.',
  }),
  delivery_state: Type.Union([
    Type.Literal('pending'),
    Type.Literal('delivered'),
    Type.Literal('failed'),
  ]),
});

const AttemptsPage = Type.Object({
  meta: Type.Object({
    limit: Type.Integer(),
    next_before: Type.Union([Type.String(), Type.Null()], {
      description: 'Pass as `before` for the next (older) page; null on the last.',
    }),
  }),
  data: Type.Array(Attempt),
});

const Params = Type.Object(
  { id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
const DeliveryParams = Type.Object(
  { id: Type.String({ format: 'uuid' }), delivery_id: Type.String({ format: 'uuid' }) },
  { additionalProperties: false },
);
const AttemptsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_ATTEMPTS_PAGE, default: 20 })),
    before: Type.Optional(
      Type.String({
        pattern: '^[1-9][0-9]{0,17}$',
        description: 'An attempt id: older ones.',
        [EXPECTED]: 'an attempt id (a positive integer)',
      }),
    ),
  },
  { additionalProperties: false },
);

const Redelivered = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
});

/**
 * A webhook's delivery attempts, newest first, and an admin's redelivery of one delivery
 * (README "Webhooks"). Admin only, like the webhooks themselves.
 */
export const webhookDeliveryRoutes: FastifyPluginAsyncTypebox<{
  db: AnyDatabase;
  wake: () => void;
}> = async (app, { db, wake }) => {
  const admin = { access: ['admin'] as const };
  const webhookMustExist = async (id: string) => {
    const found = await sql`SELECT 1 FROM webhooks WHERE id = ${id}`.execute(db);
    if (found.rows.length === 0) throw notFound('Webhook not found');
  };

  app.get(
    '/:id/deliveries',
    {
      config: admin,
      schema: {
        params: Params,
        querystring: AttemptsQuery,
        response: responses({ 200: AttemptsPage }),
      },
    },
    async (request) => {
      const { id } = request.params;
      const { limit = 20, before } = request.query;
      await webhookMustExist(id);
      const rows = await sql<Static<typeof Attempt>>`
        SELECT a.id::text AS id, a.delivery_id, d.event, d.resource_type AS resource,
               d.resource_id, a.attempt, a.attempted_at, a.status_code, a.duration_ms, a.error,
               a.response_excerpt, d.state AS delivery_state
        FROM webhook_attempts AS a JOIN webhook_deliveries AS d ON d.id = a.delivery_id
        WHERE a.webhook_id = ${id} ${before === undefined ? sql`` : sql`AND a.id < ${before}::bigint`}
        ORDER BY a.id DESC
        LIMIT ${limit + 1}`.execute(db);
      const data = rows.rows.slice(0, limit).map((row) => ({
        ...row,
        attempted_at: new Date(row.attempted_at).toISOString(),
      }));
      const more = rows.rows.length > limit;
      return {
        meta: { limit, next_before: more ? String(data[data.length - 1]?.id) : null },
        data,
      };
    },
  );

  app.post(
    '/:id/deliveries/:delivery_id/redeliver',
    {
      config: admin,
      schema: { params: DeliveryParams, response: responses({ 202: Redelivered }) },
    },
    async (request, reply) => {
      const { id, delivery_id: deliveryId } = request.params;
      const updated = await db.transaction().execute(async (trx) => {
        // The admin must still be one when the request is carried out (migration 020).
        await requirePrincipal(trx, request);
        return sql`
          UPDATE webhook_deliveries
          SET state = 'pending', next_attempt_at = now(), retry_from = now(), finished_at = NULL
          WHERE id = ${deliveryId} AND webhook_id = ${id}
          RETURNING id`.execute(trx);
      });
      if (updated.rows.length === 0) throw notFound('Delivery not found');
      wake();
      return reply
        .status(202)
        .send({ status: 'success' as const, message: 'Delivery queued again' });
    },
  );
};
