import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { HeaderPairs, ServerTimeouts } from '../config/types.js';
import { listenError } from '../errors.js';
import { answerBeforeRefusing } from './client-errors.js';
import {
  completeUrl,
  headerValueText,
  PackedRequest,
  packRawHeaders,
  type RequestDraft,
  targetPath,
} from './record.js';
import type { RequestStore } from './store.js';

/** Bytes of request line and headers accepted; more gets 431. */
export const MAX_HEADER_BYTES = 256 * 1024;
/**
 * Connections open at once; Node closes the ones beyond at once. Each connection may hold up to
 * 256 KiB of headers while they are parsed, which Node keeps as one string per name and value
 * (tens of bytes each) before the tool sees them: this bounds that.
 */
export const MAX_CONNECTIONS = 128;

/** How long a CONNECT's answer may take to be written before its socket is closed regardless. */
const CONNECT_LINGER_MS = 2_000;

/** A body this small is never paused for memory (see `capture`). */
const SMALL_BODY_BYTES = 64 * 1024;
/** What Node holds per header while parsing (two strings and their slots), beyond the bytes. */
const HEADER_OVERHEAD_BYTES = 64;

/** The answer to write: status, headers in order (binary strings), body. */
export interface Answer {
  readonly status: number;
  readonly headers: HeaderPairs;
  readonly body: Buffer;
}

/** Takes a complete request (not yet numbered) and decides the answer; may wait (a forward). */
export type RequestHandler = (draft: RequestDraft) => Answer | Promise<Answer>;

export interface CaptureOptions {
  readonly store: RequestStore;
  readonly handle: RequestHandler;
  /** Bytes of a body kept; the rest is read (so the client gets its answer) and dropped. */
  readonly maxBody: number;
  readonly timeouts: ServerTimeouts;
  /** Connections open at once (default MAX_CONNECTIONS). */
  readonly maxConnections?: number;
}

/** The first value of a header in Node's flat `rawHeaders`, without building `req.headers`. */
function rawHeader(raw: readonly string[], name: string): string | undefined {
  for (let i = 0; i + 1 < raw.length; i += 2) {
    if (raw[i]?.length === name.length && raw[i]?.toLowerCase() === name) return raw[i + 1];
  }
  return undefined;
}

/** What a request's line and headers hold in memory while it is in flight. */
function headBytes(req: IncomingMessage): number {
  let bytes = (req.url?.length ?? 0) + 64;
  for (const field of req.rawHeaders) bytes += field.length + HEADER_OVERHEAD_BYTES / 2;
  return bytes;
}

const OVERLOADED: Answer = {
  status: 503,
  headers: [
    ['Content-Type', 'text/plain; charset=utf-8'],
    ['Retry-After', '1'],
  ],
  body: Buffer.from('webhook: requests in flight already hold --max-memory; try again\n'),
};

/**
 * An HTTP server that hands every complete request to `handle` and writes its answer. Requests
 * the client abandons before the end of the body are not recorded. Everything a request holds
 * while it arrives (headers, the body kept so far) is reserved in the store against --max-memory:
 * a request whose headers do not fit is answered 503; a body that does not fit pauses its
 * connection until others finish (the sender waits, through TCP).
 */
