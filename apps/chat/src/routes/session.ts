import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { sessionOf } from '../auth/guard.js';
import type { RouteOptions } from '../context.js';
import { Me, toMe } from '../users/profile.js';

/** Rocket.Chat's `API.v1.success(user)`: the user's fields at the top level and `success: true`. */
export const MeResponse = Type.Object(
  { ...Me.properties, success: Type.Literal(true) },
  { additionalProperties: false },
);
/** Rocket.Chat's logout answer, which kept the older `{status, data}` shape. */
export const LogoutResponse = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ message: Type.String() }),
});

// Both need a session, so the guard limits them to API_RATE_LIMIT (auth/guard.ts).
const sessionRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { context }) => {
  app.get('/api/v1/me', { schema: { response: { 200: MeResponse } } }, async (request) => {
    const { user } = sessionOf(request);
    return { ...toMe(user, context.config.siteUrl), success: true as const };
  });

  // POST as Rocket.Chat's web client and api-client send it, GET as @rocket.chat/sdk does.
  app.route({
    method: ['GET', 'POST'],
    url: '/api/v1/logout',
    schema: { response: { 200: LogoutResponse } },
    handler: async (request) => {
      const { tokenHash } = sessionOf(request);
      await context.sessions.revoke(tokenHash);
      return { status: 'success' as const, data: { message: "You've been logged out!" } };
    },
  });
};

export default sessionRoutes;
