/**
 * Every error the service answers with is `{status: "error", error: <code>, message}`. Code raises a
 * ChatError (through the factories below) and the one error handler in app.ts renders it; nothing
 * else writes error bodies. The codes are part of the API: README.md lists each with its status.
 */
export type ErrorCode =
  | 'invalid-request'
  | 'request-timeout'
  | 'headers-too-large'
  | 'payload-too-large'
  | 'unsupported-media-type'
  | 'unknown-service'
  | 'invalid-credentials'
  | 'unauthorized'
  | 'account-deactivated'
  | 'not-found'
  | 'too-many-requests'
  | 'account-locked'
  | 'provider-unavailable'
  | 'provider-timeout'
  | 'service-unavailable'
  | 'internal-error'
  | 'forbidden'
  | 'totp-required'
  | 'totp-invalid'
  | 'totp-already-enabled'
  | 'two-factor-unavailable'
  | 'password-login-unavailable'
  | 'method-not-allowed';

export class ChatError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: ErrorCode,
    message: string,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
    /** Rendered as `details` (Rocket.Chat's two-factor errors carry the method to use). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ChatError';
  }
}

export interface ErrorBody {
  status: 'error';
  error: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

export const errorBody = (error: ChatError): ErrorBody => ({
  status: 'error',
  error: error.code,
  message: error.message,
  ...(error.details ? { details: error.details } : {}),
});

export const LOGGED_OUT_MESSAGE = 'You must be logged in to do this.';

export const invalidRequest = (message: string) => new ChatError(400, 'invalid-request', message);
/** 401 as every refused login (Rocket.Chat answers 401 to a login it refuses, whatever the reason). */
export const unknownService = (name: string) =>
  new ChatError(401, 'unknown-service', `Service "${name}" is not configured`);
export const invalidCredentials = (message: string) =>
  new ChatError(401, 'invalid-credentials', message);
export const unauthorized = () => new ChatError(401, 'unauthorized', LOGGED_OUT_MESSAGE);
export const accountDeactivated = () =>
  new ChatError(403, 'account-deactivated', 'This account has been deactivated');
export const notFound = (message: string) => new ChatError(404, 'not-found', message);
export const accountLocked = (retryAfterSeconds: number) =>
  new ChatError(
    429,
    'account-locked',
    `Too many failed attempts for this account; try again in ${retryAfterSeconds} seconds`,
    { 'retry-after': String(retryAfterSeconds) },
  );
/** A per-address rate limit, or a lock-out table that is full: nothing is forgotten, so wait. */
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new ChatError(429, 'too-many-requests', message, {
    'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))),
  });
export const providerUnavailable = (message: string) =>
  new ChatError(502, 'provider-unavailable', message);
/**
 * The provider budget ran out. `why` says so when it ran out before the provider was asked:
 * earlier logins with the same credentials held every lock-out slot.
 */
export const providerTimeout = (provider: string, why?: string) =>
  new ChatError(
    504,
    'provider-timeout',
    `The identity provider "${provider}" did not answer in time${why ? ` (${why})` : ''}`,
  );

/** What Rocket.Chat's two-factor errors say in `details`: TOTP is the one method offered. */
const TOTP_DETAILS = { method: 'totp', availableMethods: ['totp'] };
export const totpRequired = () =>
  new ChatError(401, 'totp-required', 'TOTP Required', {}, TOTP_DETAILS);
export const totpInvalid = () =>
  new ChatError(401, 'totp-invalid', 'TOTP Invalid', {}, TOTP_DETAILS);
export const twoFactorUnavailable = (why = 'the server has no TWO_FACTOR_KEY') =>
  new ChatError(
    503,
    'two-factor-unavailable',
    `Two-factor authentication is not available (${why})`,
  );
export const forbidden = (message: string) => new ChatError(403, 'forbidden', message);
export const methodNotAllowed = (allowed: readonly string[]) =>
  new ChatError(405, 'method-not-allowed', `Use ${allowed.join(' or ')} here`, {
    allow: allowed.join(', '),
  });
