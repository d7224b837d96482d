import { once } from 'node:events';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
  json: {
    event: string;
    resource: string;
    id: string;
    timestamp: string;
    request_id: string | null;
    username: string | null;
    data: Record<string, unknown> | null;
    snapshots: {
      prechange: Record<string, unknown> | null;
      postchange: Record<string, unknown> | null;
    };
    changes: Record<string, [unknown, unknown]>;
  };
}

/** A real HTTP receiver: records every POST, answers `status()` (200 unless told otherwise). */
export async function startReceiver() {
  const received: Received[] = [];
  let status = 200;
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (status >= 200 && status < 300) {
        const body = Buffer.concat(chunks).toString('utf8');
        received.push({ headers: request.headers, body, json: JSON.parse(body) });
      }
      response.writeHead(status, { 'content-type': 'text/plain' });
      response.end(status === 200 ? 'ok' : 'down for maintenance\u001b[31m');
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received,
    setStatus(value: number) {
      status = value;
    },
    /** Waits until `predicate` holds of what was received (polling), or fails after timeoutMs. */
    async waitFor(predicate: (all: Received[]) => boolean, timeoutMs = 15_000) {
      const until = Date.now() + timeoutMs;
      while (!predicate(received)) {
        if (Date.now() > until) {
          throw new Error(
            `receiver: condition not met in ${timeoutMs} ms (${received.length} received)`,
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
