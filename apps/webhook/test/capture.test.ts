import { request } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { type RunningCapture, startCapture } from '../src/app.js';
import { PackedRequest, recordBytes } from '../src/capture/record.js';
import { MAX_CONNECTIONS } from '../src/capture/server.js';
import type { AppConfig } from '../src/config/types.js';
import { DEFAULT_LIMITS } from '../src/config/types.js';
import { captureConfig, sendRaw as raw, waitFor } from './helpers.js';

const running: RunningCapture[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((capture) => capture.close()));
});

async function start(overrides: Partial<AppConfig> = {}) {
  const capture = await startCapture(captureConfig(overrides));
  running.push(capture);
  const port = Number(new URL(capture.address).port);
  return { capture, port, records: () => capture.store.snapshot().records };
}

describe('capture fidelity', () => {
  it.each(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD', 'PROPFIND'])(
    'captures and answers %s',
    async (method) => {
      const { port, records } = await start();
      const response = await fetch(`http://127.0.0.1:${port}/m`, { method });
      expect(response.status).toBe(200);
      expect(records().map((record) => record.method)).toEqual([method]);
    },
  );

  it('keeps repeated headers in arrival order, names as sent, and repeated query names', async () => {
    const { port, records } = await start();
    const response = await raw(
      port,
      'GET /hooks/a%20b?tag=1&tag=2&empty=&x=%E2%9C%93 HTTP/1.1\r\nHost: example.test:9080\r\n' +
        'X-Trace: first\r\nx-trace: second\r\nSet-Cookie: a=1\r\nSet-Cookie: b=2\r\nConnection: close\r\n\r\n',
    );
    expect(response).toMatch(/^HTTP\/1\.1 200 OK/);
    const [record] = records();
    expect(record?.path).toBe('/hooks/a b');
    expect(record?.target).toBe('/hooks/a%20b?tag=1&tag=2&empty=&x=%E2%9C%93');
    expect(record?.url).toBe('http://example.test:9080/hooks/a%20b?tag=1&tag=2&empty=&x=%E2%9C%93');
    expect(record?.query).toEqual([
      ['tag', '1'],
      ['tag', '2'],
      ['empty', ''],
      ['x', '✓'],
    ]);
    expect(record?.headers).toEqual([
      ['Host', 'example.test:9080'],
      ['X-Trace', 'first'],
      ['x-trace', 'second'],
      ['Set-Cookie', 'a=1'],
      ['Set-Cookie', 'b=2'],
      ['Connection', 'close'],
    ]);
    expect(record?.remote).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(record?.httpVersion).toBe('1.1');
  });

  it('keeps thousands of headers', async () => {
    const { port, records } = await start();
    const headers = Array.from({ length: 3000 }, (_, i) => `h${i}: ${i}\r\n`).join('');
    const response = await raw(
      port,
      `GET / HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`,
    );
    expect(response).toMatch(/^HTTP\/1\.1 200/);
    expect(records()[0]?.headers).toHaveLength(3002);
  });

  it('uses the listening address when there is no Host header', async () => {
    const { port, records } = await start();
    await raw(port, 'GET /x?y=1 HTTP/1.0\r\n\r\n');
    expect(records()[0]?.url).toBe(`http://127.0.0.1:${port}/x?y=1`);
  });

  it('keeps binary bodies byte for byte', async () => {
    const { port, records } = await start();
    const body = Buffer.from(Array.from({ length: 256 }, (_, i) => i));
    await fetch(`http://127.0.0.1:${port}/bin`, { method: 'POST', body });
    expect(records()[0]?.body.equals(body)).toBe(true);
    expect(records()[0]?.size).toBe(256);
    expect(records()[0]?.truncated).toBe(false);
  });

  it('keeps a chunked body', async () => {
    const { port, records } = await start();
    await raw(
      port,
      'POST /c HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n' +
        '5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n',
    );
    expect(records()[0]?.body.toString()).toBe('hello world');
  });

  it('truncates a body over --max-body but answers it normally', async () => {
    const maxBody = 1024;
    const { port, records } = await start({ limits: { ...DEFAULT_LIMITS, maxBody } });
    const body = Buffer.alloc(5 * 1024 * 1024, 'x');
    const response = await fetch(`http://127.0.0.1:${port}/big`, { method: 'POST', body });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('{"status":"ok"}');
    const [record] = records();
    expect(record?.body.length).toBe(maxBody);
    expect(record?.size).toBe(body.length);
    expect(record?.truncated).toBe(true);
  });

  it('does not record an upload the client abandons', async () => {
    const { port, records, capture } = await start();
    await new Promise<void>((resolve) => {
      const req = request({
        port,
        method: 'POST',
        path: '/abandoned',
        headers: { 'content-length': 1000 },
      });
      req.on('error', () => resolve());
      req.write('only part of it', () => setTimeout(() => req.destroy(), 50));
    });
    await fetch(`http://127.0.0.1:${port}/after`);
    expect(records().map((record) => record.path)).toEqual(['/after']);
    expect(capture.store.snapshot().seen).toBe(1);
  });

  it('captures CONNECT and answers it before closing', async () => {
    const { port, records } = await start();
    const response = await raw(
      port,
      'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n',
    );
    expect(response).toMatch(/^HTTP\/1\.1 200 OK\r\nContent-Type: application\/json\r\n/);
    expect(response.endsWith('\r\n\r\n{"status":"ok"}')).toBe(true);
    expect(records()[0]).toMatchObject({
      method: 'CONNECT',
      path: 'example.com:443',
      url: 'example.com:443',
    });
  });

  it(`closes a CONNECT once answered, so ${MAX_CONNECTIONS + 2} peers that keep theirs open lock nobody out`, async () => {
    const { capture, port, records } = await start();
    const peers: Socket[] = [];
    onTestFinished(() => {
      for (const peer of peers) peer.destroy();
    });
    // Each peer keeps its own half open after the answer (allowHalfOpen), as a client that never
    // closes does: a half-closed socket stayed counted against maxConnections until it went.
    const answers: string[] = [];
    for (let i = 0; i < MAX_CONNECTIONS + 2; i += 1) {
      answers.push(
        await new Promise<string>((resolve) => {
          const peer = connect({ port, host: '127.0.0.1', allowHalfOpen: true }, () =>
            peer.write(`CONNECT example.com:${i} HTTP/1.1\r\nHost: example.com:${i}\r\n\r\n`),
          );
          peers.push(peer);
          let text = '';
          peer.setEncoding('latin1');
          peer.on('data', (chunk: string) => {
            text += chunk;
            if (text.endsWith('{"status":"ok"}')) resolve(text);
          });
          peer.on('error', () => resolve(text));
          peer.on('end', () => resolve(text));
          peer.on('close', () => resolve(text));
        }),
      );
    }
    expect(answers.filter((answer) => answer.startsWith('HTTP/1.1 200 OK'))).toHaveLength(
      MAX_CONNECTIONS + 2,
    );
    const open = () =>
      new Promise<number>((resolve) => capture.server.getConnections((_, count) => resolve(count)));
    let count = -1;
    await waitFor(
      () => {
        void open().then((n) => {
          count = n;
        });
        return count === 0;
      },
      () => `${count} connections still open on the server`,
      5_000,
    );
    const after = await fetch(`http://127.0.0.1:${port}/after`, {
      signal: AbortSignal.timeout(5_000),
    });
    expect(after.status).toBe(200);
    expect(records()).toHaveLength(MAX_CONNECTIONS + 3);
    // The peers' own halves are still open: the server let go of its sockets regardless.
    expect(peers.every((peer) => !peer.destroyed)).toBe(true);
  });

  it('answers a malformed request with 400 and keeps serving', async () => {
    const { port, records } = await start();
    const response = await raw(port, 'THIS IS NOT HTTP\r\n\r\n');
    expect(response).toMatch(/^HTTP\/1\.1 400/);
    expect((await fetch(`http://127.0.0.1:${port}/ok`)).status).toBe(200);
    expect(records()).toHaveLength(1);
  });

  it('answers a complete request before closing on the bytes after it that are not HTTP', async () => {
    const { port, records } = await start();
    // A request, then in the same packet a line that is no request: an empty line ended the
    // first request's headers early, so what was meant as its next header is garbage. The first
    // request is whole, so it is recorded and must get its answer; the garbage closes the
    // connection with nothing more, as Node does once an answer has gone out.
    for (const after of [': \r\nContent-Length: 3\r\n\r\nabc', 'THIS IS NOT HTTP\r\n\r\n']) {
      const response = await raw(
        port,
        `ACL /whole HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n${after}`,
      );
      expect(response).toMatch(/^HTTP\/1\.1 200 /);
      expect(response).not.toMatch(/ 400 /);
    }
    // The same with keep-alive: the answer, then the connection closes.
    const kept = await raw(
      port,
      'GET /kept HTTP/1.1\r\nHost: x\r\n\r\n\x01\x02 not a request\r\n\r\n',
    );
    expect(kept).toMatch(/^HTTP\/1\.1 200 /);
    expect(records().map((record) => record.path)).toEqual(['/whole', '/whole', '/kept']);
    // A request that is not whole when the garbage comes (a broken chunk) is answered 400 at once.
    const broken = await raw(
      port,
      'POST /broken HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n',
    );
    expect(broken).toMatch(/^HTTP\/1\.1 400/);
    expect(records()).toHaveLength(3);
    expect((await fetch(`http://127.0.0.1:${port}/ok`)).status).toBe(200);
  });

  it('answers with the matching route, repeated headers included', async () => {
    const { port } = await start({
      defaultResponse: { status: 404, headers: [], body: 'nothing here' },
      routes: [
        {
          path: '/hooks/*',
          method: 'POST',
          response: {
            status: 202,
            headers: [
              ['X-A', '1'],
              ['X-A', '2'],
            ],
            body: '{"queued":true}',
          },
        },
      ],
    });
    const hit = await fetch(`http://127.0.0.1:${port}/hooks/github?x=1`, { method: 'POST' });
    expect(hit.status).toBe(202);
    expect(hit.headers.get('x-a')).toBe('1, 2');
    expect(hit.headers.get('content-type')).toBe('application/json');
    expect(await hit.json()).toEqual({ queued: true });
    const miss = await fetch(`http://127.0.0.1:${port}/hooks/github`);
    expect(miss.status).toBe(404);
    expect(miss.headers.get('content-type')).toBe('text/plain; charset=utf-8');
    expect(await miss.text()).toBe('nothing here');
  });
});

