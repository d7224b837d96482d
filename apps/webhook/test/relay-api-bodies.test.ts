import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BODY_LIMIT } from '../src/relay/server.js';
import { createRelayChannel, RELAY_ADMIN_TOKEN, startRelay } from './helpers.js';

/**
 * The relay's API keeps no large body it has not asked for: past 64 KiB a request to a path no
 * route has, or to a route but a channel's creation and a listener's answer, is refused (413)
 * before its body is held, so strangers cannot hold megabytes per connection outside the
 * senders' budget. Those two, whose callers are authenticated before the body is read, still
 * take large bodies.
 */
describe('relay API bodies', () => {
  let relay: Awaited<ReturnType<typeof startRelay>>;
  beforeAll(async () => {
    relay = await startRelay();
  });
  afterAll(() => relay?.app.close());

  const large = 'x'.repeat(API_BODY_LIMIT + 1);

  it('refuses a large body to a path no route has, and to the API, with 413', async () => {
    for (const [path, type, headers] of [
      ['/anything', 'text/plain', {}],
      ['/anything', 'application/json', {}],
      ['/health', 'application/json', {}],
      // Refused for its token before its body is read.
      ['/api/channels', 'application/json', { Authorization: 'Bearer not-the-admin-token' }],
    ] as const) {
      const response = await fetch(`${relay.base}${path}`, {
        method: 'POST',
        headers: { 'Content-Type': type, ...headers },
        body: type === 'application/json' ? JSON.stringify({ large }) : large,
      });
      expect(response.status, path).toBe(path === '/api/channels' ? 401 : 413);
    }
  });

  it("takes a listener's answer carrying a body of a MiB, and the admin's channel with large headers", async () => {
    const created = await fetch(`${relay.base}/api/channels`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${RELAY_ADMIN_TOKEN}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        response: { headers: [['X-Large', 'v'.repeat(65_536)]], body: 'b'.repeat(65_536) },
      }),
    });
    expect(created.status).toBe(201);
    const channel = await createRelayChannel(relay.base, { waitForLocal: true });
    const response = await fetch(`${relay.base}/api/channels/${channel.id}/events/1/answer`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${channel.token}`, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        status: 200,
        headers: [],
        body: Buffer.alloc(1024 * 1024, 'a').toString('base64'),
      }),
    });
    expect(response.status).toBe(202);
  });
});
