import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import type { ChatContext, RouteOptions } from '../context.js';
import type { Session } from '../db/sessions.js';
import { accountDeactivated, unauthorized } from '../errors.js';
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

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' && value.length <= 256 ? value : undefined;
};

/**
 * The X-User-Id / X-Auth-Token pair. Wrong tokens count against (user id, client address): an
 * address that failed too often gets 429 for that user id even with a right token, so guessing
 * from it stops, while the owner elsewhere keeps working (see Lockout.beginSession).
 */
export async function authenticate(
  request: FastifyRequest,
  context: ChatContext,
): Promise<Session> {
  const userId = header(request, 'x-user-id');
  const token = header(request, 'x-auth-token');
  if (!userId || !token) throw unauthorized();
  const now = context.now();
  // A session the cache holds valid is known right without a statement: only a lock on this
  // address is checked (see Lockout.checkSession). Anything else is a possible guess and takes
  // the full path: an attempt counted in flight, the database, the outcome counted.
  const known = context.sessions.cached(userId, token, now);
  if (known) {
    await context.lockout.checkSession(userId, request.ip);
    const session = await context.sessions.touch(known, now);
    if (!session.user.active) throw accountDeactivated();
    return session;
  }
  const attempt = await context.lockout.beginSession(userId, request.ip);
  let session: Session | undefined;
  try {
    session = await context.sessions.find(userId, token, now);
  } catch (error) {
    await attempt.release(); // a database outage is nobody's failed guess
    throw error;
  }
  // A right token does not clear the failures: interleaved with the owner's own requests,
  // guesses from the same address would otherwise never reach the lock.
  await (session ? attempt.release() : attempt.failed());
  if (!session) throw unauthorized();
  if (!session.user.active) throw accountDeactivated();
  return session;
}

/** Requests per client address per minute on the authenticated routes (API_RATE_LIMIT). */
export const apiRateLimit = (context: ChatContext) => ({
  rateLimit: { max: context.config.apiRateLimit, timeWindow: 60_000 },
});

const sessionRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { context }) => {
  app.get(
    '/api/v1/me',
    { schema: { response: { 200: MeResponse } }, config: apiRateLimit(context) },
    async (request) => {
      const { user } = await authenticate(request, context);
      return { ...toMe(user, context.config.siteUrl), success: true as const };
    },
  );

  // POST as Rocket.Chat's web client and api-client send it, GET as @rocket.chat/sdk does.
  app.route({
    method: ['GET', 'POST'],
    url: '/api/v1/logout',
    schema: { response: { 200: LogoutResponse } },
    config: apiRateLimit(context),
    handler: async (request) => {
      const { tokenHash } = await authenticate(request, context);
      await context.sessions.revoke(tokenHash);
      return { status: 'success' as const, data: { message: "You've been logged out!" } };
    },
  });
};

export default sessionRoutes;
