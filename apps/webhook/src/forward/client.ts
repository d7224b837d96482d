/** Sends one request to a forward or replay target and reads its answer: the HTTP client both use. */
import {
  type ClientRequest,
  type Agent as HttpAgent,
  request as httpRequest,
  type IncomingMessage,
} from 'node:http';
import { type Agent as HttpsAgent, request as httpsRequest } from 'node:https';
import type { ExchangeFailure, ExchangeFailureKind, ExchangeResponse } from '../capture/record.js';
import { pairHeaders } from '../capture/record.js';
import type { HeaderPairs } from '../config/types.js';
import { HOP_BY_HOP_HEADERS, namedByConnection } from './hop-by-hop.js';
import { recordedTarget } from './url.js';

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
  /** A `Via` value to add (forwards mark themselves, see `loop.ts`); replays send none. */
  readonly via?: string;
  /** Connection reuse (a queue passes its own, bounded); default: a new connection each time. */
  readonly agents?: { readonly http: HttpAgent; readonly https: HttpsAgent };
}

/**
 * Not forwarded: the connection's own headers, and the credentials and challenges meant for a
 * proxy on the way (the forward target is not that proxy). The length is recomputed from the
 * body sent.
 */
const NOT_FORWARDED: ReadonlySet<string> = new Set([
  ...HOP_BY_HOP_HEADERS,
  'proxy-authenticate',
  'proxy-authorization',
]);

/**
 * Methods Node sends without a body framing when none is given; any other (POST, PUT, PROPFIND…)
 * it would send `Transfer-Encoding: chunked`, which some targets refuse for an empty body.
 */
const BODILESS_BY_DEFAULT = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

/**
 * The request's headers for the target: hop-by-hop ones dropped, `Host` rewritten, and `via` (when
 * given) added last, after any `Via` the request already had. The body, whose length is known, always
 * goes with a Content-Length (0 included) where it has or could have one: never chunked.
 */
export function forwardHeaders(
  headers: HeaderPairs,
  url: URL,
  method: string,
  bodyLength: number,
  via?: string,
): HeaderPairs {
  const named = namedByConnection(headers);
  const result: [string, string][] = [];
  let hostSet = false;
  let lengthAt = -1;
  let chunked = false;
  for (const [name, value] of headers) {
    const lower = name.toLowerCase();
    if (lower === 'transfer-encoding') chunked = true;
    if (lower === 'host') {
      if (!hostSet) result.push([name, url.host]);
      hostSet = true;
    } else if (lower === 'content-length') {
      // Kept in its place (signature schemes never cover it, but order is what was sent).
      if (lengthAt === -1) lengthAt = result.push([name, String(bodyLength)]) - 1;
    } else if (!NOT_FORWARDED.has(lower) && !named.has(lower)) {
      result.push([name, value]);
    }
  }
  if (!hostSet) result.unshift(['Host', url.host]);
  const framed = bodyLength > 0 || chunked || !BODILESS_BY_DEFAULT.has(method.toUpperCase());
  if (lengthAt === -1 && framed) result.push(['Content-Length', String(bodyLength)]);
  if (via !== undefined) result.push(['Via', via]);
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

/** Origins parsed so far: forwards go to a handful of targets, each parsed once, not per request. */
const origins = new Map<string, URL>();
const MAX_ORIGINS = 256;
const ORIGIN = /^https?:\/\/[^/?#@]*/;
const ASTERISK = /^(https?:\/\/[^/?#@*]+)\*$/i;

/**
 * The target's origin (protocol, host, port) and the request-target to send: the path and query
 * as the client sent them, not re-encoded by URL (which turns ' into %27). Null when not a URL.
 */
function parseTarget(url: string): { origin: URL; path: string } | null {
  // `http://host*`: the asterisk-form target of `OPTIONS *` (see forwardUrl).
  const asterisk = ASTERISK.exec(url);
  if (asterisk) {
    try {
      return { origin: new URL(asterisk[1] as string), path: '*' };
    } catch {
      return null;
    }
  }
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
    ...recordedTarget(url),
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

  return new Promise<ExchangeResponse | ExchangeFailure>((resolve) => {
    let settled = false;
    const finish = (result: ExchangeResponse | ExchangeFailure) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      options.signal?.removeEventListener('abort', onAbort);
      resolve(result);
    };
    const https = parsed.protocol === 'https:';
    const headers = forwardHeaders(
      request.headers,
      parsed,
      request.method,
      request.body.length,
      options.via,
    );
    const send = https ? httpsRequest : httpRequest;
    let outgoing: ClientRequest;
    try {
      outgoing = send(parsed, {
        method: request.method,
        // A flat [name, value, ...] list: Node sends it in this order, with this case, as latin1.
        headers: headers.flat() as unknown as Record<string, string>,
        agent: options.agents ? (https ? options.agents.https : options.agents.http) : false,
        path,
        setHost: false,
      });
    } catch (error) {
      // Node throws at once for what it cannot send (a control character in a header value, a
      // name that is not a token, a space in the target): a failure like any other, not a crash.
      settled = true;
      resolve(fail('error', (error as Error).message));
      return;
    }
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
          ...recordedTarget(url),
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
  }).catch((error: unknown) =>
    fail('error', error instanceof Error ? error.message : String(error)),
  );
}
