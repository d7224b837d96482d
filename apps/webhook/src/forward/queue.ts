/** The forward queue: bounded, in arrival order, so capturing never waits for a target. */
import { setMaxListeners } from 'node:events';
import { Agent as HttpAgent } from 'node:http';
import { Agent as HttpsAgent } from 'node:https';
import type { ExchangeFailure, ExchangeResponse } from '../capture/record.js';
import { type OutgoingRequest, sendRequest } from './client.js';

export interface ForwardQueueOptions {
  /** Requests sent at the same time, over all targets; the rest wait. */
  readonly concurrency: number;
  /**
   * Requests sent to one target (scheme, host and port) at the same time (default: all of
   * `concurrency`). At 1 each target gets its forwards one after another in capture order: the
   * next is sent once the previous one was answered (or failed). Above 1 they are sent in capture
   * order but may overtake each other on their way.
   */
  readonly perTarget?: number;
  /** Requests waiting or under way; beyond it a request is not forwarded (`queue-full`). */
  readonly maxQueued: number;
  /**
   * Bytes (bodies and headers) of the requests waiting or under way, and of the answers being
   * received; beyond it a request is `queue-full` and an answer is kept `truncated`.
   */
  readonly maxQueuedBytes: number;
  readonly timeoutMs: number;
  readonly maxResponseBody: number;
  /** The `Via` value every forward carries (see `loop.ts`). */
  readonly via?: string;
}

/**
 * Fixed limits of the forward queue (README "Forward"): a target slower than the requests
 * arriving, or dead, costs at most this much memory; the requests beyond it are recorded with
 * the failure `queue-full` and not sent.
 */
export const FORWARD_QUEUE_LIMITS = {
  // A cap, not a count: connections are opened only while every open one is busy, so a trickle
  // of webhooks uses one. At 8, a flood of captures left most requests `queue-full` (the target's
  // round trip, not its capacity, was the limit); at 64 a local app keeps up (README "Benchmark").
  concurrency: 64,
  maxQueued: 1000,
  maxQueuedBytes: 32 * 1024 * 1024,
} as const;

interface Waiting {
  readonly request: OutgoingRequest;
  readonly url: string;
  /** The target it goes to (`scheme://host:port`): the unit of --forward-concurrency. */
  readonly key: string;
  /** Its place in the arrival order over all targets: free slots go to the oldest waiting. */
  readonly order: number;
  bytes: number;
  /** The forward timeout counts from here: waiting in the queue uses it up too. */
  readonly deadline: number;
  readonly resolve: (result: ExchangeResponse | ExchangeFailure) => void;
}

/** The target a URL's request goes to, as connections are pooled: scheme, host and port. */
export function targetKey(url: string): string {
  const origin = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(url);
  return (origin?.[0] ?? url).toLowerCase();
}

/** One target's requests waiting (in arrival order) and how many are under way. */
interface Target {
  readonly waiting: Waiting[];
  active: number;
}

/**
 * Sends requests to forward targets in arrival order over all targets, never more than
 * `perTarget` at once to one target (one: they arrive in order too), nor more than `concurrency`
 * in all, never holding more than its limits: capturing never waits for it.
 */
export class ForwardQueue {
  /** Targets with requests waiting or under way. */
  private readonly targets = new Map<string, Target>();
  /** The next request's place in the arrival order. */
  private arrivals = 0;
  private waitingCount = 0;
  private active = 0;
  private bytes = 0;
  private readonly abort = new AbortController();
  private readonly agents: { http: HttpAgent; https: HttpsAgent };
  private readonly perTarget: number;

  constructor(private readonly options: ForwardQueueOptions) {
    // Each forward under way listens to the queue's one abort signal (stopping the tool cancels
    // them all), and at most `concurrency` are under way: past Node's default of 10 it printed a
    // MaxListenersExceededWarning, a leak there is not, onto the UI's screen.
    setMaxListeners(options.concurrency + 1, this.abort.signal);
    this.perTarget = Math.max(
      1,
      Math.min(options.perTarget ?? options.concurrency, options.concurrency),
    );
    // One keep-alive pool per target (Agent keys its sockets by host and port): a forward reuses
    // an idle connection, so it costs neither a TCP handshake nor a DNS lookup (done per new
    // connection only). LIFO reuse keeps the fewest connections warm; idle ones are closed
    // before the server's own keep-alive timeout (Node honours its `Keep-Alive: timeout` hint).
    const agentOptions = {
      keepAlive: true,
      maxSockets: options.concurrency,
      scheduling: 'lifo' as const,
    };
    this.agents = { http: new HttpAgent(agentOptions), https: new HttpsAgent(agentOptions) };
  }

  /** Requests waiting or under way, and their bytes. */
  get load(): { readonly requests: number; readonly bytes: number } {
    return { requests: this.waitingCount + this.active, bytes: this.bytes };
  }

