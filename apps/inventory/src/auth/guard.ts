import type { FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError, forbidden, unauthorized } from '../errors.js';
import {
  type ApiTokenPrincipal,
  type ApiTokenScope,
  type ApiTokenService,
  isApiToken,
} from './api-tokens.js';
import { type Access, isAllowed, type Role } from './roles.js';
import { INVALID_TOKEN_MESSAGE, type TokenService } from './tokens.js';
import type { UserCache } from './user-cache.js';

export interface AuthenticatedUser {
  id: string;
  username: string;
  role: Role;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Who may call the route; routes that do not say are for signed-in users only. */
    access?: Access;
    /**
     * The scope an API token needs to call the route (auth/api-tokens.ts); routes that do not
     * declare one refuse API tokens. Independent of `access`, which is about people.
     */
    apiTokenScope?: ApiTokenScope;
  }
  interface FastifyRequest {
    /** Set by the guard on every route that is not public, unless an API token called it. */
    user: AuthenticatedUser | null;
    /** Set by the guard when an API token called the route. */
    apiToken: ApiTokenPrincipal | null;
    /**
     * The identity the guard admitted, as the writing transaction checks it again (migration
     * 020): null on public routes.
     */
    principal: Principal | null;
  }
  interface FastifyInstance {
    /** The account rows the guard reads; mutations of accounts make it forget theirs. */
    userCache: UserCache;
  }
}

/**
 * What must still hold when a request writes, checked again inside the writing statement or
 * transaction (audit/audit-log.ts, migration 020): the request was admitted as this identity
 * when its headers arrived, and its body may come much later. A person must still be active,
 * with the same role and token epoch (and, for the web interface's calls, the same session); an
 * API token must still exist, unexpired, with the scope.
 */
export type Principal =
  | { user: string; role: Role; epoch: number; session?: string }
  | { token: string; scope: ApiTokenScope };

export const TOKEN_COOKIE = 'Bearer';
export const INACTIVE_ACCOUNT_MESSAGE = 'Account is inactive';
export const REVOKED_TOKEN_MESSAGE = 'Unauthorized: Token no longer valid';

export interface GuardOptions {
  users: UserCache;
  tokens: TokenService;
  apiTokens: ApiTokenService;
}

/** The header wins over the cookie; a header with another scheme is a bad token, not none. */
export function presentedToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match?.[1]) throw unauthorized(INVALID_TOKEN_MESSAGE);
    return match[1];
  }
  const cookie = request.cookies[TOKEN_COOKIE];
  return cookie === undefined || cookie === '' ? undefined : cookie;
}

/**
 * One hook enforces every route's declared `config.access`. The token is checked, then the
 * user's row (from memory, forgotten on every change: see user-cache.ts): a deactivated account
 * or a password changed since the token was minted ends the token, and the role comes from the
 * row, so a demotion takes effect without waiting for tokens to expire.
 *
 * A token carries its account's `password_changed_at` (claim `pwd`), which is the account's token
 * epoch: it moves on a password change and on a deactivation (a trigger, migration 010), so a
 * reactivated account's old tokens stay dead. An inactive account's token is answered 403 (it
 * says why), one from before the epoch moved 401.
 *
 * API tokens (`nit_…`) are checked by their own service and admitted only by routes declaring
 * the scope they hold (`config.apiTokenScope`).
 */
export const authGuard = fp<GuardOptions>(
  async (app, { users, tokens, apiTokens }) => {
    app.decorateRequest('user', null);
    app.decorateRequest('apiToken', null);
    app.decorateRequest('principal', null);
    app.decorate('userCache', users);
    app.addHook('onRequest', async (request) => {
      // Unknown routes answer 404 (or 405) whoever asks.
      if (request.is404) return;
      const access = request.routeOptions.config.access ?? 'authenticated';
      if (access === 'public') return;
      const token = presentedToken(request);
      if (token === undefined) throw unauthorized();
      if (isApiToken(token)) {
        const principal = await apiTokens.verify(token);
        const scope = request.routeOptions.config.apiTokenScope;
        if (scope === undefined || !principal.scopes.includes(scope)) throw forbidden();
        request.apiToken = principal;
        request.principal = { token: principal.id, scope };
        return;
      }
      const claims = tokens.verify(token);
      const user = await users.find(claims.sub);
      if (!user) throw unauthorized(REVOKED_TOKEN_MESSAGE);
      if (user.inactive_status) throw new ApiError(403, INACTIVE_ACCOUNT_MESSAGE);
      if (user.password_changed_at.getTime() !== claims.pwd) {
        throw unauthorized(REVOKED_TOKEN_MESSAGE);
      }
      request.user = { id: user.id, username: user.username, role: user.role };
      request.principal = {
        user: user.id,
        role: user.role,
        epoch: claims.pwd,
        ...(claims.sid !== undefined ? { session: claims.sid } : {}),
      };
      const routeId = (request.params as { id?: unknown } | undefined)?.id;
      if (
        !isAllowed(access, user, typeof routeId === 'string' ? routeId.toLowerCase() : undefined)
      ) {
        throw forbidden();
      }
    });
  },
  { name: 'auth-guard', dependencies: ['@fastify/cookie'] },
);
