import { Agent as HttpAgent, request as httpRequest, type IncomingMessage } from 'node:http';
import { Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ExchangeFailure, ExchangeFailureKind, ExchangeResponse } from '../capture/record.js';
import { decodePath, pairHeaders } from '../capture/record.js';
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
  /**
   * How many of `wanted` more answer bytes may be kept (a queue shares one byte budget among its
   * requests); once it grants less, the rest of the answer is dropped (`truncated`). Default: all.
   */
  readonly keep?: (wanted: number) => number;
  /** Connection reuse (a queue passes its own, bounded); default: a new connection each time. */
  readonly agents?: { readonly http: HttpAgent; readonly https: HttpsAgent };
}

/**
 * The part of `path` (raw, as sent) that a route matched: all of it for an exact route, up to the
 * `/*` for a wildcard one, nothing without a route. Matching is on the decoded path, so the raw
 * prefix is the shortest one that decodes to it.
 */
function matchedRawPrefix(route: RouteSpec | null, rawPath: string): number {
  if (!route) return 0;
  const decodedPrefix = route.path.endsWith('/*') ? route.path.slice(0, -2) : route.path;
  if (rawPath.startsWith(decodedPrefix)) return decodedPrefix.length;
  for (let end = 0; end <= rawPath.length; end += 1) {
    if (decodePath(rawPath.slice(0, end)) === decodedPrefix) return end;
  }
  return 0;
}

/**
 * The URL a request goes to: the part of its path the route matched (all of it for an exact route,
 * the prefix before `/*` for a wildcard one, nothing without a route) is replaced by `base`'s
 * path; the rest of the path and the query follow as sent.
 */
export function forwardUrl(base: string, route: RouteSpec | null, target: string): string {
  let url = bases.get(base);
  if (!url) {
    url = new URL(base);
    if (bases.size >= MAX_ORIGINS) bases.clear();
    bases.set(base, url);
  }
  // An absolute-form target (`POST http://host/path`) still has a path and query to carry.
  let requestTarget = target;
  const absolute = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(requestTarget);
  if (absolute) requestTarget = requestTarget.slice(absolute[0].length) || '/';
  const mark = requestTarget.indexOf('?');
  const rawPath = mark === -1 ? requestTarget : requestTarget.slice(0, mark);
  const query = mark === -1 ? '' : requestTarget.slice(mark);
  const rest = rawPath.slice(matchedRawPrefix(route, rawPath));
  let path = url.pathname;
  if (rest !== '')
    path = path.endsWith('/') && rest.startsWith('/') ? path + rest.slice(1) : path + rest;
  // Set as text, not through URL's setters, so the bytes the client sent are not re-encoded.
  return `${url.protocol}//${url.host}${path}${query || url.search}`;
}

/**
 * Headers that describe one connection, not the message (RFC 9110 §7.6.1): they are not
 * forwarded. The length is recomputed from the body sent.
 */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'te',
  'trailer',
  'transfer-encoding',
  'upgrade',
  'proxy-authenticate',
  'proxy-authorization',
  'content-length',
]);

/** The request's headers for the target: hop-by-hop ones dropped, `Host` rewritten. */
export function forwardHeaders(headers: HeaderPairs, url: URL, bodyLength: number): HeaderPairs {
  const named = new Set<string>();
  for (const [name, value] of headers) {
    if (name.toLowerCase() === 'connection') {
      for (const token of value.split(',')) named.add(token.trim().toLowerCase());
    }
  }
  const result: [string, string][] = [];
  let hostSet = false;
  let lengthAt = -1;
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'host') {
      if (!hostSet) result.push([name, url.host]);
      hostSet = true;
    } else if (lower === 'content-length') {
      // Kept in its place (signature schemes never cover it, but order is what was sent).
      if (lengthAt === -1) lengthAt = result.push([name, String(bodyLength)]) - 1;
    } else if (!HOP_BY_HOP.has(lower) && !named.has(lower)) {
      result.push([name, value]);
    }
  }
  if (!hostSet) result.unshift(['Host', url.host]);
  if (lengthAt === -1 && bodyLength > 0) result.push(['Content-Length', String(bodyLength)]);
  return result;
}

