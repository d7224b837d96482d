import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { type Static, Type } from 'typebox';
import { requireAdmin, sessionOf } from '../auth/guard.js';
import type { RouteOptions } from '../context.js';
import type { SessionInfo } from '../db/sessions.js';
import { notFound } from '../errors.js';

/**
 * Session management in Rocket.Chat's routes and shapes: `sessions/list`, `sessions/info`,
 * `sessions/logout.me`, `sessions/list.all`, `sessions/logout`, `users.logoutOtherClients`,
 * `users.removeOtherTokens` and `users.logout`. A session is shown by its public `sessionId`,
 * never by its token. Who may call each route is its `auth` (auth/guard.ts); admins are the
 * provider accounts listed in CHAT_ADMINS. Every one needs a session, so the guard limits each to
 * API_RATE_LIMIT per client address.
 */
const SessionId = Type.String({
  pattern: '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$',
});
const UserId = Type.String({ pattern: '^[A-Za-z0-9]{17}$' });

/** string or null, as one JSON-schema type list (cheaper to compile than an anyOf). */
const NullableString = Type.Unsafe<string | null>({ type: ['string', 'null'] });

const sessionViewFields = {
  _id: Type.String(),
  sessionId: Type.String(),
  userId: Type.String(),
  /** When the login happened. */
  loginAt: Type.String(),
  /** When a request last used it (to the minute). */
  lastActivityAt: Type.String(),
  expiresAt: Type.String(),
  /** The client address and User-Agent of the login; null when unknown. */
  ip: NullableString,
  userAgent: NullableString,
  /** Whether it is the session making this request. */
  current: Type.Boolean(),
};
const SessionView = Type.Object(sessionViewFields);
type SessionView = Static<typeof SessionView>;

const Page = {
  offset: Type.Optional(Type.Integer({ minimum: 0, maximum: 1_000_000, default: 0 })),
  count: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 50 })),
};
const SessionList = Type.Object({
  success: Type.Literal(true),
  sessions: Type.Array(SessionView),
  total: Type.Integer(),
  count: Type.Integer(),
  offset: Type.Integer(),
});

const view = (session: SessionInfo, currentId: string): SessionView => ({
  _id: session.sessionId,
  sessionId: session.sessionId,
  userId: session.userId,
  loginAt: session.createdAt.toISOString(),
  lastActivityAt: session.lastUsedAt.toISOString(),
  expiresAt: session.expiresAt.toISOString(),
  ip: session.clientAddress,
  userAgent: session.userAgent,
  current: session.sessionId === currentId,
});

const sessionRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { context }) => {
  const { sessions, now } = context;

  async function page(userId: string | undefined, currentId: string, offset = 0, count = 50) {
    const result = await sessions.list(userId, now(), { offset, count });
    return {
      success: true as const,
      sessions: result.sessions.map((session) => view(session, currentId)),
      total: result.total,
      count: result.sessions.length,
      offset,
    };
  }

  app.get(
    '/api/v1/sessions/list',
    {
      schema: { querystring: Type.Object(Page), response: { 200: SessionList } },
    },
    async (request) => {
      const { user, sessionId } = sessionOf(request);
      return page(user.id, sessionId, request.query.offset, request.query.count);
    },
  );

  app.get(
    '/api/v1/sessions/info',
    {
      schema: {
        querystring: Type.Object({ sessionId: SessionId }),
        response: { 200: Type.Object({ success: Type.Literal(true), ...sessionViewFields }) },
      },
    },
    async (request) => {
      const { user, sessionId } = sessionOf(request);
      const {
        sessions: [found],
      } = await sessions.list(user.id, now(), {
        offset: 0,
        count: 1,
        sessionId: request.query.sessionId,
      });
      if (!found) throw notFound('Session not found');
      return { success: true as const, ...view(found, sessionId) };
    },
  );

  app.post(
    '/api/v1/sessions/logout.me',
    {
      schema: {
        body: Type.Object({ sessionId: SessionId }),
        response: { 200: Type.Object({ success: Type.Literal(true), sessionId: Type.String() }) },
      },
    },
    async (request) => {
      const { user } = sessionOf(request);
      if (!(await sessions.revokeById(request.body.sessionId, user.id))) {
        throw notFound('Session not found');
      }
      return { success: true as const, sessionId: request.body.sessionId };
    },
  );

  app.post(
    '/api/v1/users.logoutOtherClients',
    {
      schema: {
        response: {
          200: Type.Object({
            success: Type.Literal(true),
            token: Type.String(),
            tokenExpires: Type.String(),
          }),
        },
      },
    },
    async (request) => {
      const { user, tokenHash, expiresAt } = sessionOf(request);
      await sessions.revokeAll(user.id, tokenHash);
      // Rocket.Chat answers the caller's own token (it sent it) and when it expires.
      return {
        success: true as const,
        token: String(request.headers['x-auth-token']),
        tokenExpires: expiresAt.toISOString(),
      };
    },
  );

  app.post(
    '/api/v1/users.removeOtherTokens',
    { schema: { response: { 200: Type.Object({ success: Type.Literal(true) }) } } },
    async (request) => {
      const { user, tokenHash } = sessionOf(request);
      await sessions.revokeAll(user.id, tokenHash);
      return { success: true as const };
    },
  );

  app.post(
    '/api/v1/users.logout',
    {
      schema: {
        // No body (or `{}`) means the caller; Fastify hands an absent body over as null.
        body: Type.Union([Type.Null(), Type.Object({ userId: Type.Optional(UserId) })]),
        response: { 200: Type.Object({ success: Type.Literal(true), message: Type.String() }) },
      },
    },
    async (request) => {
      const { user } = sessionOf(request);
      const target = request.body?.userId ?? user.id;
      if (target !== user.id) requireAdmin(request, context);
      await sessions.revokeAll(target);
      return { success: true as const, message: `User ${target} has been logged out!` };
    },
  );

  app.get(
    '/api/v1/sessions/list.all',
    {
      schema: {
        querystring: Type.Object({ ...Page, userId: Type.Optional(UserId) }),
        response: { 200: SessionList },
      },
      config: { auth: 'admin' },
    },
    async (request) => {
      const { sessionId } = sessionOf(request);
      return page(request.query.userId, sessionId, request.query.offset, request.query.count);
    },
  );

  app.post(
    '/api/v1/sessions/logout',
    {
      schema: {
        body: Type.Object({ sessionId: SessionId }),
        response: { 200: Type.Object({ success: Type.Literal(true), sessionId: Type.String() }) },
      },
      config: { auth: 'admin' },
    },
    async (request) => {
      if (!(await sessions.revokeById(request.body.sessionId, undefined))) {
        throw notFound('Session not found');
      }
      return { success: true as const, sessionId: request.body.sessionId };
    },
  );
};

export default sessionRoutes;
