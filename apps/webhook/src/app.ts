import type { Server } from 'node:http';
import { createPipeline } from './capture/pipeline.js';
import { type CapturedRequest, type RequestDraft, StoredRequest } from './capture/record.js';
import { type Answer, createCaptureServer, formatAddress, listen } from './capture/server.js';
import { RequestStore } from './capture/store.js';
import type { AppConfig } from './config/types.js';
import { CliError } from './errors.js';
import { loopMark, ownAddressTarget, viaValue } from './forward/loop.js';
import { FORWARD_QUEUE_LIMITS, ForwardQueue } from './forward/queue.js';
import { prepareReplay, type ReplayEdits, resignRefusal } from './replay/replay.js';
import { createRouter, type Router } from './respond/routes.js';

/** What the UI asks for a replay (`r`, or `e` with edits). */
export interface ReplayRequest {
  /** A base URL typed by the user; absent: the record's forward target, else `--replay-to`. */
  readonly to?: string;
  readonly edits?: ReplayEdits;
  /**
   * Re-sign when the record's route (or the config) names a scheme and secret, and the request
   * as captured passed its check or its body is edited (see `resignRefusal`); default true.
   */
  readonly resign?: boolean;
}

export interface RunningCapture {
  readonly store: RequestStore;
  readonly server: Server;
  /** `http://127.0.0.1:9080`, with the real port when 0 was asked for. */
  readonly address: string;
  /**
   * Warnings to keep in view while capturing (the UI's status bar, stderr without it): today,
   * listening beyond loopback.
   */
  readonly notices: readonly string[];
  /**
   * Where `r` sends `record` without asking: its route's forward target, else `--forward-to`,
   * else `--replay-to`; null when none is set (the UI then asks for a URL).
   */
  replayTarget(record: CapturedRequest): string | null;
  /**
   * Replays `record` (to `request.to`, else `replayTarget`), re-signed when a scheme applies, and
   * adds the new record, linked by `replayOf`, to the store; resolves with it once the target has
   * answered or failed. Rejects only when there is nowhere to send it.
   */
  replay(record: CapturedRequest, request?: ReplayRequest): Promise<CapturedRequest>;
  /**
   * Why `replay(record, request)` sends the request as captured though a verify scheme applies
   * (it failed its signature check when captured, or was never checked); null when it re-signs
   * it or no scheme applies. For a replay, the request first captured is the one that counts.
   */
  resignRefusal(record: CapturedRequest, request?: ReplayRequest): string | null;
  /**
   * Calls `listener` once for every record when it is complete (captured and forwarded, or
   * replayed): what `--json`, the line printer and `--save` write. Returns the unsubscribe.
   */
  onRecord(listener: (record: CapturedRequest) => void): () => void;
  /**
   * Puts a request that did not arrive on the port (one a relay recorded) through the same
   * pipeline: routes, verification, forwarding, the store and `onRecord`. Resolves with the
   * answer a sender on the port would have had.
   */
  inject(draft: RequestDraft): Promise<Injected>;
  /**
   * Hands every record whose forward is still under way to `onRecord` as it is (marked pending),
   * once: for the way out, so --save and the printers keep what stopping would lose.
   */
  completePending(): void;
  /** Adds records read from a file (`--load`) without reporting them to `onRecord`. */
  preload(drafts: Iterable<RequestDraft>): void;
  close(): Promise<void>;
}

/** An injected request's answer, and when its record is complete (its forward finished). */
export interface Injected {
  readonly answer: Answer;
  readonly recorded: Promise<CapturedRequest>;
}

/**
 * Where a replay of `record` goes and how it is signed, from the config: `resign` the scheme to
 * re-sign with, or null; `notResigned` why a scheme that applies is not used (see
 * `resignRefusal`; `captured` is the request first captured, when `record` is a replay of it).
 */
export function replayPlan(
  config: Pick<AppConfig, 'replayTo'>,
  route: Router,
  record: CapturedRequest,
  request: ReplayRequest = {},
  captured: CapturedRequest = record,
) {
  const decision = route(record.method, record.path);
  const scheme = request.resign === false ? null : decision.verify;
  const notResigned = scheme ? resignRefusal(captured, request.edits) : null;
  const resign = notResigned === null ? scheme : null;
  const signing = { resign, notResigned };
  if (request.to) return { to: request.to, route: null, ...signing };
  if (decision.forward)
    return { to: decision.forward.base, route: decision.forward.route, ...signing };
  if (config.replayTo) return { to: config.replayTo, route: null, ...signing };
  return null;
}

