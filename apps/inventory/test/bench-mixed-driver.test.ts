import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { driveMixed, type MixedRequest } from '../bench/mixed.js';

/**
 * The benchmark's `mixed` scenario times its reads and its writes apart while autocannon drives
 * them: each response's latency must go to the class of the request it answers. The server here
 * answers writes after 40 ms and reads at once, and refuses one read in eight, so a latency or a
 * status given to the wrong class shows.
 */
describe('the mixed scenario driver', () => {
  const received = { read: 0, write: 0 };
  const server = createServer((request, response) => {
    if (request.method === 'GET') {
      received.read += 1;
      response.statusCode = request.url?.endsWith('/refused') ? 404 : 200;
      response.end('{}');
      return;
    }
    request.resume();
    request.on('end', () => {
      received.write += 1;
      setTimeout(() => {
        response.statusCode = 201;
        response.end('{}');
      }, 40);
    });
  });
  let url = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it("gives each response's latency and status to its own class", async () => {
    let n = 0;
    const next = (): MixedRequest => {
      const i = n++;
      if (i % 5 === 4) {
        return { class: 'write', write: 'PATCH', method: 'PATCH', path: `/w/${i}`, body: '{}' };
      }
      return { class: 'read', method: 'GET', path: i % 10 === 3 ? `/r/${i}/refused` : `/r/${i}` };
    };
    const result = await driveMixed({ url, connections: 8, durationSeconds: 1, headers: {}, next });

    expect(result.reads.requests).toBeGreaterThan(50);
    expect(result.writes.requests).toBeGreaterThan(10);
    expect(result.writesByKind.PATCH.requests).toBe(result.writes.requests);
    // Every answered request counted once, in its class (the server may have received a few
    // more, in flight when the run stopped).
    expect(result.reads.requests).toBeLessThanOrEqual(received.read);
    expect(result.writes.requests).toBeLessThanOrEqual(received.write);
    expect(result.all.requests).toBe(result.reads.requests + result.writes.requests);
    // Writes waited 40 ms on the server; no read did.
    expect(result.writes.p50Ms).toBeGreaterThanOrEqual(39);
    expect(result.reads.p50Ms).toBeLessThan(39);
    // The refused requests were reads (one of the eight reads in every ten requests): none of
    // the writes, and about an eighth of the reads.
    expect(result.writes.non2xx).toBe(0);
    expect(result.reads.non2xx).toBeGreaterThan(result.reads.requests / 10);
    expect(result.reads.non2xx).toBeLessThan(result.reads.requests / 3);
    expect(result.all.errors).toBe(0);
  });
});