/** Maps a socket error to the failure kinds the UI and `--json` show. */
function failureKind(error: NodeJS.ErrnoException): ExchangeFailureKind {
  switch (error.code) {
    case 'ECONNREFUSED':
      return 'refused';
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'dns';
    case 'ECONNRESET':
    case 'EPIPE':
    case 'ECONNABORTED':
      return 'reset';
    case 'ETIMEDOUT':
      return 'timeout';
    default:
      return 'error';
  }
}

/** Forward bases parsed so far (config values: a few), read only. */
const bases = new Map<string, URL>();

/** Origins parsed so far: forwards go to a handful of targets, each parsed once, not per request. */
const origins = new Map<string, URL>();
const MAX_ORIGINS = 256;
const ORIGIN = /^https?:\/\/[^/?#@]*/;

/**
 * The target's origin (protocol, host, port) and the request-target to send: the path and query
 * as the client sent them, not re-encoded by URL (which turns ' into %27). Null when not a URL.
 */
function parseTarget(url: string): { origin: URL; path: string } | null {
  const prefix = ORIGIN.exec(url)?.[0];
  let origin = prefix === undefined ? undefined : origins.get(prefix);
  if (prefix !== undefined && !origin) {
    try {
      origin = new URL(prefix);
    } catch {
      return null;
    }
    if (origins.size >= MAX_ORIGINS) origins.clear();
    origins.set(prefix, origin);
  }
  const next = prefix === undefined ? undefined : url[prefix.length];
  const ends = next === undefined || next === '/' || next === '?' || next === '#';
  if (prefix !== undefined && origin && ends && `${origin.protocol}//${origin.host}` === prefix) {
    return { origin, path: url.slice(prefix.length) || '/' };
  }
  // Anything unusual (upper-case scheme, credentials, default port written out): URL decides.
  try {
    const parsed = new URL(url);
    return { origin: parsed, path: `${parsed.pathname}${parsed.search}` };
  } catch {
    return null;
  }
}

/** Sends one request and waits for the whole answer; never rejects (failures are values). */
export function sendRequest(
  request: OutgoingRequest,
  url: string,
  options: SendOptions,
): Promise<ExchangeResponse | ExchangeFailure> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const fail = (failure: ExchangeFailureKind, message: string): ExchangeFailure => ({
    kind: 'failure',
    target: url,
    failure,
    message,
    durationMs: elapsed(),
  });
  const target = parseTarget(url);
  if (!target) return Promise.resolve(fail('error', `not a URL: ${url}`));
  const { origin: parsed, path } = target;
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    return Promise.resolve(fail('error', `not an http(s) URL: ${url}`));
  }
  if (options.signal?.aborted) return Promise.resolve(fail('cancelled', 'the tool stopped'));

  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: ExchangeResponse | ExchangeFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const https = parsed.protocol === 'https:';
    const headers = forwardHeaders(request.headers, parsed, request.body.length);
    const send = https ? httpsRequest : httpRequest;
    const outgoing = send(parsed, {
      method: request.method,
      // A flat [name, value, ...] list: Node sends it in this order, with this case, as latin1.
      headers: headers.flat() as unknown as Record<string, string>,
      agent: options.agents ? (https ? options.agents.https : options.agents.http) : false,
      path,
      setHost: false,
    });
    const timer = setTimeout(() => {
      finish(fail('timeout', `no complete answer within ${options.timeoutMs} ms`));
      outgoing.destroy();
    }, options.timeoutMs);
    const onAbort = () => {
      finish(fail('cancelled', 'the tool stopped'));
      outgoing.destroy();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });

    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      finish(fail(failureKind(error), error.message));
    });
    outgoing.on('response', (response: IncomingMessage) => {
      const chunks: Buffer[] = [];
      let kept = 0;
      let size = 0;
      // Set when a byte was dropped: nothing after it is kept, so the body has no holes.
      let cut = false;
      response.on('data', (chunk: Buffer) => {
        size += chunk.length;
        if (cut) return;
        let take = Math.min(chunk.length, options.maxResponseBody - kept);
        if (options.keep && take > 0) take = options.keep(take);
        if (take < chunk.length) cut = true;
        if (take <= 0) return;
        // A copy of the part kept: a subarray would hold the whole chunk in memory.
        const part = take === chunk.length ? chunk : Buffer.from(chunk.subarray(0, take));
        chunks.push(part);
        kept += part.length;
      });
      response.on('error', (error: NodeJS.ErrnoException) => {
        finish(fail(failureKind(error), error.message));
      });
      response.on('aborted', () => finish(fail('reset', 'the answer was cut off')));
      response.on('end', () => {
        if (!response.complete) {
          finish(fail('reset', 'the answer was cut off'));
          return;
        }
        finish({
          kind: 'response',
          target: url,
          status: response.statusCode ?? 0,
          statusText: response.statusMessage ?? '',
          headers: pairHeaders(response.rawHeaders),
          body: Buffer.concat(chunks, kept),
          size,
          truncated: size > kept,
          durationMs: elapsed(),
        });
      });
    });
    outgoing.end(request.body);
  });
}