  /** Sends `request` to `url` when a slot is free; resolves with the answer or the failure. */
  submit(request: OutgoingRequest, url: string): Promise<ExchangeResponse | ExchangeFailure> {
    const bytes = outgoingBytes(request);
    const full =
      this.waitingCount + this.active >= this.options.maxQueued ||
      this.bytes + bytes > this.options.maxQueuedBytes;
    if (full || this.abort.signal.aborted) {
      const failure: ExchangeFailure = {
        kind: 'failure',
        target: url,
        failure: full ? 'queue-full' : 'cancelled',
        message: full
          ? `forward queue full (${this.waitingCount + this.active} requests, ${this.bytes} bytes waiting)`
          : 'the tool stopped',
        durationMs: 0,
      };
      return Promise.resolve(failure);
    }
    this.bytes += bytes;
    return new Promise((resolve) => {
      const deadline = performance.now() + this.options.timeoutMs;
      const key = targetKey(url);
      let target = this.targets.get(key);
      if (!target) {
        target = { waiting: [], active: 0 };
        this.targets.set(key, target);
      }
      const order = this.arrivals++;
      target.waiting.push({ request, url, key, order, bytes, deadline, resolve });
      this.waitingCount += 1;
      this.pump();
      this.sweepSoon();
    });
  }

  private sweepTimer: NodeJS.Timeout | undefined;

  /**
   * Fails the requests that waited out the whole forward timeout in the queue (a hanging target
   * holds every slot), so each record is complete within the timeout of its arrival.
   */
  private sweepSoon(): void {
    if (this.sweepTimer || this.waitingCount === 0) return;
    this.sweepTimer = setTimeout(
      () => {
        this.sweepTimer = undefined;
        const now = performance.now();
        for (const [key, target] of this.targets) {
          let kept = 0;
          for (const item of target.waiting) {
            if (item.deadline > now) target.waiting[kept++] = item;
            else this.expire(item);
          }
          this.waitingCount -= target.waiting.length - kept;
          target.waiting.length = kept;
          if (kept === 0 && target.active === 0) this.targets.delete(key);
        }
        this.sweepSoon();
      },
      Math.max(50, this.options.timeoutMs / 4),
    );
    this.sweepTimer.unref();
  }

  private expire(item: Waiting): void {
    this.bytes -= item.bytes;
    item.resolve({
      kind: 'failure',
      target: item.url,
      failure: 'timeout',
      message: `no answer within ${this.options.timeoutMs} ms (waited in the forward queue)`,
      durationMs: this.options.timeoutMs,
    });
  }

  /** Cancels everything waiting or under way (each resolves as `cancelled`). */
  close(): void {
    this.abort.abort();
    clearTimeout(this.sweepTimer);
    const waiting = [...this.targets.values()].flatMap((target) => target.waiting.splice(0));
    this.waitingCount = 0;
    for (const item of waiting) {
      item.resolve({
        kind: 'failure',
        target: item.url,
        failure: 'cancelled',
        message: 'the tool stopped',
        durationMs: 0,
      });
    }
    this.agents.http.destroy();
    this.agents.https.destroy();
  }

  /**
   * Starts what may start, within both limits: each free slot goes to the request that arrived
   * first among the targets below their own limit. Handing the slots out target by target let a
   * slow target's backlog take every one freed (its limit is all of them by default) while a
   * request to another target, there before most of that backlog, waited out its timeout.
   */
  private pump(): void {
    while (this.active < this.options.concurrency) {
      // A scan over the targets: there are few, and at most `maxQueued`.
      let next: Target | undefined;
      let oldest = Number.POSITIVE_INFINITY;
      for (const target of this.targets.values()) {
        const first = target.waiting[0];
        if (first && target.active < this.perTarget && first.order < oldest) {
          next = target;
          oldest = first.order;
        }
      }
      if (!next) break;
      const item = next.waiting.shift() as Waiting;
      this.waitingCount -= 1;
      this.start(item, next);
    }
    for (const [key, target] of this.targets) {
      if (target.waiting.length === 0 && target.active === 0) this.targets.delete(key);
    }
  }

  private start(item: Waiting, target: Target): void {
    const left = item.deadline - performance.now();
    if (left <= 0) {
      this.expire(item);
      return;
    }
    this.active += 1;
    target.active += 1;
    void sendRequest(item.request, item.url, {
      timeoutMs: Math.ceil(left),
      maxResponseBody: this.options.maxResponseBody,
      signal: this.abort.signal,
      agents: this.agents,
      ...(this.options.via === undefined ? {} : { via: this.options.via }),
      // 64 answers of up to --max-body each in flight would otherwise escape the bound.
      keep: (wanted) => {
        const granted = Math.max(0, Math.min(wanted, this.options.maxQueuedBytes - this.bytes));
        this.bytes += granted;
        item.bytes += granted;
        return granted;
      },
    })
      .catch(
        // sendRequest never rejects; should it, the slot and bytes are still given back.
        (error: unknown): ExchangeFailure => ({
          kind: 'failure',
          target: item.url,
          failure: 'error',
          message: error instanceof Error ? error.message : String(error),
          durationMs: 0,
        }),
      )
      .then((result) => {
        this.active -= 1;
        target.active -= 1;
        if (target.active === 0 && target.waiting.length === 0) this.targets.delete(item.key);
        this.bytes -= item.bytes;
        item.resolve(result);
        this.pump();
      });
  }
}

/** What a request costs while it waits: its body and header text. */
export function outgoingBytes(request: OutgoingRequest): number {
  let bytes = request.body.length + request.target.length;
  for (const [name, value] of request.headers) bytes += name.length + value.length + 4;
  return bytes;
}
