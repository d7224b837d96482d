import { createServer } from 'node:net';
import { sign as githubSign } from '@octokit/webhooks-methods';
import Stripe from 'stripe';
import { afterEach, describe, expect, it } from 'vitest';
import { startCapture } from '../src/app.js';
import type { CapturedRequest } from '../src/capture/record.js';
import { headerValue, verificationText } from '../src/capture/record.js';
import type { AppConfig, RouteSpec } from '../src/config/types.js';
import { DEFAULT_TOLERANCE_SECONDS } from '../src/config/types.js';
import { FORWARD_QUEUE_LIMITS, ForwardQueue } from '../src/forward/queue.js';
import { forwardUrl } from '../src/forward/url.js';
import { requestJson } from '../src/output/json.js';
import { captureConfig, sendRaw, waitFor } from './helpers.js';
import { startReceiver } from './receiver.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function start(overrides: Partial<AppConfig> = {}) {
  const capture = await startCapture(captureConfig(overrides));
  cleanups.push(() => capture.close());
  const completed: CapturedRequest[] = [];
  capture.onRecord((record) => completed.push(record));
  const port = Number(new URL(capture.address).port);
  return { capture, port, completed };
}

async function receiver(...args: Parameters<typeof startReceiver>) {
  const target = await startReceiver(...args);
  cleanups.push(() => target.close());
  return target;
}

const forwardTo = (url: string, extra: Partial<AppConfig['forward']> = {}) => ({
  forward: { defaultTarget: url, timeoutMs: 2000, respondWithForward: false, ...extra },
});

