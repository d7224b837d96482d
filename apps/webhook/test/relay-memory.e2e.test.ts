// A relay without REDIS_URL keeps its channels in memory: it says so when it starts, and a client
// whose channel went with a restart is told what happened and what to do.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RELAY_ADMIN_TOKEN, RunningCli, startRelay, waitFor } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-relay-memory-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('relay on the in-memory store', { timeout: 60_000 }, () => {
  it('relay serve warns at start that a restart loses channels, tokens and buffers', async () => {
    const relay = new RunningCli(['relay', 'serve', '--host', '127.0.0.1', '--port', '0'], {
      cwd: dir,
      env: { WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN, REDIS_URL: '' },
    });
    try {
      await waitFor(
        () => /listening on/.test(relay.stderr),
        () => relay.stderr,
      );
      expect(relay.stderr).toContain(
        'webhook relay: warning: in-memory store: a restart loses every channel, token and buffered event (set REDIS_URL to keep them)',
      );
      await waitFor(
        () => /in-memory store/.test(relay.stdout),
        () => relay.stdout,
      );
      const line = relay.stdout.split('\n').find((text) => text.includes('in-memory store'));
      expect(JSON.parse(line ?? '{}')).toMatchObject({ level: 40, store: 'memory' });
    } finally {
      await relay.stop();
    }
  });

  it('a client whose channel is gone says it no longer exists on the relay, and what to do', async () => {
    const relay = await startRelay();
    const cli = new RunningCli(
      ['--no-tui', '--port', '0', '--relay', `${relay.base}/c/AAAAAAAAAAAAAAAAAAAAAA`],
      { cwd: dir, env: { WEBHOOK_RELAY_TOKEN: 'whr_gone', HOME: dir, XDG_STATE_HOME: dir } },
    );
    try {
      await waitFor(
        () => /relay: refused/.test(cli.stderr),
        () => cli.stderr,
      );
      expect(cli.stderr).toContain(
        'relay: refused (404: this channel no longer exists on the relay; it may have restarted without REDIS_URL, which loses every channel: ask its operator for a new one, webhook relay create, and use its send URL and token)',
      );
    } finally {
      await cli.stop();
      await relay.app.close();
    }
  });
});
