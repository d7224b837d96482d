import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { Lockout } from '../auth/lockout.js';
import type { ChatContext, RouteOptions } from '../context.js';
import type { Session } from '../db/sessions.js';
import { accountDeactivated, unauthorized } from '../errors.js';
import { Me, toMe } from '../users/profile.js';

const MeResponse = Type.Object({ status: Type.Literal('success'), data: Me });
const LogoutResponse = Type.Object({
  status: Type.Literal('success'),
  data: Type.Object({ message: Type.String() }),
});

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' && value.length <= 256 ? value : undefined;
};

/**
 * The X-User-Id / X-Auth-Token pair. Wrong tokens count against that user id; once locked, every
 * attempt for it (even with a right token) gets 429 until the lock ends: otherwise a lock would not
 * stop guessing.
 */
export async function authenticate(
  request: FastifyRequest,
  context: ChatContext,
): Promise<Session> {
  const userId = header(request, 'x-user-id');
  const token = header(request, 'x-auth-token');
  if (!userId || !token) throw unauthorized();
  const attempt = await context.lockout.begin(Lockout.tokenKey(userId));
  let session: Session | undefined;
  try {
    session = await context.sessions.find(userId, token, context.now());
  } catch (error) {
    await attempt.release(); // a database outage is nobody's failed guess
    throw error;
  }
  // A right token does not clear the failures: interleaved with the owner's own requests,
  // guesses would otherwise never reach the lock.
  await (session ? attempt.release() : attempt.failed());
  if (!session) throw unauthorized();
  if (!session.user.active) throw accountDeactivated();
  return session;
}

const sessionRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { context }) => {
  app.get('/api/v1/me', { schema: { response: { 200: MeResponse } } }, async (request) => {
    const { user } = await authenticate(request, context);
    return { status: 'success' as const, data: toMe(user, context.config.siteUrl) };
  });

  app.post('/api/v1/logout', { schema: { response: { 200: LogoutResponse } } }, async (request) => {
    const { tokenHash } = await authenticate(request, context);
    await context.sessions.revoke(tokenHash);
    return { status: 'success' as const, data: { message: "You've been logged out!" } };
  });
};

export default sessionRoutes;
