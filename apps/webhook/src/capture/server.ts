import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerResponse,
  STATUS_CODES,
} from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ServerTimeouts } from '../config/types.js';
import { listenError } from '../errors.js';
import type { Responder } from '../respond/routes.js';
import { completeUrl, pairHeaders, splitTarget } from './record.js';
import type { RequestStore } from './store.js';

/** Bytes of request line and headers accepted; more gets 431. */
export const MAX_HEADER_BYTES = 256 * 1024;

export interface CaptureOptions {
  readonly store: RequestStore;
  readonly respond: Responder;
  /** Bytes of a body kept; the rest is read (so the client gets its answer) and dropped. */
  readonly maxBody: number;
  readonly timeouts: ServerTimeouts;
}

/**
 * An HTTP server that records every complete request into the store and answers it with the
 * configured response. Requests the client abandons before the end of the body are not recorded.
 */
export function createCaptureServer({ store, respond, maxBody, timeouts }: CaptureOptions): Server {
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

  let listeningAddress = '';
  server.on('listening', () => {
    const address = server.address();
    if (address && typeof address === 'object') {
      listeningAddress = formatAddress(address.address, address.port);
    }
  });

  /** The record of a complete request; `body` is what was kept of `size` bytes. */
  function record(req: IncomingMessage, receivedAt: number, body: Buffer, size: number) {
    const target = req.url ?? '/';
    const method = req.method ?? 'GET';
    // CONNECT names an authority (`host:443`), not a path: it is its own URL.
    const { path, query } =
      method === 'CONNECT' ? { path: target, query: [] } : splitTarget(target);
    return store.add({
      receivedAt,
      method,
      target,
      path,
      url: method === 'CONNECT' ? target : completeUrl(target, req.headers.host, listeningAddress),
      query,
      headers: pairHeaders(req.rawHeaders),
      body,
      size,
      truncated: size > body.length,
      remote: formatAddress(req.socket.remoteAddress ?? '?', req.socket.remotePort ?? 0),
      httpVersion: req.httpVersion,
    });
  }

  function capture(req: IncomingMessage, res: ServerResponse): void {
    const receivedAt = Date.now();
    const chunks: Buffer[] = [];
    let kept = 0;
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (kept >= maxBody) return;
      const part = chunk.length <= maxBody - kept ? chunk : chunk.subarray(0, maxBody - kept);
      chunks.push(part);
      kept += part.length;
    });
    // An aborted upload ends in 'error' (and never 'end'): nothing to record, nobody to answer.
    req.on('error', () => {});
    res.on('error', () => {});
    req.on('end', () => {
      const { method, path } = record(req, receivedAt, Buffer.concat(chunks, kept), size);
      const response = respond(method, path);
      res.statusCode = response.status;
      for (const [name, value] of response.headerMap) res.setHeader(name, value);
      // Headers still unsent, so Node adds Content-Length and writes it all at once.
      res.end(response.body);
    });
  }

  // Node hands CONNECT (a proxy's tunnel request) over as a bare socket, and closes it when nobody
  // listens. Capture it like any request, answer with the configured response, and close.
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    socket.on('error', () => {});
    const body = head.subarray(0, maxBody);
    const { method, path } = record(req, Date.now(), Buffer.from(body), head.length);
    const response = respond(method, path);
    const lines = [`HTTP/1.1 ${response.status} ${STATUS_CODES[response.status] ?? ''}`];
    for (const [name, value] of response.headers) lines.push(`${name}: ${value}`);
    lines.push(`Content-Length: ${response.body.length}`, 'Connection: close', '', '');
    socket.end(Buffer.concat([Buffer.from(lines.join('\r\n'), 'latin1'), response.body]));
  });

  return server;
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
