// The relay's refusal is too long for any status bar: once the UI has gone, it is printed whole
// on the normal screen, so the user can read what to do.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, waitFor } from './helpers.js';
import { LEAVE_ALT_SCREEN, screenText, startInTerminal } from './pty.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a relay that refuses the channel, in the UI', () => {
  it('its whole refusal is printed after q', async () => {
    const server = createServer((_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"error":"not_found","message":"no such channel"}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    cleanups.push(() => new Promise((resolve) => server.close(resolve)));
    const port = (server.address() as AddressInfo).port;
    const cli = startInTerminal(
      [CLI, '--port', '0', '--relay', `http://127.0.0.1:${port}/c/AAAAAAAAAAAAAAAAAAAAAA`],
      { cols: 120, rows: 20, env: { WEBHOOK_RELAY_TOKEN: 'whr_test' } },
    );
    cleanups.push(() => cli.terminal.kill());
    await cli.address();
    await waitFor(() => /relay: refused/.test(cli.screen()), cli.screen, 20_000);
    cli.terminal.write('q');
    await cli.exited;
    const after = screenText(cli.output().slice(cli.output().lastIndexOf(LEAVE_ALT_SCREEN)));
    expect(after.replace(/\s+/g, ' ')).toContain(
      'webhook: relay: refused (404: this channel no longer exists on the relay; it may have restarted without REDIS_URL, which loses every channel: ask its operator for a new one, webhook relay create, and use its send URL and token)',
    );
  });
});