export interface ForwardQueueOptions {
  /** Requests sent at the same time; the rest wait. */
  readonly concurrency: number;
  /** Requests waiting or under way; beyond it a request is not forwarded (`queue-full`). */
  readonly maxQueued: number;
  /**
   * Bytes (bodies and headers) of the requests waiting or under way, and of the answers being
   * received; beyond it a request is `queue-full` and an answer is kept `truncated`.
   */
  readonly maxQueuedBytes: number;
  readonly timeoutMs: number;
  readonly maxResponseBody: number;
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
  bytes: number;
  /** The forward timeout counts from here: waiting in the queue uses it up too. */
  readonly deadline: number;
  readonly resolve: (result: ExchangeResponse | ExchangeFailure) => void;
}

/**
 * Sends requests to forward targets a few at a time, in arrival order, never holding more than
 * its limits: capturing never waits for it.
 */
export class ForwardQueue {
  private readonly waiting: Waiting[] = [];
  private active = 0;
  private bytes = 0;
  private readonly abort = new AbortController();
  private readonly agents: { http: HttpAgent; https: HttpsAgent };

  constructor(private readonly options: ForwardQueueOptions) {
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
    return { requests: this.waiting.length + this.active, bytes: this.bytes };
  }

  /** Sends `request` to `url` when a slot is free; resolves with the answer or the failure. */
  submit(request: OutgoingRequest, url: string): Promise<ExchangeResponse | ExchangeFailure> {
    const bytes = outgoingBytes(request);
    const full =
      this.waiting.length + this.active >= this.options.maxQueued ||
      this.bytes + bytes > this.options.maxQueuedBytes;
    if (full || this.abort.signal.aborted) {
      const failure: ExchangeFailure = {
        kind: 'failure',
        target: url,
        failure: full ? 'queue-full' : 'cancelled',
        message: full
          ? `forward queue full (${this.waiting.length + this.active} requests, ${this.bytes} bytes waiting)`
          : 'the tool stopped',
        durationMs: 0,
      };
      return Promise.resolve(failure);
    }
    this.bytes += bytes;
    return new Promise((resolve) => {
      const deadline = performance.now() + this.options.timeoutMs;
      this.waiting.push({ request, url, bytes, deadline, resolve });
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
    if (this.sweepTimer || this.waiting.length === 0) return;
    this.sweepTimer = setTimeout(
      () => {
        this.sweepTimer = undefined;
        const now = performance.now();
        let kept = 0;
        for (const item of this.waiting) {
          if (item.deadline > now) this.waiting[kept++] = item;
          else this.expire(item);
        }
        this.waiting.length = kept;
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
    for (const item of this.waiting.splice(0)) {
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

  private pump(): void {
    while (this.active < this.options.concurrency) {
      const item = this.waiting.shift();
      if (!item) return;
      const left = item.deadline - performance.now();
      if (left <= 0) {
        this.expire(item);
        continue;
      }
      this.active += 1;
      void sendRequest(item.request, item.url, {
        timeoutMs: Math.ceil(left),
        maxResponseBody: this.options.maxResponseBody,
        signal: this.abort.signal,
        agents: this.agents,
        // 64 answers of up to --max-body each in flight would otherwise escape the bound.
        keep: (wanted) => {
          const granted = Math.max(0, Math.min(wanted, this.options.maxQueuedBytes - this.bytes));
          this.bytes += granted;
          item.bytes += granted;
          return granted;
        },
      }).then((result) => {
        this.active -= 1;
        this.bytes -= item.bytes;
        item.resolve(result);
        this.pump();
      });
    }
  }
}

/** What a request costs while it waits: its body and header text. */
export function outgoingBytes(request: OutgoingRequest): number {
  let bytes = request.body.length + request.target.length;
  for (const [name, value] of request.headers) bytes += name.length + value.length + 4;
  return bytes;
}
