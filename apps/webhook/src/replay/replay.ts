import type { CapturedRequest, RequestDraft } from '../capture/record.js';
import type { HeaderPairs, RouteSpec, VerifySpec } from '../config/types.js';

/** Changes made before a replay ("replay with modifications"); anything absent stays as captured. */
export interface ReplayEdits {
  readonly method?: string;
  /** Path and query, as they go on the wire. */
  readonly target?: string;
  /** The complete header list (order and case as given; values binary strings). */
  readonly headers?: HeaderPairs;
  readonly body?: Buffer;
}

export interface ReplayOptions {
  /**
   * Where to send it: a base URL, joined with the request's target by `forwardUrl`'s rule
   * (with `route`, the part of the path the route matched is replaced by the base's path).
   */
  readonly to: string;
  readonly route?: RouteSpec | null;
  /** Recompute the signature (fresh timestamp) under this scheme and secret; null: send as is. */
  readonly resign?: VerifySpec | null;
  readonly edits?: ReplayEdits;
  readonly timeoutMs?: number;
  readonly maxResponseBody?: number;
  /** The clock for the fresh timestamp (tests). */
  readonly now?: () => number;
}

/**
 * Sends `record` again (edited, re-signed) and returns the new record to add to the store: the
 * request as sent, `replayOf` the original's seq, `forward` the target's answer or failure. Never
 * rejects for network failures; those are in `forward`.
 */
export async function replay(
  record: CapturedRequest,
  options: ReplayOptions,
): Promise<RequestDraft> {
  void record;
  void options;
  throw new Error('not implemented');
}
