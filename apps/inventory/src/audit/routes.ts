import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AnyDatabase } from '../db/schema.js';
import { type ListQuery, sendListPage } from '../resources/pages.js';
import { listQuerySchema, pageSchema, responses } from '../resources/schemas.js';
import { auditLogs } from './definition.js';

/** GET /audit-logs (admin): newest first, paged, filters user_id, action, resource_type/_id. */
export const auditRoutes: FastifyPluginAsyncTypebox<{ db: AnyDatabase }> = async (app, { db }) => {
  app.get(
    '/audit-logs',
    {
      config: { access: ['admin'] },
      schema: {
        querystring: listQuerySchema(auditLogs),
        response: responses({ 200: pageSchema(auditLogs) }),
      },
    },
    async (request, reply) =>
      sendListPage(request, reply, db, auditLogs, request.query as ListQuery),
  );
};
