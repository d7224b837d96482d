import { type Server, type ServerResponse, STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';

/** What a server does with a connection whose bytes Node's parser cannot take. */
export type ClientErrorHandler = (error: NodeJS.ErrnoException, socket: Duplex) => void;

/**
 * The `clientError` handler of a server that takes requests (records them, relays them) before
 * it answers them.
 *
 * On bytes that are not HTTP (or a head too large, or too slow), Node answers 400 (431, 413,
 * 408) and closes. That is right unless a complete request on the same connection is still
 * being answered, as when a request and garbage arrive in one packet: Node would send its
 * refusal first and close, and the request, already taken, would never get its answer (a sender
 * would see 400 and send again what was already recorded or relayed). So each connection's
 * unsent responses are tracked here, and when all of them belong to complete requests, they go
 * out without keep-alive and the connection closes after the last. Otherwise the connection is
 * refused as Node does: a refusal written unless an answer has begun (its bytes would be
 * corrupted), then closed.
 */
export function answerBeforeRefusing(server: Server): ClientErrorHandler {
  const unanswered = new WeakMap<Duplex, Set<ServerResponse>>();
  // Added after the server's own request listener, so it runs on every request, whoever answers.
  server.on('request', (_request, response: ServerResponse) => {
    const socket = response.req.socket;
    const ofSocket = unanswered.get(socket) ?? new Set<ServerResponse>();
    unanswered.set(socket, ofSocket.add(response));
    response.once('close', () => ofSocket.delete(response));
  });
  const closingAfterAnswer = new WeakSet<Duplex>();
  return (error, socket) => {
    const pending = [...(unanswered.get(socket) ?? [])];
    if (pending.length > 0 && pending.every((response) => response.req.complete)) {
      if (closingAfterAnswer.has(socket)) return;
      closingAfterAnswer.add(socket);
      let left = pending.length;
      for (const response of pending) {
        response.shouldKeepAlive = false;
        response.once('close', () => {
          left -= 1;
          if (left === 0) socket.destroy();
        });
      }
      return;
    }
    if (socket.writable && pending.every((response) => !response.headersSent)) {
      socket.write(refusalFor(error.code));
    }
    socket.destroy(error);
  };
}

/** What Node itself answers a connection whose bytes it cannot take, by its parser's error. */
function refusalFor(code: string | undefined): string {
  const status =
    code === 'HPE_HEADER_OVERFLOW'
      ? 431
      : code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW'
        ? 413
        : code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? 408
          : 400;
  return `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nConnection: close\r\n\r\n`;
}