describe('hostile input', () => {
  it('survives random bytes, random methods and random paths, and keeps answering', async () => {
    const { port, records } = await start({ limits: { ...DEFAULT_LIMITS, maxBody: 64 } });
    let seed = 42;
    const random = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed % n;
    };
    const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => random(256)));
    const methods = ['GET', 'POST', 'DELETE', 'PATCH', 'FOO', 'get', ''];
    let complete = 0;
    const attempts = Array.from({ length: 150 }, (_, i) => {
      if (i % 3 === 0) return raw(port, bytes(1 + random(300)));
      const method = methods[random(methods.length)] ?? 'GET';
      // URL characters, and now and then a byte Node refuses (that request gets 400, unrecorded).
      const alphabet = 'abcXYZ019/%?&=~-._+!$()*,;:@';
      const chars = Array.from({ length: random(30) }, () => alphabet[random(alphabet.length)]);
      if (random(5) === 0) chars.push(['\x01', '\xe9', '\x7f', ' '][random(4)] ?? '');
      const path = `/${chars.join('')}`;
      const body = bytes(random(200));
      const head = `${method} ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n`;
      return raw(port, Buffer.concat([Buffer.from(head, 'latin1'), body])).then((response) => {
        if (response.startsWith('HTTP/1.1 200')) complete += 1;
        return response;
      });
    });
    await Promise.all(attempts.map((attempt) => attempt.catch(() => '')));
    expect(complete).toBeGreaterThan(30);
    expect((await fetch(`http://127.0.0.1:${port}/still-here`)).status).toBe(200);
    // Every request answered 200 was recorded, and nothing else.
    expect(records()).toHaveLength(complete + 1);
    expect(records().every((record) => record.body.length <= 64)).toBe(true);
  });
});

