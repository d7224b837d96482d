import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { Type } from 'typebox';
import { type AuditEntry, actorOf, writeAuditEntries } from '../audit/audit-log.js';
import type { Database } from '../db/schema.js';
import { ApiError, unauthorized } from '../errors.js';
import { errorAnswer, responses, SuccessMessage } from '../resources/schemas.js';
import { INACTIVE_ACCOUNT_MESSAGE, presentedToken, TOKEN_COOKIE } from './guard.js';
import type { LoginLockout } from './login-lockout.js';
import type { PasswordHasher } from './passwords.js';
import type { TokenService } from './tokens.js';
import { findUserForLogin } from './users.js';

export interface AuthRoutesOptions {
  db: Kysely<Database>;
  hasher: PasswordHasher;
  tokens: TokenService;
  /** Bounds failed logins per account (login-lockout.ts). */
  lockout: LoginLockout;
}

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid credentials';
export const LOGIN_LOCKED_MESSAGE = 'Too many failed logins, try again later';

const LoginResult = Type.Object({
  status: Type.Literal('success'),
  message: Type.String(),
  token: Type.String({ description: 'JWT (HS256); also set in the Bearer cookie' }),
});

const LoginBody = Type.Object(
  {
    username: Type.String({ minLength: 1, maxLength: 255 }),
    // Bounded: argon2 hashes whatever it gets, and a huge password would be a cheap DoS.
    password: Type.String({ minLength: 1, maxLength: 1024 }),
  },
  { additionalProperties: false },
);

/** POST /users/login and POST /users/logout. */
export const authRoutes: FastifyPluginAsyncTypebox<AuthRoutesOptions> = async (
  app,
  { db, hasher, tokens, lockout },
) => {
  const cookieOptions = {
    path: '/',
    httpOnly: true,
    secure: true,
    sameSite: 'strict' as const,
  };

  app.post(
    '/users/login',
    {
      config: { access: 'public' },
      schema: {
        body: LoginBody,
        // Public, yet it answers 401 and 403 itself: the document's own statuses for public
        // routes name neither.
        response: responses({
          200: LoginResult,
          401: errorAnswer('Wrong username or password.'),
          403: errorAnswer(
            'The account is inactive; or, as on every route, a browser request from an origin not allowed or from another site.',
          ),
        }),
      },
    },
    async (request, reply) => {
      const { username, password } = request.body;
      // Before any password work: a refused attempt costs no argon2 verification.
      const waitMs = await lockout.attempt(username, request.ip);
      if (waitMs > 0) {
        throw new ApiError(429, LOGIN_LOCKED_MESSAGE, {
          'retry-after': String(Math.ceil(waitMs / 1000)),
        });
      }
      const user = await findUserForLogin(db, username);
      // Unknown users cost one argon2 verify too (against a dummy hash): timing tells nothing.
      const valid = await hasher.verify(user?.password_hash, password);
      if (!user || !valid) {
        // Written for unknown names too (same cost); the name tried is kept, never the password.
        await writeAuditEntries(db, actorOf(request), [sessionEntry('login_failed', username)]);
        throw unauthorized(INVALID_CREDENTIALS_MESSAGE);
      }
      // The password matched: whoever knows it is no guesser, whatever the account's state.
      await lockout.succeeded(username, request.ip);
      // Only after the password matched: the account's state is nobody else's business.
      if (user.inactive_status) throw new ApiError(403, INACTIVE_ACCOUNT_MESSAGE);
      const token = tokens.sign({
        sub: user.id,
        username: user.username,
        role: user.role,
        pwd: user.password_changed_at.getTime(),
      });
      await writeAuditEntries(
        db,
        { ...actorOf(request), userId: user.id, username: user.username },
        [sessionEntry('login', user.username)],
      );
      reply.setCookie(TOKEN_COOKIE, token, { ...cookieOptions, maxAge: tokens.ttlSeconds });
      return { status: 'success' as const, message: 'Login successful', token };
    },
  );

  // Public: it only tells the browser to drop its cookie; a JWT cannot be revoked one by one
  // (changing the password or deactivating the account ends every token of the user).
  app.post(
    '/users/logout',
    { config: { access: 'public' }, schema: { response: responses({ 200: SuccessMessage }) } },
    async (request, reply) => {
      const user = signedInUser(request, tokens);
      if (user) {
        await writeAuditEntries(db, { ...actorOf(request), ...user }, [
          sessionEntry('logout', user.username),
        ]);
      }
      reply.clearCookie(TOKEN_COOKIE, cookieOptions);
      return { status: 'success' as const, message: 'Logged out' };
    },
  );
};

/**
 * Sign-ins are audited as events of the account's sessions (`resource_type=sessions`, the
 * account name as `resource_id`, so that failed attempts on unknown names are found the same
 * way); the rows of the user record itself stay the record's changes.
 */
function sessionEntry(action: 'login' | 'login_failed' | 'logout', username: string): AuditEntry {
  return { action, resourceType: 'sessions', resourceId: username, changes: null };
}

/** Who a public route's caller is, if they sent a valid token; nobody otherwise. */
function signedInUser(request: FastifyRequest, tokens: TokenService) {
  try {
    const token = presentedToken(request);
    if (token === undefined) return undefined;
    const claims = tokens.verify(token);
    return { userId: claims.sub, username: claims.username };
  } catch {
    return undefined;
  }
}
