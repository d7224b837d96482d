import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** What a receiving server saw: the request exactly as it arrived. */
export interface Received {
  readonly method: string;
  readonly url: string;
  readonly rawHeaders: string[];
  readonly body: Buffer;
}

/** A real HTTP server standing for the user's app: records requests, answers with `answer`. */
export async function startReceiver(
  answer: (req: IncomingMessage, res: ServerResponse, body: Buffer) => void = (_req, res) => {
    res.writeHead(201, { 'Content-Type': 'application/json', 'X-App': 'yes' });
    res.end('{"received":true}');
  },
): Promise<{ url: string; received: Received[]; server: Server; close(): Promise<void> }> {
  const received: Received[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        rawHeaders: req.rawHeaders,
        body,
      });
      answer(req, res, body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    server,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
