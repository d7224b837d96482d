// wait-for-local: when the relay refuses the local answer (larger than it takes), the sender gets
// a short 502 saying so at once instead of a 504 after the whole wait, and the user is told.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRelayChannel, RunningCli, startRelay, waitFor } from './helpers.js';
import { startReceiver } from './receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-relay-answer-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a local answer the relay refuses', () => {
  it('gives the held sender a 502 with the reason at once, and says so locally', async () => {
    const relay = await startRelay(['--max-body', '1MiB']);
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base, { waitForLocal: true });
    const app = await startReceiver((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.end(Buffer.alloc(2 * 1024 * 1024, 'a'));
    });
    cleanups.push(() => app.close());
    const cli = new RunningCli(
      [
        '--json',
        '--port',
        '0',
        '--relay',
        channel.sendUrl,
        '--forward-to',
        app.url,
        '--respond-with-forward',
      ],
      { cwd: dir, env: { WEBHOOK_RELAY_TOKEN: channel.token, HOME: dir, XDG_STATE_HOME: dir } },
    );
    cleanups.push(() => cli.stop());
    await cli.address();
    await waitFor(
      () => /relay: connected/.test(cli.stderr),
      () => cli.stderr,
    );
    const started = Date.now();
    const answer = await fetch(`${channel.sendUrl}/big-answer`, { method: 'POST', body: '{}' });
    const text = await answer.text();
    expect(answer.status).toBe(502);
    expect(text).toMatch(/^refused by the relay: .*\n$/);
    expect(Date.now() - started).toBeLessThan(5000);
    await waitFor(
      () => /answer .*refused by the relay/.test(cli.stderr),
      () => cli.stderr,
    );
  });
});
