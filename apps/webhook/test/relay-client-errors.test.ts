// The relay's answer to a sender whose connection carries bytes that are not HTTP: run in this
// process, so what the relay kept can be read from its store beside what the sender was told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseRelayCommand } from '../src/relay/config.js';
import { buildRelay } from '../src/relay/server.js';
import { MemoryRelayStore } from '../src/relay/store.js';
import { sendRaw } from './helpers.js';

const ADMIN = 'relay-admin-token-for-client-errors-0123';

describe('relay: bytes that are not HTTP after a whole request', () => {
  let app: Awaited<ReturnType<typeof buildRelay>>;
  let store: MemoryRelayStore;
  let port: number;
  let channel: { id: string; sendUrl: string };

  beforeAll(async () => {
    const command = parseRelayCommand(['serve', '--host', '127.0.0.1', '--port', '0'], {
      variables: { WEBHOOK_RELAY_ADMIN_TOKEN: ADMIN },
    });
    if (command.kind !== 'relay-serve') throw new Error('not serve');
    const { config } = command;
    store = new MemoryRelayStore(config.limits.buffer, config.limits.maxBufferedBytes);
    app = await buildRelay(config, { store });
    await app.listen({ host: '127.0.0.1', port: 0 });
    const address = app.server.address();
    port = typeof address === 'object' && address ? address.port : 0;
    const created = await fetch(`http://127.0.0.1:${port}/api/channels`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${ADMIN}`, 'Content-Type': 'application/json' },
      body: '{}',
    });
    expect(created.status).toBe(201);
    channel = (await created.json()) as { id: string; sendUrl: string };
  });
  afterAll(async () => {
    await app?.close();
  });

  const relayed = async () =>
    (await store.readAfter(channel.id, null, 100, Date.now())).events.map(
      (event) => (JSON.parse(event.data) as { target: string }).target,
    );

  it('relays the whole request and tells its sender so, then closes without a 400', async () => {
    const path = new URL(channel.sendUrl).pathname;
    // An empty line ended the first request's headers early, so what was meant as its next
    // header, and everything after, is garbage on the same connection.
    for (const [name, after] of [
      ['whole', ': \r\nContent-Length: 3\r\n\r\nabc'],
      ['plain', 'THIS IS NOT HTTP\r\n\r\n'],
    ]) {
      const response = await sendRaw(
        port,
        `POST ${path}/${name} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}${after}`,
      );
      expect(response).toMatch(/^HTTP\/1\.1 200 /);
      expect(response).not.toMatch(/ 400 /);
    }
    expect(await relayed()).toEqual(['/whole', '/plain']);
    // A request that is not whole when the garbage comes (a broken chunk) is refused at once and
    // not relayed; the relay goes on answering.
    const broken = await sendRaw(
      port,
      `POST ${path}/broken HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    );
    expect(broken).toMatch(/^HTTP\/1\.1 400/);
    expect(await relayed()).toEqual(['/whole', '/plain']);
    const after = await fetch(`http://127.0.0.1:${port}${path}/after`, { method: 'POST' });
    expect(after.status).toBe(200);
    expect(await relayed()).toEqual(['/whole', '/plain', '/after']);
  });
});
