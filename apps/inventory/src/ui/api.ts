import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '../auth/roles.js';
import type { TokenService } from '../auth/tokens.js';

export interface ApiAnswer<T = unknown> {
  status: number;
  /** The parsed JSON body, or undefined when the answer was not JSON. */
  body: T;
  text: string;
  headers: Record<string, string | string[] | number | undefined>;
}

export interface SignedInUser {
  id: string;
  username: string;
  role: Role;
  /** The account's token epoch (users.password_changed_at in ms). */
  epoch: number;
  /** The session's id hash: the API refuses a write made for a session that has ended since. */
  session: string;
}

export type ApiCall = <T = Record<string, unknown>>(
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE',
  url: string,
  options?: { payload?: unknown; headers?: Record<string, string> },
) => Promise<ApiAnswer<T>>;

/**
 * Every read and write of the interface is a request to the API's own routes (`inject`: no
 * socket), made with the signed-in user's identity, so the API's roles, validation, ETags and
 * If-Match, audit trail, history and webhooks apply unchanged: the interface is not a second
 * way to write. The token is minted for this one request and never leaves the process; the
 * client's address is passed on, so rate limits and the audit trail see the real client.
 */
export function apiFor(
  app: FastifyInstance,
  tokens: TokenService,
  request: FastifyRequest,
  user: SignedInUser | undefined,
): ApiCall {
  let bearer: string | undefined;
  return async (method, url, options = {}) => {
    if (user && bearer === undefined) {
      bearer = tokens.sign({
        sub: user.id,
        username: user.username,
        role: user.role,
        pwd: user.epoch,
        sid: user.session,
      });
    }
    const headers: Record<string, string> = { ...options.headers };
    if (bearer) headers.authorization = `Bearer ${bearer}`;
    // The page's request id: the audit trail names the request the user made.
    headers['x-request-id'] = request.id;
    const response = await app.inject({
      method,
      url,
      headers,
      remoteAddress: request.ip,
      ...(options.payload !== undefined
        ? typeof options.payload === 'string'
          ? { payload: options.payload }
          : { payload: options.payload as Record<string, unknown> }
        : {}),
    });
    const type = String(response.headers['content-type'] ?? '');
    let body: unknown;
    if (type.startsWith('application/json') && response.body !== '') {
      body = JSON.parse(response.body);
    }
    return {
      status: response.statusCode,
      body: body as never,
      text: response.body,
      headers: response.headers,
    };
  };
}

/** The API's error message, or a generic one. */
export function errorMessage(answer: ApiAnswer): string {
  const body = answer.body as { message?: unknown } | undefined;
  return typeof body?.message === 'string' ? body.message : `The API answered ${answer.status}`;
}