/** A port where nothing listens. */
async function deadPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe('forward', () => {
  it('sends method, path, query, headers (order, case; hop-by-hop dropped, Host rewritten) and the exact bytes', async () => {
    const app = await receiver();
    const { port, capture, completed } = await start(forwardTo(`${app.url}/base/`));
    const body = Buffer.from([0x7b, 0xff, 0x00, 0x7d, 0x0a]);
    const answer = await sendRaw(
      port,
      Buffer.concat([
        Buffer.from(
          'PATCH /hooks/a%20b?x=1&x=2 HTTP/1.1\r\nHost: public.example\r\nX-Zeta: z\r\n' +
            'x-alpha: Zo\xc3\xab\r\nKeep-Alive: timeout=5\r\nConnection: close, X-Drop\r\nX-Drop: no\r\n' +
            'Transfer-Encoding: chunked\r\n\r\n5\r\n',
          'latin1',
        ),
        body,
        Buffer.from('\r\n0\r\n\r\n'),
      ]),
    );
    expect(answer).toMatch(/^HTTP\/1\.1 200 OK/); // the configured response: forwarding does not wait
    await waitFor(() => completed.length === 1);
    const [seen] = app.received;
    expect(seen?.method).toBe('PATCH');
    expect(seen?.url).toBe('/base/hooks/a%20b?x=1&x=2');
    expect(seen?.body).toEqual(body);
    const names = [];
    for (let i = 0; i < (seen?.rawHeaders.length ?? 0); i += 2) names.push(seen?.rawHeaders[i]);
    expect(names.slice(0, 4)).toEqual(['Host', 'X-Zeta', 'x-alpha', 'Content-Length']);
    expect(seen?.rawHeaders[1]).toBe(new URL(app.url).host);
    expect(seen?.rawHeaders[5]).toBe('Zo\xc3\xab'); // the bytes as sent, not re-encoded
    expect(names).not.toContain('X-Drop');
    expect(names).not.toContain('Transfer-Encoding');

    const record = completed[0];
    expect(record?.forward).toMatchObject({
      kind: 'response',
      target: `${app.url}/base/hooks/a%20b?x=1&x=2`,
      status: 201,
      statusText: 'Created',
    });
    if (record?.forward?.kind !== 'response') throw new Error('no response');
    expect(record.forward.body.toString()).toBe('{"received":true}');
    expect(headerValue(record.forward.headers, 'x-app')).toBe('yes');
    expect(record.forward.durationMs).toBeGreaterThanOrEqual(0);
    expect(capture.store.snapshot().records[0]?.forward?.kind).toBe('response');
    const json = JSON.parse(requestJson(record)) as { forward: { status: number; body: string } };
    expect(json.forward.status).toBe(201);
    expect(json.forward.body).toBe('{"received":true}');
    expect(record.response?.status).toBe(200);
  });

  it('a bodiless POST or PROPFIND, or an empty chunked body, goes with Content-Length: 0, never chunked', async () => {
    const app = await receiver();
    const { port, completed } = await start(forwardTo(app.url));
    const requests = [
      'POST /post HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n',
      'PROPFIND /propfind HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n',
      'DELETE /chunked HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n',
      'GET /get HTTP/1.1\r\nHost: h\r\nConnection: close\r\n\r\n',
    ];
    for (const raw of requests) await sendRaw(port, raw);
    await waitFor(() => completed.length === requests.length);
    const lengthOf = (url: string) => {
      const seen = app.received.find((request) => request.url === url);
      const headers: Record<string, string> = {};
      for (let i = 0; i < (seen?.rawHeaders.length ?? 0); i += 2) {
        headers[(seen?.rawHeaders[i] ?? '').toLowerCase()] = seen?.rawHeaders[i + 1] ?? '';
      }
      return [headers['content-length'], headers['transfer-encoding']];
    };
    expect(lengthOf('/post')).toEqual(['0', undefined]);
    expect(lengthOf('/propfind')).toEqual(['0', undefined]);
    expect(lengthOf('/chunked')).toEqual(['0', undefined]);
    // A GET without a body is sent as it came: no header about a body.
    expect(lengthOf('/get')).toEqual([undefined, undefined]);
  });

  it('routes: the first matching route with a forward wins; its matched path is replaced', async () => {
    const github = await receiver();
    const other = await receiver();
    const routes: RouteSpec[] = [
      { path: '/hooks/github/*', method: null, response: null, forward: `${github.url}/gh` },
      { path: '/hooks/quiet', method: null, response: null, forward: false },
      { path: '/hooks/*', method: null, response: null, forward: `${other.url}/` },
    ];
    const { port, completed } = await start({ routes });
    for (const path of ['/hooks/github/push?a=1', '/hooks/quiet', '/hooks/stripe', '/elsewhere']) {
      await fetch(`http://127.0.0.1:${port}${path}`, { method: 'POST', body: 'x' });
    }
    await waitFor(() => completed.length === 4);
    expect(github.received.map((request) => request.url)).toEqual(['/gh/push?a=1']);
    expect(other.received.map((request) => request.url)).toEqual(['/stripe']);
    expect(forwardUrl('http://h:1/app', routes[0] ?? null, '/hooks/github')).toBe('http://h:1/app');
  });

  it('records refused, timeout and reset failures, and answers the caller at once', async () => {
    const hang = await receiver(() => {}); // never answers
    const reset = await receiver((req) => req.socket.destroy());
    for (const [target, failure] of [
      [`http://127.0.0.1:${await deadPort()}`, 'refused'],
      [hang.url, 'timeout'],
      [reset.url, 'reset'],
    ] as const) {
      const { port, completed } = await start(forwardTo(target, { timeoutMs: 300 }));
      const response = await fetch(`http://127.0.0.1:${port}/x`, { method: 'POST', body: 'hi' });
      expect(response.status).toBe(200);
      await waitFor(() => completed.length === 1);
      expect(completed[0]?.forward).toMatchObject({ kind: 'failure', failure });
      const json = JSON.parse(requestJson(completed[0] as CapturedRequest)) as {
        forward: { failure: string };
      };
      expect(json.forward.failure).toBe(failure);
    }
  });

  it('--respond-with-forward answers with the target’s response, or 502/504 when it fails', async () => {
    const app = await receiver((_req, res) => {
      res.writeHead(418, { 'X-Teapot': 'short and stout' });
      res.end('no coffee');
    });
    const { port, completed } = await start(forwardTo(app.url, { respondWithForward: true }));
    const response = await fetch(`http://127.0.0.1:${port}/brew`, { method: 'POST', body: 'x' });
    expect(response.status).toBe(418);
    expect(response.headers.get('x-teapot')).toBe('short and stout');
    expect(await response.text()).toBe('no coffee');
    expect(completed[0]?.response?.status).toBe(418);

    const dead = await start(
      forwardTo(`http://127.0.0.1:${await deadPort()}`, { respondWithForward: true }),
    );
    const failed = await fetch(`http://127.0.0.1:${dead.port}/brew`, { method: 'POST', body: 'x' });
    expect(failed.status).toBe(502);
    expect(await failed.text()).toContain('refused');
  });

  it('--respond-with-forward passes on no header of the target’s connection (RFC 9110 §7.6.1)', async () => {
    const app = await receiver((_req, res) => {
      // Headers the target's Connection names, and TE, describe its hop, not the message.
      res.writeHead(200, [
        ['Connection', 'keep-alive, X-Hop'],
        ['X-Hop', 'one hop only'],
        ['TE', 'trailers'],
        ['Keep-Alive', 'timeout=5'],
        ['X-Kept', 'end to end'],
      ]);
      res.end('ok');
    });
    const { port } = await start(forwardTo(app.url, { respondWithForward: true }));
    const response = await fetch(`http://127.0.0.1:${port}/hop`, { method: 'POST', body: 'x' });
    expect(response.status).toBe(200);
    expect(response.headers.get('x-kept')).toBe('end to end');
    expect(response.headers.get('x-hop')).toBeNull();
    expect(response.headers.get('te')).toBeNull();
    expect(await response.text()).toBe('ok');
  });

  it('a full queue refuses more (queue-full) instead of growing', async () => {
    const hang = await receiver(() => {});
    const queue = new ForwardQueue({
      concurrency: 1,
      maxQueued: 3,
      maxQueuedBytes: 1 << 20,
      timeoutMs: 5000,
      maxResponseBody: 1024,
    });
    cleanups.push(() => queue.close());
    const request = { method: 'POST', target: '/', headers: [], body: Buffer.from('x') };
    const results = Array.from({ length: 5 }, () => queue.submit(request, hang.url));
    expect(await results[3]).toMatchObject({ kind: 'failure', failure: 'queue-full' });
    expect(await results[4]).toMatchObject({ kind: 'failure', failure: 'queue-full' });
    expect(queue.load.requests).toBe(3);
    queue.close();
    expect(await results[2]).toMatchObject({ failure: 'cancelled' });
  });
  it('a slow target’s backlog does not starve another target: slots go in arrival order', async () => {
    // Every request the two apps see, in the order they see them.
    const seen: string[] = [];
    const slow = await receiver((req, res) => {
      seen.push(req.url ?? '');
      setTimeout(() => res.end('slow'), 300);
    });
    const fast = await receiver((req, res) => {
      seen.push(req.url ?? '');
      res.end('fast');
    });
    // Per target as many as in all (the default): the slow app's backlog could take every slot.
    const queue = new ForwardQueue({
      concurrency: 2,
      maxQueued: 100,
      maxQueuedBytes: 1 << 20,
      timeoutMs: 1500,
      maxResponseBody: 1024,
    });
    cleanups.push(() => queue.close());
    const send = (url: string) =>
      queue.submit({ method: 'POST', target: '/', headers: [], body: Buffer.from('x') }, url);
    const before = Array.from({ length: 4 }, (_, i) => send(`${slow.url}/a${i}`));
    const other = send(`${fast.url}/b`);
    const after = Array.from({ length: 8 }, (_, i) => send(`${slow.url}/a${i + 4}`));
    // a0 and a1 at once, a2 and a3 300 ms later, then b (it came before a4): about 600 ms in,
    // long before the 1500 ms timeout. Served slow backlog first, b waited for all 12 (1800 ms).
    const answer = await other;
    expect(answer).toMatchObject({ kind: 'response', status: 200 });
    expect(seen.indexOf('/b')).toBeGreaterThanOrEqual(4);
    expect(seen.indexOf('/b')).toBeLessThanOrEqual(5);
    expect(seen.slice(0, 4)).toEqual(['/a0', '/a1', '/a2', '/a3']);
    queue.close();
    await Promise.all([...before, ...after]);
  });

  it('one at a time per target: each target’s forwards still go in capture order', async () => {
    const seen: Record<string, string[]> = { slow: [], fast: [] };
    const slow = await receiver((req, res) => {
      seen.slow?.push(req.url ?? '');
      setTimeout(() => res.end('slow'), 40);
    });
    const fast = await receiver((req, res) => {
      seen.fast?.push(req.url ?? '');
      setTimeout(() => res.end('fast'), 5);
    });
    const queue = new ForwardQueue({
      concurrency: 4,
      perTarget: 1,
      maxQueued: 100,
      maxQueuedBytes: 1 << 20,
      timeoutMs: 5000,
      maxResponseBody: 1024,
    });
    cleanups.push(() => queue.close());
    const send = (url: string) =>
      queue.submit({ method: 'POST', target: '/', headers: [], body: Buffer.from('x') }, url);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        send(i % 3 === 0 ? `${fast.url}/f${i}` : `${slow.url}/s${i}`),
      ),
    );
    expect(results.every((result) => result.kind === 'response')).toBe(true);
    const indices = (name: string, list: string[] | undefined) =>
      (list ?? []).map((url) => Number(url.slice(name.length + 1)));
    const sorted = (list: number[]) => [...list].sort((a, b) => a - b);
    expect(indices('f', seen.fast)).toEqual(sorted(indices('f', seen.fast)));
    expect(indices('s', seen.slow)).toEqual(sorted(indices('s', seen.slow)));
    expect(seen.fast).toHaveLength(7);
    expect(seen.slow).toHaveLength(13);
    expect(queue.load).toEqual({ requests: 0, bytes: 0 });
  });

  it('answers being received share the queue’s byte budget: beyond it they are kept truncated', async () => {
    // Each answer's 5000 bytes are sent at once, but all three end only when the third is sent:
    // the queue holds three answers being received at the same time.
    const open: (() => void)[] = [];
    const big = await receiver((_req, res) => {
      res.writeHead(200, { 'Content-Length': '5000' });
      res.write('a'.repeat(4999));
      open.push(() => res.end('a'));
      if (open.length === 3)
        setTimeout(() => {
          for (const end of open) end();
        }, 100);
    });
    const queue = new ForwardQueue({
      concurrency: 4,
      maxQueued: 10,
      maxQueuedBytes: 6000,
      timeoutMs: 5000,
      maxResponseBody: 1 << 20,
    });
    cleanups.push(() => queue.close());
    const request = { method: 'POST', target: '/', headers: [], body: Buffer.from('x') };
    const results = await Promise.all(
      Array.from({ length: 3 }, () => queue.submit(request, big.url)),
    );
    const bodies = results.map((result) => (result.kind === 'response' ? result : null));
    expect(bodies.every((result) => result?.size === 5000)).toBe(true);
    // Three answers of 5000 bytes at once would hold 15000: the budget keeps at most 6000.
    const kept = bodies.reduce((sum, result) => sum + (result?.body.length ?? 0), 0);
    expect(kept).toBeLessThanOrEqual(6000);
    expect(bodies.some((result) => result?.truncated)).toBe(true);
    // What is kept is the start of the answer, without holes.
    for (const result of bodies)
      expect(result?.body.toString()).toBe('a'.repeat(result?.body.length ?? 0));
    expect(queue.load).toEqual({ requests: 0, bytes: 0 });
  });

  it('keeps up with concurrent arrivals over a few reused connections (keep-alive pool per target)', async () => {
    // The app answers nothing until 32 forwards are in flight at once (or a second has passed,
    // so a queue sending fewer at a time fails the check below instead of hanging).
    const held: (() => void)[] = [];
    let inFlight = 0;
    let maxInFlight = 0;
    let connections = 0;
    let releaseAll = false;
    const release = () => {
      releaseAll = true;
      for (const answer of held.splice(0)) answer();
    };
    const app = await receiver((_req, res) => {
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const answer = () => {
        inFlight -= 1;
        res.end('ok');
      };
      if (releaseAll) answer();
      else held.push(answer);
      if (inFlight >= 32) release();
    });
    app.server.on('connection', () => {
      connections += 1;
    });
    const fallback = setTimeout(release, 1000);
    cleanups.push(() => clearTimeout(fallback));
    const { port, completed } = await start(forwardTo(app.url, { timeoutMs: 10_000 }));

    await Promise.all(
      Array.from({ length: 48 }, (_, index) =>
        fetch(`http://127.0.0.1:${port}/hooks/${index}`, { method: 'POST', body: `${index}` }),
      ),
    );
    await waitFor(
      () => completed.length === 48,
      () => `${completed.length} complete`,
    );
    expect(completed.filter((record) => record.forward?.kind !== 'response')).toEqual([]);
    expect(maxInFlight).toBeGreaterThanOrEqual(32);
    const opened = connections;
    expect(opened).toBeLessThanOrEqual(FORWARD_QUEUE_LIMITS.concurrency);

    // One at a time, every forward goes over a connection already open: none is opened.
    for (let index = 0; index < 20; index += 1) {
      await fetch(`http://127.0.0.1:${port}/again/${index}`, { method: 'POST', body: 'x' });
      await waitFor(
        () => completed.length === 49 + index,
        () => `${completed.length} complete`,
      );
    }
    expect(completed.slice(48).every((record) => record.forward?.kind === 'response')).toBe(true);
    expect(connections).toBe(opened);
  });
});

