/**
 * Every error the API answers with is `{status: "error", message}` with an HTTP status. Code
 * raises an ApiError (or one of the helpers below) and one error handler renders it; nothing
 * else writes error bodies.
 */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    /** Extra response headers, e.g. Retry-After on 429. */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export interface ErrorBody {
  status: 'error';
  message: string;
}

export const errorBody = (message: string): ErrorBody => ({ status: 'error', message });

export const badRequest = (message: string) => new ApiError(400, message);

/**
 * A 400 about one field of a write (`speed_mbps: 5 is not speed …`): an item of a bulk create or
 * batch names it as a schema refusal does, `Item 1 (speed_mbps): 5 is not speed …`.
 */
export class FieldRefusal extends ApiError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super(400, `${field}: ${reason}`);
    this.name = 'FieldRefusal';
  }
}
export const unauthorized = (message = 'Unauthorized: No security token provided') =>
  new ApiError(401, message);
export const forbidden = (
  message = 'Forbidden: You do not have permission to perform this action',
) => new ApiError(403, message);
export const notFound = (message: string) => new ApiError(404, message);
export const conflict = (message: string) => new ApiError(409, message);
