import type { ExchangeFailure, ExchangeResponse } from '../capture/record.js';
import type { HeaderPairs, RouteSpec } from '../config/types.js';

/** A request to send to a forward or replay target: what goes on the wire, exactly. */
export interface OutgoingRequest {
  readonly method: string;
  /** Path and query as sent (still percent-encoded). */
  readonly target: string;
  /** In order, names as sent, values binary strings (see `headerValueBytes`). */
  readonly headers: HeaderPairs;
  readonly body: Buffer;
}

export interface SendOptions {
  /** No complete answer within this is a `timeout` failure. */
  readonly timeoutMs: number;
  /** Bytes of the answer's body kept; the rest is read and dropped (`truncated`). */
  readonly maxResponseBody: number;
  /** Aborting ends the exchange as `cancelled`. */
  readonly signal?: AbortSignal;
}

/**
 * The URL a request goes to: the part of its path the route matched (all of it for an exact route,
 * the prefix before `/*` for a wildcard one, nothing without a route) is replaced by `base`'s
 * path; the rest of the path and the query follow as sent.
 */
export function forwardUrl(base: string, route: RouteSpec | null, target: string): string {
  void base;
  void route;
  void target;
  throw new Error('not implemented');
}

/** The request's headers for the target: hop-by-hop ones dropped, `Host` rewritten. */
export function forwardHeaders(headers: HeaderPairs, url: URL): HeaderPairs {
  void headers;
  void url;
  throw new Error('not implemented');
}

/** Sends one request and waits for the whole answer; never rejects (failures are values). */
export function sendRequest(
  request: OutgoingRequest,
  url: string,
  options: SendOptions,
): Promise<ExchangeResponse | ExchangeFailure> {
  void request;
  void url;
  void options;
  throw new Error('not implemented');
}
