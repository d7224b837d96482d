import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ChatContext } from '../context.js';
import type { Session } from '../db/sessions.js';
import type { UserRow } from '../db/users.js';
import { accountDeactivated, forbidden, unauthorized } from '../errors.js';

/**
 * Who may call a route:
 * - `public`: anyone (login, the public settings, avatars, health);
 * - `session` (the default): a signed-in user, by the X-User-Id / X-Auth-Token pair;
 * - `admin`: a signed-in user whose provider account is listed in CHAT_ADMINS.
 */
export type RouteAccess = 'public' | 'session' | 'admin';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; a route that does not say is for signed-in users only. */
    auth?: RouteAccess;
  }
  interface FastifyRequest {
    /** Set by the guard on every route that is not public (read it with `sessionOf`). */
    chatSession: Session | null;
  }
}

export const ADMIN_ONLY_MESSAGE = 'This needs an admin (CHAT_ADMINS)';

const header = (request: FastifyRequest, name: string) => {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' && value.length <= 256 ? value : undefined;
};

/**
 * The X-User-Id / X-Auth-Token pair. Wrong tokens count against (user id, client address): an
 * address that failed too often gets 429 for that user id even with a right token, so guessing
 * from it stops, while the owner elsewhere keeps working (see Lockout.beginSession).
 */
async function authenticate(request: FastifyRequest, context: ChatContext): Promise<Session> {
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
  if (session) await attempt.release();
  else {
    // Only a real user's id is counted from every address together (Lockout.beginSession).
    // When that cannot be read, it is counted as one: the global bound errs on the safe side.
    const userExists = await context.users.exists(userId).catch((error: unknown) => {
      request.log.warn({ err: error }, 'could not tell whether a user id exists; counted as one');
      return true;
    });
    await attempt.failed(userExists);
    throw unauthorized();
  }
  if (!session.user.active) throw accountDeactivated();
  return session;
}

/**
 * Admins are the provider accounts listed in CHAT_ADMINS (`service:providerUserId`), checked on
 * every request: removing an entry takes effect at the next restart, without touching the data.
 */
function isAdmin(context: ChatContext, user: UserRow): boolean {
  return (context.config.admins ?? []).includes(`${user.service}:${user.provider_user_id}`);
}

/** Who may call a route, by its `config.auth` (a route that does not say needs a session). */
const accessOf = (config: { auth?: RouteAccess } | undefined): RouteAccess =>
  config?.auth ?? 'session';

/**
 * One hook enforces every route's declared `config.auth`. It runs before the handler and after
 * the body is validated, so a malformed request is a 400 whoever sends it, and the rate limits
 * (which run first of all) count anonymous guesses too.
 *
 * Every route it checks a session on is rate-limited per client address, so that no route can
 * be added without a limit: `API_RATE_LIMIT` (`config.apiRateLimit`) unless the route declares
 * a limit of its own (the TOTP routes take LOGIN_RATE_LIMIT); `rateLimit: false` on such a route
 * stops the app from being built. Each wrong token is a lock-out entry (Lockout.beginSession):
 * routes without a limit let one address fill the lock-out table with random user ids, and every
 * sign-in after that was refused. Install it before @fastify/rate-limit is registered (that
 * plugin reads each route's limit in its own onRoute hook, which must run after this one) and
 * before the routes.
 */
export function installGuard(app: FastifyInstance, context: ChatContext): void {
  const apiLimit = { max: context.config.apiRateLimit, timeWindow: 60_000 };
  app.addHook('onRoute', (route) => {
    const methods = [route.method].flat();
    // A CORS preflight never carries credentials, and the guard lets it through.
    if (accessOf(route.config) === 'public' || methods.every((method) => method === 'OPTIONS')) {
      return;
    }
    const declared = route.config?.rateLimit;
    if (declared === false) {
      throw new Error(
        `${methods.join(',')} ${route.url}: a route that needs a session cannot go without a rate limit`,
      );
    }
    if (declared == null) route.config = { ...route.config, rateLimit: apiLimit };
  });

  app.decorateRequest('chatSession', null);
  app.addHook('preHandler', async (request) => {
    // Unknown routes answer 404 whoever asks; a CORS preflight never carries credentials.
    if (request.is404 || request.method === 'OPTIONS') return;
    const access = accessOf(request.routeOptions.config);
    if (access === 'public') return;
    const session = await authenticate(request, context);
    request.chatSession = session;
    if (access === 'admin') requireAdmin(request, context);
  });
}

/** The caller's session on a route that is not public (the guard has set it). */
export function sessionOf(request: FastifyRequest): Session {
  if (!request.chatSession) throw unauthorized();
  return request.chatSession;
}

/**
 * For a route open to every user that acts as an admin on some requests only (logging out
 * someone else): refuses the caller unless an admin.
 */
export function requireAdmin(request: FastifyRequest, context: ChatContext): void {
  if (!isAdmin(context, sessionOf(request).user)) throw forbidden(ADMIN_ONLY_MESSAGE);
}