export function createCaptureServer({
  store,
  handle,
  maxBody,
  timeouts,
  maxConnections = MAX_CONNECTIONS,
}: CaptureOptions): Server {
  // Node's defaults (16 KiB of headers, the first 2000 kept) would answer 431 to, or silently cut,
  // requests a capture tool exists to show; the size stays bounded so a client cannot exhaust memory.
  const server = createServer(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      headersTimeout: timeouts.headersMs,
      requestTimeout: timeouts.requestMs,
      keepAliveTimeout: timeouts.keepAliveMs,
      connectionsCheckingInterval: timeouts.checkIntervalMs,
    },
    (req, res) => capture(req, res),
  );
  server.maxHeadersCount = 0;
  server.maxConnections = maxConnections;
  // A sender may half-close once its request is written (FIN: `nc -N`, many raw clients): the
  // request is whole, and its answer, however late (--respond-with-forward), is still written
  // before the connection closes. Node would otherwise abort the request and close at once.
  (server as Server & { httpAllowHalfOpen: boolean }).httpAllowHalfOpen = true;

  let listeningAddress = '';
  server.on('listening', () => {
    const address = server.address();
    if (address && typeof address === 'object') {
      listeningAddress = formatAddress(address.address, address.port);
    }
  });

  /** Requests paused because requests in flight hold --max-memory; resumed as memory frees. */
  const paused = new Set<IncomingMessage>();
  const release = (bytes: number) => {
    store.release(bytes);
    if (paused.size === 0 || !store.hasRoomInFlight()) return;
    for (const req of paused) req.resume();
    paused.clear();
  };

  /** The draft of a complete request; `body` is what was kept of `size` bytes. */
  function draft(req: IncomingMessage, receivedAt: number, body: Buffer, size: number) {
    const target = req.url ?? '/';
    const method = req.method ?? 'GET';
    const host = rawHeader(req.rawHeaders, 'host');
    return new PackedRequest({
      receivedAt,
      method,
      target,
      // CONNECT names an authority (`host:443`), not a path: it is its own URL.
      path: method === 'CONNECT' ? target : targetPath(target),
      // The host as the Headers section shows it: UTF-8 when its bytes are (not one char a byte).
      url:
        method === 'CONNECT'
          ? target
          : completeUrl(
              target,
              host === undefined ? host : headerValueText(host),
              listeningAddress,
            ),
      headerBlock: packRawHeaders(req.rawHeaders),
      body,
      size,
      truncated: size > body.length,
      remote: formatAddress(req.socket.remoteAddress ?? '?', req.socket.remotePort ?? 0),
      local: formatAddress(req.socket.localAddress ?? '?', req.socket.localPort ?? 0),
      httpVersion: req.httpVersion,
    });
  }

  function write(res: ServerResponse, answer: Answer): void {
    if (res.headersSent || res.destroyed) return;
    const wire = wireForm(answer);
    res.statusCode = answer.status;
    for (const [name, value] of wire.headers) res.setHeader(name, value);
    // Headers still unsent, so Node adds Content-Length; a latin1 string body (the same bytes) is
    // joined to the head and sent in one write, where a Buffer would take a second one (writev).
    res.end(wire.body, 'latin1');
  }

  function capture(req: IncomingMessage, res: ServerResponse): void {
    const receivedAt = Date.now();
    req.on('error', () => {});
    res.on('error', () => {});
    let reserved = headBytes(req);
    if (!store.reserve(reserved)) {
      res.shouldKeepAlive = false;
      write(res, OVERLOADED);
      req.resume();
      return;
    }
    let released = false;
    const releaseAll = () => {
      if (released) return;
      released = true;
      paused.delete(req);
      release(reserved);
    };
    // An aborted upload ends in 'close' without 'end': nothing to record, nobody to answer.
    req.on('close', releaseAll);
    const chunks: Buffer[] = [];
    let kept = 0;
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (kept >= maxBody) return;
      const part = chunk.length <= maxBody - kept ? chunk : chunk.subarray(0, maxBody - kept);
      chunks.push(part);
      kept += part.length;
      reserved += part.length;
      // Past the in-flight budget, uploads wait; small bodies go on, so ordinary requests are
      // still served while large uploads are held (they are bounded by the connection cap).
      if (!store.reserve(part.length, true) && kept > SMALL_BODY_BYTES) {
        req.pause();
        paused.add(req);
      }
    });
    req.on('end', () => {
      const complete = draft(req, receivedAt, Buffer.concat(chunks, kept), size);
      chunks.length = 0;
      // The record (counted by the store) and the forward queue hold the request from here on.
      releaseAll();
      const answer = handle(complete);
      if (answer instanceof Promise) void answer.then((ready) => write(res, ready));
      else write(res, answer);
    });
  }

  // A whole request followed by bytes that are not HTTP still gets its answer (client-errors.ts).
  server.on('clientError', answerBeforeRefusing(server));

  // Node hands CONNECT (a proxy's tunnel request) over as a bare socket, and closes it when nobody
  // listens. Capture it like any request, answer with the configured response, and close: the
  // socket is destroyed once the answer is written (or CONNECT_LINGER_MS after, if the peer does
  // not read it). `end` alone only half-closed it: out of the HTTP parser's timeouts, it stayed
  // open, counted against maxConnections, for as long as the peer kept its own half open, and
  // MAX_CONNECTIONS idle CONNECTs locked every sender out.
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    // What the peer sends after its request is not read: it would keep the socket from closing.
    socket.resume();
    const close = () => socket.destroy();
    const body = Buffer.from(head.subarray(0, maxBody));
    Promise.resolve(handle(draft(req, Date.now(), body, head.length))).then((response) => {
      if (socket.destroyed) return;
      const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
      for (const [name, value] of response.headers) {
        if (name.toLowerCase() !== 'content-length' && name.toLowerCase() !== 'connection') {
          lines.push(`${name}: ${value}`);
        }
      }
      lines.push(`Content-Length: ${response.body.length}`, 'Connection: close', '', '');
      const lingering = setTimeout(close, CONNECT_LINGER_MS);
      lingering.unref();
      socket.once('close', () => clearTimeout(lingering));
      socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), response.body]), close);
    }, close);
  });

  return server;
}

