import { endToEndHeaders } from '../forward/hop-by-hop.js';
import { passedThrough, viaValue } from '../forward/loop.js';
import type { ForwardQueue } from '../forward/queue.js';
import { forwardUrl, recordedTarget } from '../forward/url.js';
import type { Router } from '../respond/routes.js';
import { verify } from '../verify/verify.js';
import {
  type CapturedRequest,
  type ExchangeFailure,
  type ExchangeResponse,
  type RequestDraft,
  type SentResponse,
  StoredRequest,
} from './record.js';
import type { Answer } from './server.js';
import type { RequestStore } from './store.js';

export interface PipelineOptions {
  readonly store: RequestStore;
  readonly route: Router;
  readonly queue: ForwardQueue;
  readonly respondWithForward: boolean;
  readonly rejectInvalid: boolean;
  /** This run's mark in the `Via` header of what it forwards (see `forward/loop.ts`). */
  readonly loopMark: string;
  /** Called once per record when it is complete (its forward finished): printers, --save. */
  readonly complete: (record: CapturedRequest) => void;
  /**
   * Records whose forward is under way, by seq (kept up to date here): what stopping the tool
   * would otherwise lose, since they reach `complete` only when the target answers.
   */
  readonly pending: Map<number, CapturedRequest>;
}

/** The answer the original caller gets with --respond-with-forward. */
export function answerFromForward(result: ExchangeResponse | ExchangeFailure): SentResponse {
  if (result.kind === 'response') {
    return { status: result.status, headers: endToEndHeaders(result.headers), body: result.body };
  }
  const status =
    result.failure === 'timeout'
      ? 504
      : result.failure === 'queue-full'
        ? 503
        : result.failure === 'loop'
          ? 508
          : 502;
  return {
    status,
    headers: [['Content-Type', 'text/plain; charset=utf-8']],
    body: Buffer.from(
      `webhook: forward to ${result.target} failed: ${result.failure} (${result.message})\n`,
    ),
  };
}

const EMPTY = Buffer.alloc(0);

/**
 * The response as it goes on the wire: an answer to HEAD, a 204 and a 304 carry no body (Node
 * drops it), so the record holds none either (it showed a body that was never sent).
 */
export function asSent(method: string, response: SentResponse): SentResponse {
  if (response.body.length === 0) return response;
  if (method !== 'HEAD' && response.status !== 204 && response.status !== 304) return response;
  return { ...response, body: EMPTY };
}

function rejection(reason: string): SentResponse {
  return {
    status: 401,
    headers: [['Content-Type', 'text/plain; charset=utf-8']],
    body: Buffer.from(`webhook: signature verification failed: ${reason}\n`),
  };
}

/**
 * What happens to each complete request: the route decides the response, the signature check and
 * the forward target; the record goes into the store at once (its forward pending), and its
 * forward result follows when the target answers (capturing never waits for it, unless
 * --respond-with-forward asks to answer with the target's response).
 */
export function createPipeline(
  options: PipelineOptions,
): (
  draft: RequestDraft,
  onComplete?: (record: CapturedRequest) => void,
) => Answer | Promise<Answer> {
  const { store, route, queue, pending } = options;

  return (draft, onComplete) => {
    const complete = (record: CapturedRequest) => {
      options.complete(record);
      onComplete?.(record);
    };
    const decision = route(draft.method, draft.path);
    // A draft's headers may be packed (the capture server's): unpacked once, and only when a
    // signature check or a forward needs them.
    const headers = decision.verify || decision.forward ? draft.headers : [];
    const verification = decision.verify
      ? verify({ headers, body: draft.body, truncated: draft.truncated }, decision.verify)
      : undefined;
    const rejected = options.rejectInvalid && verification !== undefined && !verification.ok;
    const response: SentResponse = asSent(
      draft.method,
      rejected ? rejection(verification?.reason ?? '') : decision.response.sent,
    );
    const checked = verification ? { verification } : {};

    if (!decision.forward || rejected) {
      complete(store.add(draft, { ...checked, response }));
      return response;
    }

    const url = forwardUrl(decision.forward.base, decision.forward.route, draft.target);
    const refuse = (failure: ExchangeFailure['failure'], message: string) =>
      Promise.resolve<ExchangeFailure>({
        kind: 'failure',
        target: url,
        failure,
        message,
        durationMs: 0,
      });
    const sent: Promise<ExchangeResponse | ExchangeFailure> = draft.truncated
      ? refuse('error', 'body truncated by --max-body; not forwarded')
      : passedThrough(headers, options.loopMark)
        ? refuse(
            'loop',
            `already forwarded by this tool (Via: ${viaValue(options.loopMark)}): a forwarding loop; not forwarded again`,
          )
        : queue.submit(
            {
              method: draft.method,
              target: draft.target,
              headers,
              body: draft.body,
            },
            url,
          );

    // The record exists from capture on, its forward pending, in both modes: stopping the tool
    // while the target has not answered hands it on as such (--save, --json) instead of losing it.
    // With --respond-with-forward it has no response yet: the sender is answered (and the record
    // gets its response) when the target answers.
    const record = store.add(draft, {
      ...checked,
      ...(options.respondWithForward ? {} : { response }),
      forward: { kind: 'pending', ...recordedTarget(url) },
    });
    pending.set(record.seq, record);
    const finished = sent.then((forward) => {
      const outcome = options.respondWithForward
        ? { response: asSent(draft.method, answerFromForward(forward)), forward }
        : { forward };
      // Already handed on as pending (the tool is stopping): once is all a record is reported.
      if (pending.delete(record.seq)) {
        // Dropped from memory meanwhile: the printers and --save still get the whole record.
        complete(
          store.update(record.seq, outcome) ?? StoredRequest.from(record.seq, record, outcome),
        );
      }
      return outcome.response ?? response;
    });
    if (options.respondWithForward) return finished;
    void finished;
    return response;
  };
}