describe('verify while capturing', () => {
  const github = {
    scheme: 'github',
    secret: 'gh-secret',
    toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
  } as const;

  it('records the verification of a delivery signed by @octokit/webhooks-methods, and --reject-invalid answers 401', async () => {
    const routes: RouteSpec[] = [
      { path: '/hooks/github', method: 'POST', response: null, verify: github },
    ];
    const { port, completed } = await start({ routes, rejectInvalid: true });
    const body = '{"action":"opened","number":12.50}';
    const good = await fetch(`http://127.0.0.1:${port}/hooks/github`, {
      method: 'POST',
      headers: { 'X-Hub-Signature-256': await githubSign('gh-secret', body) },
      body,
    });
    expect(good.status).toBe(200);
    const bad = await fetch(`http://127.0.0.1:${port}/hooks/github`, {
      method: 'POST',
      headers: { 'X-Hub-Signature-256': await githubSign('wrong', body) },
      body,
    });
    expect(bad.status).toBe(401);
    expect(await bad.text()).toContain('signature mismatch');
    const other = await fetch(`http://127.0.0.1:${port}/elsewhere`, { method: 'POST', body });
    expect(other.status).toBe(200);
    expect(
      completed.map((record) => record.verification && verificationText(record.verification)),
    ).toEqual(['✓ github signature valid', '✗ github: signature mismatch', undefined]);
    const json = JSON.parse(requestJson(completed[1] as CapturedRequest)) as {
      verification: { ok: boolean; text: string };
      response: { status: number };
    };
    expect(json.verification).toMatchObject({ ok: false, text: '✗ github: signature mismatch' });
    expect(json.response.status).toBe(401);
  });
});

