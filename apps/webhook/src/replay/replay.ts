import type { CapturedRequest, ForwardResult, RequestDraft } from '../capture/record.js';
import { targetPath, verificationText } from '../capture/record.js';
import type { HeaderPairs, RouteSpec, VerifySpec } from '../config/types.js';
import { sendRequest } from '../forward/client.js';
import { forwardUrl, recordedTarget } from '../forward/url.js';
import { sign, signatureMatched } from '../verify/verify.js';

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
 * Why a replay of `captured` (the request as first captured) is sent as captured rather than
 * re-signed, though a verify scheme applies; null when it may be re-signed. Re-signing puts the
 * real secret's signature on whatever is sent: only on a request that carried one already (its
 * check passed when captured, or failed only on a timestamp already too old), or on a body the
 * user edited (their own request). A forged request that failed its check stays as forged.
 */
export function resignRefusal(captured: CapturedRequest, edits?: ReplayEdits): string | null {
  if (edits?.body !== undefined) return null;
  const verification = captured.verification;
  if (verification === undefined) return `#${captured.seq} was not verified when captured`;
  if (signatureMatched(verification)) return null;
  return `#${captured.seq} failed its signature check when captured (${verificationText(verification)})`;
}

export const REPLAY_DEFAULTS = { timeoutMs: 10_000, maxResponseBody: 10 * 1024 * 1024 } as const;

/**
 * Sends `record` again (edited, re-signed) and returns the new record to add to the store: the
 * request as sent, `replayOf` the original's seq, `forward` the target's answer or failure. Never
 * rejects for network failures; those are in `forward`.
 */
export async function replay(
  record: CapturedRequest,
  options: ReplayOptions,
): Promise<RequestDraft> {
  const { draft, send } = prepareReplay(record, options);
  return send ? { ...draft, forward: await send() } : draft;
}

/**
 * The replay's record before it is sent (`forward` pending, or the failure that keeps it from
 * being sent) and what sends it: the UI shows the row at once, under way, and updates it with the
 * answer.
 */
export function prepareReplay(
  record: CapturedRequest,
  options: ReplayOptions,
): { draft: RequestDraft; send: (() => Promise<ForwardResult>) | null } {
  const now = options.now ?? Date.now;
  const edits = options.edits ?? {};
  const method = edits.method ?? record.method;
  const target = edits.target ?? record.target;
  const body = edits.body ?? record.body;
  let headers = edits.headers ?? record.headers;
  const sentAt = now();
  if (options.resign) headers = sign({ headers, body }, options.resign, sentAt);
  const url = forwardUrl(options.to, options.route ?? null, target);
  const path = targetPath(target);
  const base: RequestDraft = {
    receivedAt: sentAt,
    method,
    target,
    path,
    url,
    query: [],
    headers,
    body,
    size: body.length,
    truncated: false,
    remote: 'replay',
    httpVersion: '1.1',
    // A replay of a replay still points at the request first captured.
    replayOf: record.replayOf ?? record.seq,
  };
  if (record.truncated && edits.body === undefined) {
    const draft: RequestDraft = {
      ...base,
      forward: {
        kind: 'failure',
        target: url,
        failure: 'error',
        message: 'body truncated by --max-body when captured; not replayed',
        durationMs: 0,
      },
    };
    return { draft, send: null };
  }
  return {
    draft: { ...base, forward: { kind: 'pending', ...recordedTarget(url) } },
    send: () =>
      sendRequest({ method, target, headers, body }, url, {
        timeoutMs: options.timeoutMs ?? REPLAY_DEFAULTS.timeoutMs,
        maxResponseBody: options.maxResponseBody ?? REPLAY_DEFAULTS.maxResponseBody,
      }),
  };
}