/** Starts capturing: the store, the routes, the forward queue and a listening server. */
export async function startCapture(
  config: AppConfig,
  /** Runs before the server listens (`--load`): a bad file stops the tool before any port opens. */
  prepare?: (store: RequestStore) => Promise<void>,
): Promise<RunningCapture> {
  const store = new RequestStore(config.limits);
  await prepare?.(store);
  const route = createRouter({
    defaultResponse: config.defaultResponse,
    routes: config.routes,
    defaultForward: config.forward.defaultTarget,
    defaultVerify: config.verify,
  });
  const mark = loopMark();
  const queue = new ForwardQueue({
    via: viaValue(mark),
    ...FORWARD_QUEUE_LIMITS,
    // Waiting requests hold memory beyond the store's; never more than a quarter of --max-memory.
    maxQueuedBytes: Math.min(FORWARD_QUEUE_LIMITS.maxQueuedBytes, config.limits.maxMemory / 4),
    timeoutMs: config.forward.timeoutMs,
    maxResponseBody: config.limits.maxBody,
    perTarget: config.forward.concurrency ?? FORWARD_QUEUE_LIMITS.concurrency,
  });
  const listeners = new Set<(record: CapturedRequest) => void>();
  const complete = (record: CapturedRequest) => {
    for (const listener of listeners) listener(record);
  };
  const pending = new Map<number, CapturedRequest>();
  const handle = createPipeline({
    store,
    route,
    queue,
    respondWithForward: config.forward.respondWithForward,
    rejectInvalid: config.rejectInvalid,
    loopMark: mark,
    complete,
    pending,
  });
  const server = createCaptureServer({
    store,
    handle,
    maxBody: config.limits.maxBody,
    timeouts: config.timeouts,
  });
  const address = await listen(server, config.host, config.port);
  const forwardTargets = [config.forward.defaultTarget, ...config.routes.map((r) => r.forward)];
  const own = ownAddressTarget(
    forwardTargets.filter((target): target is string => typeof target === 'string'),
    { host: address.address, port: address.port },
  );
  if (own !== null) {
    queue.close();
    await new Promise((resolve) => server.close(resolve));
    throw new CliError(
      `forward target ${own} is this tool's own address (${formatAddress(address.address, address.port)}): ` +
        'every request would be forwarded to itself, without end; forward to your app instead',
      2,
    );
  }
  /** The request a replay was made of (itself when not a replay, or when it is gone). */
  const firstCaptured = (record: CapturedRequest) =>
    record.replayOf === undefined ? record : (store.get(record.replayOf) ?? record);
  return {
    store,
    server,
    address: `http://${formatAddress(address.address, address.port)}`,
    notices: isLoopback(config.host)
      ? []
      : [
          `warning: listening on ${formatAddress(address.address, address.port)} (--host ${config.host}), ` +
            'reachable from other machines: anyone who can reach it sees its answers and fills its memory',
        ],
    replayTarget: (record) => replayPlan(config, route, record)?.to ?? null,
    resignRefusal: (record, request = {}) => {
      const decision = route(record.method, record.path);
      if (request.resign === false || !decision.verify) return null;
      return resignRefusal(firstCaptured(record), request.edits);
    },
    async replay(record, request = {}) {
      const plan = replayPlan(config, route, record, request, firstCaptured(record));
      if (!plan)
        throw new Error('no replay target: set --forward-to or --replay-to, or type a URL');
      const { draft, send } = prepareReplay(record, {
        to: plan.to,
        route: plan.route,
        resign: plan.resign,
        ...(request.edits ? { edits: request.edits } : {}),
        timeoutMs: config.forward.timeoutMs,
        maxResponseBody: config.limits.maxBody,
      });
      // Its row shows at once, under way (→ …), as a forward's does; the answer updates it. One
      // still under way when the tool stops is handed on pending (completePending), as forwards.
      const added = store.add(draft);
      if (!send) {
        complete(added);
        return added;
      }
      pending.set(added.seq, added);
      const forward = await send();
      const updated =
        store.update(added.seq, { forward }) ?? StoredRequest.from(added.seq, added, { forward });
      if (pending.delete(added.seq)) complete(updated);
      return updated;
    },
    async inject(draft) {
      let recorded!: (record: CapturedRequest) => void;
      const done = new Promise<CapturedRequest>((resolve) => {
        recorded = resolve;
      });
      const answer = await handle(draft, recorded);
      return { answer, recorded: done };
    },
    completePending() {
      const records = [...pending.values()];
      pending.clear();
      for (const record of records) complete(record);
    },
    onRecord(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    preload(drafts) {
      for (const draft of drafts) store.add(draft);
    },
    close: () =>
      new Promise((resolve) => {
        queue.close();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Loopback addresses: anything else makes every captured request reachable from elsewhere. */
export function isLoopback(host: string): boolean {
  return /^(127\.\d+\.\d+\.\d+|::1|\[::1\]|localhost|::ffff:127\.\d+\.\d+\.\d+)$/i.test(host);
}
