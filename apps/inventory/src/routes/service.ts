import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AnyDatabase } from '../db/schema.js';
import { devices } from '../resources/definitions/devices.js';
import { countRows } from '../resources/list.js';
import { responses } from '../resources/schemas.js';

export const API_VERSION = 1;

/** `GET /` (health check naming the API version) and `GET /debug/count` (number of devices). */
export const serviceRoutes: FastifyPluginAsyncTypebox<{ db: AnyDatabase }> = async (
  app,
  { db },
) => {
  app.get(
    '/',
    {
      config: { access: 'public' },
      schema: {
        response: {
          200: {
            description: 'The API version, as plain text (a health check)',
            content: { 'text/plain': { schema: Type.String() } },
          },
        },
      },
    },
    async (_request, reply) =>
      reply
        .type('text/plain; charset=utf-8')
        .send(`Network Inventory API version ${API_VERSION}\n`),
  );

  app.get(
    '/debug/count',
    {
      config: { access: 'public' },
      schema: { response: responses({ 200: Type.Object({ count: Type.Integer() }) }) },
    },
    async () => ({
      count: await countRows(db, app.listCache, devices, {}),
    }),
  );
};