describe('retention', () => {
  it('drops the oldest beyond --max-requests, counting every request seen', async () => {
    const { port, records, capture } = await start({
      limits: { ...DEFAULT_LIMITS, maxRequests: 3 },
    });
    for (let i = 1; i <= 5; i += 1) await fetch(`http://127.0.0.1:${port}/r${i}`);
    expect(records().map((record) => record.path)).toEqual(['/r3', '/r4', '/r5']);
    expect(records().map((record) => record.seq)).toEqual([3, 4, 5]);
    expect(capture.store.snapshot().seen).toBe(5);
  });

  it('drops the oldest beyond --max-memory, counting bodies and everything else a record holds', async () => {
    const { port, records, capture } = await start({
      limits: { maxBody: 1000, maxRequests: 100, maxMemory: 4000 },
    });
    for (let i = 1; i <= 4; i += 1) {
      await fetch(`http://127.0.0.1:${port}/r${i}`, { method: 'POST', body: Buffer.alloc(1000) });
    }
    expect(records().map((record) => record.path)).toEqual(['/r3', '/r4']);
    const held = capture.store.snapshot().bytes;
    expect(held).toBe(records().reduce((sum, record) => sum + recordBytes(record), 0));
    expect(held).toBeGreaterThan(2000);
    expect(held).toBeLessThanOrEqual(4000);
  });

  // Headers were neither counted nor stored compactly, so requests with
  // thousands of tiny headers and no body were never dropped (3.85 GB with --max-memory 16MiB).
  it('counts headers against --max-memory: bodiless requests with 8000 headers are dropped too', async () => {
    const maxMemory = 1024 * 1024;
    const { port, records, capture } = await start({
      limits: { maxBody: 1000, maxRequests: 1000, maxMemory },
    });
    const headers = 'X-H: v\r\n'.repeat(8000); // 64 KiB of header lines
    for (let i = 0; i < 40; i += 1) {
      await raw(port, `GET /h${i} HTTP/1.1\r\nHost: x\r\n${headers}Connection: close\r\n\r\n`);
    }
    expect(capture.store.snapshot().seen).toBe(40);
    const kept = records();
    expect(kept.at(-1)?.headers).toHaveLength(8002);
    const headerBytes = kept.reduce(
      (sum, record) => sum + record.headers.reduce((n, [k, v]) => n + k.length + v.length, 0),
      0,
    );
    expect(headerBytes).toBeLessThanOrEqual(maxMemory);
    expect(kept.length).toBeLessThan(40);
  });

  it('builds header pairs only when something reads them: never for a request it only records', async () => {
    // Under a flood of requests with tens of thousands of headers, building pairs for every one
    // doubled what each request left for the collector (peaks of 170-220 MiB against 120).
    const headersRead = vi.spyOn(PackedRequest.prototype, 'headers', 'get');
    onTestFinished(() => headersRead.mockRestore());
    const { port, records } = await start({
      verify: { scheme: 'github', secret: 'gh-secret', toleranceSeconds: 300 },
      routes: [{ path: '/recorded', method: null, response: null, verify: false }],
    });
    await raw(port, 'GET /recorded HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nConnection: close\r\n\r\n');
    expect(headersRead).not.toHaveBeenCalled();
    await raw(port, 'GET /checked HTTP/1.1\r\nHost: x\r\nX-A: 1\r\nConnection: close\r\n\r\n');
    // The signature check reads them once; recording reuses the packed block as it arrived.
    expect(headersRead).toHaveBeenCalledTimes(1);
    const [recorded, checked] = records();
    expect(recorded?.headers).toEqual([
      ['Host', 'x'],
      ['X-A', '1'],
      ['Connection', 'close'],
    ]);
    expect(checked?.verification).toMatchObject({ scheme: 'github', ok: false });
  });

  it('clears, keeping the sequence going', async () => {
    const { port, records, capture } = await start();
    await fetch(`http://127.0.0.1:${port}/a`);
    capture.store.clear();
    expect(records()).toEqual([]);
    await fetch(`http://127.0.0.1:${port}/b`);
    expect(records().map((record) => record.seq)).toEqual([2]);
    expect(capture.store.snapshot().seen).toBe(2);
  });
});
