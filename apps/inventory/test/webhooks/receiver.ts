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
  /** While set, requests are held unanswered (a receiver that hangs). */
  let holding = false;
  const held: http.ServerResponse[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      if (holding) {
        held.push(response);
        return;
      }
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
    /** Hang (hold every request unanswered) or stop hanging (the held ones get 503). */
    hold(value: boolean) {
      holding = value;
      if (!value) for (const response of held.splice(0)) response.writeHead(503).end();
    },
    held: () => held.length,
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
    close: () => {
      for (const response of held.splice(0)) response.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
