import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Role } from '../auth/roles.js';
import type { TokenService } from '../auth/tokens.js';
import { ApiError } from '../errors.js';
import { PAGE_READ_HEADER, PAGE_READ_TOKEN } from '../protections/rate-limit.js';

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
 * client's address is passed on, so rate limits and the audit trail see the real client: a
 * page view is counted once (its page), a form post once (the post itself).
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
    // A page view or a form post counts once against the client's rate limit (the page's or
    // the post's own request): its reads of the API, and a post's write, are not counted again.
    headers[PAGE_READ_HEADER] = PAGE_READ_TOKEN;
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

/** Headers of an API refusal that the page answering with it passes on to the browser. */
const PASSED_ON = [
  'retry-after',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
];

/**
 * The API's refusal as the page's own error: its status, message and Retry-After, so a page
 * rate limited by the API says so (429, when to come back) instead of showing less.
 */
export function apiError(answer: ApiAnswer): ApiError {
  const headers: Record<string, string> = {};
  for (const name of PASSED_ON) {
    const value = answer.headers[name];
    if (value !== undefined) headers[name] = String(value);
  }
  return new ApiError(answer.status, errorMessage(answer), headers);
}

/**
 * The answer when the API gave `expected`, else the page fails with the API's refusal: a
 * section of a page is never shown empty for a call that was refused.
 */
export function answered<T>(answer: ApiAnswer<T>, expected = 200): ApiAnswer<T> {
  if (answer.status !== expected) throw apiError(answer);
  return answer;
}
