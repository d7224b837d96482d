// The relay under hostile senders and listeners: floods, huge and endless bodies, slow senders, a
// listener that never reads, hostile API input. The relay runs in this process so its buffers can
// be counted exactly (the store's own accounting) next to the process's memory.
import { connect } from 'node:net';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayChannel, RELAY_ADMIN_TOKEN, startRelay } from '../test/helpers.js';
import { exchange, MiB } from './support.js';

// What the process still holds, garbage collected first: without a collection the figure also
// counts the flood's spent request bodies, whenever V8 has not yet swept them, and the bound below
// is about what is kept, not about when the collector runs.
setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;
const heap = () => {
  collectGarbage();
  const usage = process.memoryUsage();
  return usage.heapUsed + usage.arrayBuffers;
};

describe('relay bounds', { timeout: 60_000 }, () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let channel: { id: string; sendUrl: string; token: string };

  beforeAll(async () => {
    relay = await startRelay(
      [
        '--buffer-events',
        '200',
        '--buffer-bytes',
        '12MiB',
        '--max-buffered',
        '24MiB',
        '--max-body',
        '1MiB',
        '--channel-rate',
        '100000',
        '--address-rate',
        '100000',
        '--max-channels',
        '5',
        '--max-listeners',
        '3',
      ],
      {
        headersTimeoutMs: 1_000,
        requestTimeoutMs: 2_000,
        slowListenerMs: 1_000,
        listenerBufferBytes: 256 * 1024,
      },
    );
    channel = await createRelayChannel(relay.base);
  });
  afterAll(async () => {
    await relay?.app.close();
  });

  it('a flood of 1000 requests keeps every buffer within --buffer-events and --buffer-bytes', async () => {
    // Default timeouts here: a loaded machine must not turn the flood into 408s.
    const flooded = await startRelay([
      '--buffer-events',
      '200',
      '--buffer-bytes',
      '12MiB',
      '--channel-rate',
      '100000',
      '--address-rate',
      '100000',
    ]);
    const target = await createRelayChannel(flooded.base);
    const before = heap();
    const body = Buffer.alloc(8 * 1024, 'a');
    const statuses = new Map<number, number>();
    for (let round = 0; round < 20; round += 1) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(`${target.sendUrl}/flood`, { method: 'POST', body }).then(async (response) => {
            await response.arrayBuffer();
            return response.status;
          }),
        ),
      );
      for (const status of answers) statuses.set(status, (statuses.get(status) ?? 0) + 1);
    }
    expect([...statuses.keys()]).toEqual([200]);
    const held = await flooded.store.readAfter(target.id, null, 10_000, Date.now());
    expect(held.events.length).toBe(200);
    expect(flooded.store.totalBytes).toBeLessThanOrEqual(12 * MiB);
    // Everything else was let go: the process holds the buffer and little more.
    const grown = heap() - before;
    console.info(
      `relay flood: 1000 × 8 KiB, buffer ${held.events.length} events / ${(flooded.store.totalBytes / MiB).toFixed(1)} MiB, heap + buffers grew ${(grown / MiB).toFixed(1)} MiB`,
    );
    expect(grown).toBeLessThan(48 * MiB);
    await flooded.app.close();
  });

  it('rate limits answer 429 with Retry-After, per channel and per address', async () => {
    const limited = await startRelay(['--channel-rate', '5', '--address-rate', '1000']);
    try {
      const target = await createRelayChannel(limited.base);
      const statuses: number[] = [];
      const started = Date.now();
      for (let i = 0; i < 40; i += 1) {
        const response = await fetch(`${target.sendUrl}/x`, { method: 'POST', body: 'x' });
        statuses.push(response.status);
        if (response.status === 429)
          expect(Number(response.headers.get('retry-after'))).toBeGreaterThan(0);
        await response.arrayBuffer();
      }
      // A burst of 4 x 5, then 5 a second.
      const allowed = 20 + Math.ceil(((Date.now() - started) / 1000) * 5) + 1;
      expect(statuses.filter((status) => status === 200).length).toBeLessThanOrEqual(allowed);
      expect(statuses).toContain(429);
      const perAddress = await startRelay(['--channel-rate', '1000', '--address-rate', '2']);
      try {
        const other = await createRelayChannel(perAddress.base);
        const codes = await Promise.all(
          Array.from({ length: 20 }, () =>
            fetch(`${other.sendUrl}/`, { method: 'POST' }).then((r) => r.status),
          ),
        );
        expect(codes.filter((status) => status === 429).length).toBeGreaterThanOrEqual(10);
      } finally {
        await perAddress.app.close();
      }
    } finally {
      await limited.app.close();
    }
  });

  it('huge bodies: a declared one gets 413 at once, an endless chunked one 413 without being held', async () => {
    const before = heap();
    const declared = await exchange(relay.port, [
      Buffer.from(
        `POST /c/${channel.id}/big HTTP/1.1\r\nHost: x\r\nContent-Length: ${100 * MiB}\r\n\r\n`,
      ),
    ]);
    expect(declared.status).toBe(413);
    const chunk = Buffer.alloc(256 * 1024, 'b');
    const parts = [
      Buffer.from(
        `POST /c/${channel.id}/chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n`,
      ),
    ];
    for (let i = 0; i < 40; i += 1)
      parts.push(
        Buffer.concat([
          Buffer.from(`${chunk.length.toString(16)}\r\n`),
          chunk,
          Buffer.from('\r\n'),
        ]),
      );
    const endless = await exchange(relay.port, parts);
    expect(endless.status).toBe(413);
    const grown = heap() - before;
    console.info(
      `relay huge bodies: 100 MiB declared and 10 MiB chunked refused 413; heap grew ${(grown / MiB).toFixed(1)} MiB`,
    );
    expect(grown).toBeLessThan(32 * MiB);
    const held = await relay.store.readAfter(channel.id, null, 10_000, Date.now());
    expect(held.events.some((event) => event.data.includes('"target":"/chunked"'))).toBe(false);
  });

  it('slow senders: headers or a body trickled past the timeouts get 408 and the connection closes', async () => {
    const started = Date.now();
    const slowHeaders = await exchange(
      relay.port,
      Array.from({ length: 40 }, (_, i) =>
        Buffer.from(i === 0 ? `POST /c/${channel.id}/ HTTP/1.1\r\n` : `X-Slow-${i}: y\r\n`),
      ),
      { gapMs: 100 },
    );
    expect([408, null]).toContain(slowHeaders.status);
    const slowBody = await exchange(
      relay.port,
      [
        Buffer.from(
          `POST /c/${channel.id}/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n`,
        ),
        ...Array.from({ length: 60 }, () => Buffer.from('z')),
      ],
      { gapMs: 100 },
    );
    expect([408, null]).toContain(slowBody.status);
    expect(Date.now() - started).toBeLessThan(15_000);
  });

  it('a listener that never reads is dropped; its events stay buffered for its return', async () => {
    const quiet = await createRelayChannel(relay.base);
    const socket = connect(relay.port, '127.0.0.1');
    socket.on('error', () => {});
    await new Promise<void>((resolve) => socket.on('connect', () => resolve()));
    socket.write(
      `GET /api/channels/${quiet.id}/events HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${quiet.token}\r\nLast-Event-ID: 0\r\n\r\n`,
    );
    socket.pause();
    await expect.poll(() => relay.store.countListeners(quiet.id)).toBe(1);
    const before = heap();
    const body = Buffer.alloc(512 * 1024, 'q');
    // 14 events of 512 KiB (base64: 9.6 MB) are more than the socket buffers take, within the
    // channel's 12 MiB.
    for (let i = 0; i < 14; i += 1) {
      const response = await fetch(`${quiet.sendUrl}/n/${i}`, { method: 'POST', body });
      expect(response.status).toBe(200);
    }
    const sent = Date.now();
    await expect.poll(() => relay.store.countListeners(quiet.id), { timeout: 10_000 }).toBe(0);
    const grown = heap() - before;
    console.info(
      `relay never-reading listener: dropped ${Date.now() - sent} ms after the last of 14 × 512 KiB; heap grew ${(grown / MiB).toFixed(1)} MiB (buffer ${(relay.store.totalBytes / MiB).toFixed(1)} MiB)`,
    );
    expect(grown).toBeLessThan(40 * MiB);
    const held = await relay.store.readAfter(quiet.id, null, 100, Date.now());
    expect(held.events.length).toBe(14);
    socket.destroy();
  });

  it('hostile API input gets a clear 4xx in the relay’s error shape, never a 500', async () => {
    const auth = { Authorization: `Bearer ${channel.token}` };
    const events = `${relay.base}/api/channels/${channel.id}/events`;
    const badCursor = await fetch(events, { headers: { ...auth, 'Last-Event-ID': '1;DROP' } });
    expect(badCursor.status).toBe(400);
    expect(await badCursor.json()).toMatchObject({ error: 'invalid_request' });
    const answer = `${relay.base}/api/channels/${channel.id}/events/1/answer`;
    for (const body of [
      'not json',
      '{"status":"200","headers":[],"body":""}',
      '{"status":200,"headers":[["a"]],"body":""}',
      '[]',
    ]) {
      const response = await fetch(answer, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/json' },
        body,
      });
      expect(response.status).toBe(400);
    }
    const admin = {
      Authorization: `Bearer ${RELAY_ADMIN_TOKEN}`,
      'Content-Type': 'application/json',
    };
    for (const body of [
      '{"response":{"status":99}}',
      '{"waitForLocal":"yes"}',
      '{"extra":1}',
      '{"response":{"headers":[["X","a\\r\\nSet-Cookie: x"]]}}',
    ]) {
      const response = await fetch(`${relay.base}/api/channels`, {
        method: 'POST',
        headers: admin,
        body,
      });
      // A header value with a line break is dropped from the channel's response, not refused.
      expect([400, 201, 507]).toContain(response.status);
      if (response.status === 201) {
        const made = (await response.json()) as { sendUrl: string };
        const sent = await fetch(`${made.sendUrl}/`, { method: 'POST' });
        expect(sent.headers.get('set-cookie')).toBeNull();
      }
    }
    // Raw, so no client normalises `..` away first.
    for (const path of [
      '/c/short',
      `/c/${channel.id.slice(0, 21)}!`,
      '/c/',
      '/c/../api/channels',
      '/c/%00',
    ]) {
      const sent = await exchange(relay.port, [
        Buffer.from(`POST ${path} HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n\r\n`),
      ]);
      expect(sent.status).toBe(404);
    }
    const wrongAdmin = await fetch(`${relay.base}/api/channels`, {
      method: 'POST',
      headers: { ...admin, Authorization: 'Bearer x' },
      body: '{}',
    });
    expect(wrongAdmin.status).toBe(401);
  });

  it('--max-channels and --max-listeners are enforced', async () => {
    let status = 201;
    for (let i = 0; i < 10 && status === 201; i += 1) {
      status = (
        await fetch(`${relay.base}/api/channels`, {
          method: 'POST',
          headers: { Authorization: `Bearer ${RELAY_ADMIN_TOKEN}` },
        })
      ).status;
    }
    expect(status).toBe(507);
    const open: AbortController[] = [];
    const statuses: number[] = [];
    for (let i = 0; i < 4; i += 1) {
      const abort = new AbortController();
      open.push(abort);
      const response = await fetch(`${relay.base}/api/channels/${channel.id}/events`, {
        headers: { Authorization: `Bearer ${channel.token}` },
        signal: abort.signal,
      });
      statuses.push(response.status);
    }
    expect(statuses).toEqual([200, 200, 200, 429]);
    for (const abort of open) abort.abort();
  });
});
