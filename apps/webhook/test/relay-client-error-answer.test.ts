import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { RelayClient, type RelayState } from '../src/relay/client.js';
import { parseSendUrl } from '../src/relay/protocol.js';

/**
 * The client trusts the relay no more than a sender: a refusal whose body never ends (a hostile
 * relay, or a proxy or a man in the middle of an `http://` send URL) is read as far as its
 * message needs, and the connection is dropped, instead of being held in memory as it comes.
 */
describe('a relay answering an error without end', () => {
  let server: Server | undefined;
  afterEach(
    () => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())),
  );

  it('is read as far as its message needs, then dropped', async () => {
    const chunk = Buffer.alloc(64 * 1024, 'x');
    const budget = 64 * 1024 * 1024;
    let written = 0;
    let closedEarly = false;
    server = createServer((_request, response) => {
      response.writeHead(401, { 'content-type': 'text/plain' });
      response.write('the admin token is missing or wrong ');
      const pump = () => {
        while (written < budget) {
          written += chunk.length;
          if (!response.write(chunk)) {
            response.once('drain', pump);
            return;
          }
        }
        response.end();
      };
      response.on('close', () => {
        if (written < budget) closedEarly = true;
      });
      pump();
    });
    await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const sendUrl = parseSendUrl(`http://127.0.0.1:${port}/c/AAAAAAAAAAAAAAAAAAAAAA`);
    if (!sendUrl) throw new Error('the send URL does not parse');
    const states: RelayState[] = [];
    const refused = new Promise<RelayState>((resolve) => {
      const client = new RelayClient({
        sendUrl,
        token: 'test-token-not-secret',
        deliver: () => Promise.reject(new Error('no request is relayed here')),
        onState: (state) => {
          states.push(state);
          if (state.kind === 'refused') resolve(state);
        },
        // Longer than the test: the answer must end the attempt, not the idle timer.
        idleTimeoutMs: 120_000,
      });
      client.start();
    });
    const state = await refused;
    expect(state).toEqual({
      kind: 'refused',
      reason: expect.stringMatching(/^401 the admin token is missing or wrong x+$/),
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(closedEarly).toBe(true);
    expect(written).toBeLessThan(budget / 4);
  });
});
