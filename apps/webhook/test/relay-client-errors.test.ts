// The relay's answer to a sender whose connection carries bytes that are not HTTP: run in this
// process, so what the relay kept can be read from its store beside what the sender was told.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createRelayChannel, sendRaw, startRelay } from './helpers.js';

describe('relay: bytes that are not HTTP after a whole request', () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  let channel: { id: string; sendUrl: string };

  beforeAll(async () => {
    relay = await startRelay();
    channel = await createRelayChannel(relay.base);
  });
  afterAll(async () => {
    await relay?.app.close();
  });

  const relayed = async () =>
    (await relay.store.readAfter(channel.id, null, 100, Date.now())).events.map(
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
        relay.port,
        `POST ${path}/${name} HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n{}${after}`,
      );
      expect(response).toMatch(/^HTTP\/1\.1 200 /);
      expect(response).not.toMatch(/ 400 /);
    }
    expect(await relayed()).toEqual(['/whole', '/plain']);
    // A request that is not whole when the garbage comes (a broken chunk) is refused at once and
    // not relayed; the relay goes on answering.
    const broken = await sendRaw(
      relay.port,
      `POST ${path}/broken HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n`,
    );
    expect(broken).toMatch(/^HTTP\/1\.1 400/);
    expect(await relayed()).toEqual(['/whole', '/plain']);
    const after = await fetch(`${relay.base}${path}/after`, { method: 'POST' });
    expect(after.status).toBe(200);
    expect(await relayed()).toEqual(['/whole', '/plain', '/after']);
  });
});
