import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type TSchema, Type } from 'typebox';
import { requirePrincipal } from '../audit/audit-log.js';
import { retryOnConflict } from '../db/retry.js';
import type { AnyDatabase } from '../db/schema.js';
import { badRequest, notFound } from '../errors.js';
import { sendVersionedAnswer } from '../resources/pages.js';
import {
  DEFAULT_PAGE_SIZE,
  IdParams,
  MAX_BATCH_ITEMS,
  MAX_PAGE_SIZE,
  PageSize,
  responses,
  sortKeySchema,
} from '../resources/schemas.js';
import {
  historyPage,
  insertMetrics,
  latestOfDevice,
  type MetricInput,
  OVERVIEW_SORT_FIELDS,
  type OverviewSortField,
  overviewPage,
} from './repository.js';

export const METRICS_NOT_FOUND = 'Metrics not found for this device';
export const DEFAULT_OVERVIEW_SORT = 'ts:desc';

const percentage = Type.Union([Type.Number({ minimum: 0, maximum: 100 }), Type.Null()]);

const MetricInputSchema = Type.Object(
  {
    device_id: Type.String({ format: 'uuid' }),
    cpu: Type.Optional(percentage),
    memory: Type.Optional(percentage),
    temperature: Type.Optional(
      Type.Union([Type.Number({ minimum: -273.15, maximum: 1000 }), Type.Null()]),
    ),
    uptime_seconds: Type.Optional(
      Type.Union([Type.Integer({ minimum: 0, maximum: Number.MAX_SAFE_INTEGER }), Type.Null()]),
    ),
    /** When the device measured; the time of arrival when absent. */
    ts: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

// Typed loosely (TSchema): the rows come from SQL as the generic resources' do (ts a Date).
const MetricRecord: TSchema = Type.Object({
  device_id: Type.String({ format: 'uuid' }),
  cpu: Type.Union([Type.Number(), Type.Null()]),
  memory: Type.Union([Type.Number(), Type.Null()]),
  temperature: Type.Union([Type.Number(), Type.Null()]),
  uptime_seconds: Type.Union([Type.Integer(), Type.Null()]),
  ts: Type.String({ format: 'date-time' }),
});

const PageMeta = Type.Object({
  current_page: Type.Integer(),
  limit: Type.Integer(),
  total_pages: Type.Integer(),
  total_count: Type.Integer(),
});
const MetricPage: TSchema = Type.Object({ meta: PageMeta, data: Type.Array(MetricRecord) });

const paging = {
  page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, default: 1 })),
  limit: Type.Optional(PageSize),
};

const OverviewQuery = Type.Object(
  {
    ...paging,
    sort: Type.Optional(sortKeySchema(OVERVIEW_SORT_FIELDS)),
  },
  { additionalProperties: false },
);

const HistoryQuery = Type.Object(
  {
    ...paging,
    from: Type.Optional(Type.String({ format: 'date-time' })),
    to: Type.Optional(Type.String({ format: 'date-time' })),
  },
  { additionalProperties: false },
);

const StoredResult = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  count: Type.Integer(),
});

function parseOverviewSort(text: string) {
  const match = /^([a-z_]+):(asc|desc)$/.exec(text);
  const field = match?.[1] as OverviewSortField | undefined;
  if (!match || !field || !OVERVIEW_SORT_FIELDS.includes(field)) {
    throw badRequest(
      `Invalid sort "${text}": expected <${OVERVIEW_SORT_FIELDS.join('|')}>:<asc|desc>`,
    );
  }
  return { field, direction: match[2] === 'desc' ? ('desc' as const) : ('asc' as const) };
}

const pageOf = (
  page: number,
  limit: number,
  { totalCount, rows }: { totalCount: number; rows: unknown[] },
) => ({
  meta: {
    current_page: page,
    limit,
    total_pages: Math.ceil(totalCount / limit),
    total_count: totalCount,
  },
  data: rows,
});

/**
 * POST /metrics (admin or editor; one record or an array), GET /metrics (the latest record of
 * each device), GET /metrics/device/{id} (its latest record, or with from/to its history).
 * Telemetry, not changes to the inventory: not written to the audit log.
 */
export const metricRoutes: FastifyPluginAsyncTypebox<{ db: AnyDatabase }> = async (app, { db }) => {
  app.post(
    '/metrics',
    {
      config: { access: ['admin', 'editor'] },
      schema: {
        body: Type.Union([
          MetricInputSchema,
          Type.Array(MetricInputSchema, { minItems: 1, maxItems: MAX_BATCH_ITEMS }),
        ]),
        response: responses({ 201: StoredResult }),
      },
    },
    async (request, reply) => {
      const body = request.body as MetricInput | MetricInput[];
      const records = Array.isArray(body) ? body : [body];
      // An unknown device_id fails the foreign key: 400 `device_id: Device not found`, and the
      // whole array is refused.
      const receivedAt = new Date();
      const count = await retryOnConflict(() =>
        db.transaction().execute(async (trx) => {
          // The sender must still be who it was when its headers arrived (migration 020).
          await requirePrincipal(trx, request);
          return insertMetrics(trx, records, receivedAt);
        }),
      );
      return reply
        .status(201)
        .send({ status: 'success', message: `${count} metric records stored`, count });
    },
  );

  app.get(
    '/metrics',
    {
      config: { access: 'authenticated' },
      schema: { querystring: OverviewQuery, response: responses({ 200: MetricPage }) },
    },
    async (request, reply) => {
      const { page = 1, limit: requested = DEFAULT_PAGE_SIZE, sort } = request.query;
      const limit = Math.min(requested, MAX_PAGE_SIZE);
      const overviewSort = parseOverviewSort(sort ?? DEFAULT_OVERVIEW_SORT);
      // Counting the latest row of 100,000 devices costs milliseconds: reused while unchanged.
      return sendVersionedAnswer(request, reply, db, 'device_metrics_latest', async () =>
        pageOf(page, limit, await overviewPage(db, { page, limit, sort: overviewSort })),
      );
    },
  );

  app.get(
    '/metrics/device/:id',
    {
      config: { access: 'authenticated' },
      schema: {
        params: IdParams,
        querystring: HistoryQuery,
        response: responses({ 200: Type.Union([MetricRecord, MetricPage]) }),
      },
    },
    async (request) => {
      const deviceId = request.params.id.toLowerCase();
      const { page = 1, limit: requested = DEFAULT_PAGE_SIZE, from, to } = request.query;
      const latest = await latestOfDevice(db, deviceId);
      if (!latest) throw notFound(METRICS_NOT_FOUND);
      if (from === undefined && to === undefined) return latest;
      const limit = Math.min(requested, MAX_PAGE_SIZE);
      return pageOf(page, limit, await historyPage(db, { deviceId, from, to, page, limit }));
    },
  );
};

/** Constraint names of the metric tables and what their violations say. */
export const METRIC_CONSTRAINT_MESSAGES: Record<string, string> = {
  device_metrics_device_id_fkey: 'device_id: Device not found',
  device_metrics_latest_device_id_fkey: 'device_id: Device not found',
};
