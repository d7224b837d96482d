import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AnyDatabase } from '../db/schema.js';
import { notFound } from '../errors.js';
import { type ListQuery, sendListPage } from '../resources/pages.js';
import { findRow, type Row } from '../resources/rows.js';
import {
  fullRecordSchema,
  IdParams,
  listQuerySchema,
  pageSchema,
  recordSchema,
  responses,
} from '../resources/schemas.js';
import { insertRow } from '../resources/writes.js';
import { events } from './definition.js';

/**
 * POST /events (admins and editors, and systems with an API token of scope `events:write`; a
 * viewer cannot modify anything), GET /events (the generic list: filters, sort, time range) and
 * GET /events/{id} (any signed-in user, and API tokens of scope `events:read`). Events are
 * telemetry, not changes to the inventory: they are not written to the audit log.
 */
export const eventRoutes: FastifyPluginAsyncTypebox<{ db: AnyDatabase }> = async (app, { db }) => {
  const record = recordSchema(events);
  const authenticated = { access: 'authenticated', apiTokenScope: 'events:read' } as const;
  const writers = { access: events.writeRoles, apiTokenScope: 'events:write' } as const;

  app.get(
    '/events',
    {
      config: authenticated,
      schema: {
        summary: 'List events (signed-in users; API tokens with scope events:read)',
        querystring: listQuerySchema(events),
        response: responses({ 200: pageSchema(events) }),
      },
    },
    async (request, reply) => sendListPage(request, reply, db, events, request.query as ListQuery),
  );

  app.post(
    '/events',
    {
      config: writers,
      schema: {
        summary: 'Report an event (admins, editors; API tokens with scope events:write)',
        body: fullRecordSchema(events),
        response: responses({ 201: record }),
      },
    },
    async (request, reply) => {
      // A device_id that does not exist fails the foreign key: 400 `device_id: Device not found`.
      const row = await insertRow(db, events, request.body as Row);
      return reply.status(201).send(row);
    },
  );

  app.get(
    '/events/:id',
    {
      config: authenticated,
      schema: {
        summary: 'Read an event (signed-in users; API tokens with scope events:read)',
        params: IdParams,
        response: responses({ 200: record }),
      },
    },
    async (request) => {
      const row = await findRow(db, events, request.params.id);
      if (!row) throw notFound(events.notFoundMessage);
      return row;
    },
  );
};
