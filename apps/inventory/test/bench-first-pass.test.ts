import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drive } from '../bench/load.js';

/**
 * The benchmark's varied lists warm up with one pass through their URLs (`drive` with an
 * `amount`), measured as their first pass: the pass must send each of its requests, in turn,
 * exactly as many as asked, and its rate must be the requests over the pass's own time.
 */
describe('the benchmark driving a fixed number of requests', () => {
  const paths: string[] = [];
  const server = createServer((request, response) => {
    paths.push(request.url ?? '');
    response.end('{}');
  });
  let url = '';

  beforeAll(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('sends each request of the pass once, and reports its rate over the pass', async () => {
    let n = 0;
    const started = performance.now();
    const result = await drive({
      url,
      connections: 4,
      durationSeconds: 0,
      amount: 300,
      headers: {},
      next: () => ({ method: 'GET', path: `/list/${n++}` }),
    });
    const seconds = (performance.now() - started) / 1000;

    expect(result.requests).toBe(300);
    const sent = new Set(paths);
    expect(paths).toHaveLength(300);
    expect(sent.size).toBe(300);
    for (let i = 0; i < 300; i++) expect(sent.has(`/list/${i}`)).toBe(true);
    // Over the pass's own time: at least the requests over the wall time around the call.
    expect(result.requestsPerSecond).toBeGreaterThanOrEqual(Math.floor(300 / seconds));
  });
});