describe('replay', () => {
  it('re-signs a stale Stripe delivery with a fresh timestamp, which stripe.webhooks accepts at the target', async () => {
    const stripe = new Stripe('sk_test_not_used_for_network');
    const secret = 'whsec_replay';
    const verdicts: string[] = [];
    const app = await receiver((req, res, body) => {
      try {
        stripe.webhooks.constructEvent(body, String(req.headers['stripe-signature']), secret);
        verdicts.push('valid');
        res.end('ok');
      } catch (error) {
        verdicts.push((error as Error).message.slice(0, 40));
        res.writeHead(400).end('bad signature');
      }
    });
    const verify = {
      scheme: 'stripe',
      secret,
      toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
    } as const;
    const { port, capture, completed } = await start({
      routes: [{ path: '/hooks/stripe', method: null, response: null, verify }],
      replayTo: app.url,
    });
    const payload = '{"id":"evt_1","object":"event","amount":12.50}';
    const oneHourAgo = Math.floor(Date.now() / 1000) - 3600;
    const header = stripe.webhooks.generateTestHeaderString({
      payload,
      secret,
      timestamp: oneHourAgo,
    });
    await fetch(`http://127.0.0.1:${port}/hooks/stripe`, {
      method: 'POST',
      headers: { 'Stripe-Signature': header, 'Content-Type': 'application/json' },
      body: payload,
    });
    const original = capture.store.snapshot().records[0] as CapturedRequest;
    expect(original.verification?.reason).toMatch(/^timestamp outside tolerance \(360\d s\)$/);
    expect(capture.replayTarget(original)).toBe(app.url);

    const plain = await capture.replay(original, { resign: false });
    const resigned = await capture.replay(original);
    const edited = await capture.replay(resigned, {
      edits: { body: Buffer.from('{"id":"evt_1","object":"event","amount":99.00}') },
    });
    expect(verdicts).toEqual([expect.stringContaining('Timestamp outside'), 'valid', 'valid']);
    expect(app.received[2]?.body.toString()).toContain('99.00');
    for (const replayed of [plain, resigned, edited]) {
      expect(replayed.replayOf).toBe(original.seq);
      expect(replayed.url).toBe(`${app.url}/hooks/stripe`);
    }
    expect(resigned.forward).toMatchObject({ kind: 'response', status: 200 });
    expect(capture.store.snapshot().records.map((record) => record.replayOf)).toEqual([
      undefined,
      original.seq,
      original.seq,
      original.seq,
    ]);
    expect(completed).toHaveLength(4);
    expect(JSON.parse(requestJson(edited)).replayOf).toBe(original.seq);
  });

  it('rejects when there is nowhere to send it', async () => {
    const { port, capture } = await start();
    await fetch(`http://127.0.0.1:${port}/x`);
    const record = capture.store.snapshot().records[0] as CapturedRequest;
    expect(capture.replayTarget(record)).toBeNull();
    await expect(capture.replay(record)).rejects.toThrow(/no replay target/);
  });
});