/** An answer as `write` sends it: headers grouped, the body as a latin1 string. */
interface WireAnswer {
  readonly headers: Map<string, string | string[]>;
  readonly body: string;
}

/**
 * The configured answers are the same objects for every request: their wire form is made once,
 * not per request (a flood spent more on grouping headers than on sending them).
 */
const wireForms = new WeakMap<Answer, WireAnswer>();

function wireForm(answer: Answer): WireAnswer {
  let wire = wireForms.get(answer);
  if (!wire) {
    wire = { headers: groupHeaders(answer.headers), body: answer.body.toString('latin1') };
    wireForms.set(answer, wire);
  }
  return wire;
}

/** Header pairs grouped by name (repeats as arrays, first spelling kept), as `setHeader` takes. */
export function groupHeaders(headers: HeaderPairs): Map<string, string | string[]> {
  const grouped = new Map<string, string | string[]>();
  const byLowerName = new Map<string, string>();
  for (const [name, value] of headers) {
    const key = byLowerName.get(name.toLowerCase()) ?? name;
    byLowerName.set(name.toLowerCase(), key);
    const previous = grouped.get(key);
    grouped.set(
      key,
      previous === undefined
        ? value
        : [...(Array.isArray(previous) ? previous : [previous]), value],
    );
  }
  return grouped;
}

/** `127.0.0.1:9080`, `[::1]:9080`. */
export function formatAddress(host: string, port: number): string {
  return `${host.includes(':') ? `[${host}]` : host}:${port}`;
}

/** Listens, turning the usual failures into messages that say what to do. */
export function listen(server: Server, host: string, port: number): Promise<AddressInfo> {
  return new Promise((resolve, reject) => {
    const onError = (error: NodeJS.ErrnoException) => {
      reject(describeListenError(error, host, port));
    };
    server.once('error', onError);
    server.listen({ host, port }, () => {
      server.off('error', onError);
      resolve(server.address() as AddressInfo);
    });
  });
}

function describeListenError(error: NodeJS.ErrnoException, host: string, port: number) {
  const where = formatAddress(host, port);
  switch (error.code) {
    case 'EADDRINUSE':
      return listenError(`${where} is already in use (try --port)`);
    case 'EACCES':
      return listenError(
        `${where}: permission denied (ports below 1024 need privileges; try --port)`,
      );
    case 'EADDRNOTAVAIL':
      return listenError(`${where}: ${host} is not an address of this machine (try --host)`);
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return listenError(`${where}: cannot resolve host ${host} (try --host)`);
    default:
      return listenError(`${where}: cannot listen (${error.code ?? error.message})`);
  }
}