describe('forwarding loops (one request forwarded to the tool itself became 32,410 records in 6 s)', () => {
  it.each(['127.0.0.1', 'localhost'])(
    'refuses to start when the forward target is its own address (%s)',
    async (host) => {
      const port = await deadPort();
      await expect(
        startCapture(captureConfig({ port, ...forwardTo(`http://${host}:${port}/hooks`) })),
      ).rejects.toThrow(/forward target http:\/\/\S+ is this tool's own address/);
      // And the port is free again.
      const again = await start({ port });
      expect(again.port).toBe(port);
    },
  );

  it('marks what it forwards and stops a loop through another hop at its second pass', async () => {
    const [portA, portB] = [await deadPort(), await deadPort()];
    const a = await start({ port: portA, ...forwardTo(`http://127.0.0.1:${portB}`) });
    const b = await start({ port: portB, ...forwardTo(`http://127.0.0.1:${portA}`) });
    await sendRaw(
      portA,
      'POST /loop HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\nConnection: close\r\n\r\nhi',
    );
    await waitFor(() => a.completed.length >= 2 && b.completed.length >= 1);
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(a.completed).toHaveLength(2);
    expect(b.completed).toHaveLength(1);
    const second = a.completed.find((record) => record.forward?.kind === 'failure');
    expect(second?.forward).toMatchObject({ kind: 'failure', failure: 'loop' });
    expect(headerValue(second?.headers ?? [], 'via')).toMatch(/webhook/);
  });
});
