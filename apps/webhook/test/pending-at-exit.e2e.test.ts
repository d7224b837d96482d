// A request whose forward is still under way when the tool stops is not lost: --save gets it
// marked pending, and a relayed one is delivered again by the relay after a restart (its cursor
// moves only past records that are complete).
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRelayChannel, RunningCli, startRelay, waitFor } from './helpers.js';
import { startReceiver } from './receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-pending-exit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** An app that takes requests and never answers them. */
async function hangingApp() {
  const app = await startReceiver(() => {});
  cleanups.push(() => app.close());
  return app;
}

const saved = (file: string) =>
  existsSync(file)
    ? readFileSync(file, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map(
          (line) =>
            JSON.parse(line) as { target: string; forward?: { pending?: boolean; url?: string } },
        )
    : [];

describe('stopping while a forward is under way', () => {
  it('a captured request goes to --save marked pending', async () => {
    const app = await hangingApp();
    const file = join(dir, 'local.jsonl');
    const cli = new RunningCli(
      ['--no-tui', '--port', '0', '--save', file, '--forward-to', app.url],
      { cwd: dir },
    );
    cleanups.push(() => cli.stop());
    const address = await cli.address();
    const answer = await fetch(`${address}/pending`, { method: 'POST', body: '{}' });
    expect(answer.status).toBe(200);
    await waitFor(() => app.received.length === 1);
    const stopped = await cli.stop();
    expect(stopped.signal ?? stopped.code).toBeTruthy();
    const records = saved(file);
    expect(records.map((record) => record.target)).toEqual(['/pending']);
    expect(records[0]?.forward?.pending).toBe(true);
  });

  it('with --respond-with-forward, a captured and a relayed request go to --save and --json marked pending', async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base);
    const env = { WEBHOOK_RELAY_TOKEN: channel.token, HOME: dir, XDG_STATE_HOME: join(dir, 'rwf') };
    const app = await hangingApp();
    const file = join(dir, 'respond-with-forward.jsonl');
    const cli = new RunningCli(
      [
        '--json',
        '--port',
        '0',
        '--save',
        file,
        '--relay',
        channel.sendUrl,
        '--forward-to',
        app.url,
        '--respond-with-forward',
      ],
      { cwd: dir, env },
    );
    cleanups.push(() => cli.stop());
    const address = await cli.address();
    await waitFor(
      () => /relay: connected/.test(cli.stderr),
      () => cli.stderr,
    );
    // Neither is answered: the app never answers, and the sender waits for its answer.
    const local = fetch(`${address}/local`, { method: 'POST', body: 'local' }).catch(() => null);
    const relayed = fetch(`${channel.sendUrl}/relayed`, { method: 'POST', body: 'relayed' }).catch(
      () => null,
    );
    await waitFor(
      () => app.received.length === 2,
      () => cli.stderr,
    );
    const stopped = await cli.stop();
    expect(stopped.code).toBe(143);
    await Promise.all([local, relayed]);
    const records = saved(file);
    expect(records.map((record) => record.target).sort()).toEqual(['/local', '/relayed']);
    expect(records.map((record) => record.forward?.pending)).toEqual([true, true]);
    const printed = stopped.stdout
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { target: string; forward?: { pending?: boolean } });
    expect(printed.map((record) => record.target).sort()).toEqual(['/local', '/relayed']);
    expect(printed.every((record) => record.forward?.pending === true)).toBe(true);
  });

  it('a relayed request goes to --save marked pending and the relay delivers it again after a restart', async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base);
    const state = join(dir, 'state');
    const env = { WEBHOOK_RELAY_TOKEN: channel.token, HOME: dir, XDG_STATE_HOME: state };
    const hanging = await hangingApp();
    const file = join(dir, 'relayed.jsonl');
    const first = new RunningCli(
      [
        '--json',
        '--port',
        '0',
        '--save',
        file,
        '--relay',
        channel.sendUrl,
        '--forward-to',
        hanging.url,
      ],
      { cwd: dir, env },
    );
    cleanups.push(() => first.stop());
    await first.address();
    await waitFor(
      () => /relay: connected/.test(first.stderr),
      () => first.stderr,
    );
    expect((await fetch(`${channel.sendUrl}/relayed`, { method: 'POST', body: '{}' })).status).toBe(
      200,
    );
    await waitFor(
      () => hanging.received.length === 1,
      () => first.stderr,
    );
    // Long enough for a cursor written on the answer (every 250 ms) to have reached its file.
    await new Promise((resolve) => setTimeout(resolve, 600));
    await first.stop();
    const records = saved(file);
    expect(records.map((record) => record.target)).toEqual(['/relayed']);
    expect(records[0]?.forward?.pending).toBe(true);

    const app = await startReceiver();
    cleanups.push(() => app.close());
    const second = new RunningCli(
      ['--json', '--port', '0', '--relay', channel.sendUrl, '--forward-to', app.url],
      { cwd: dir, env },
    );
    cleanups.push(() => second.stop());
    await second.address();
    await waitFor(
      () => app.received.length === 1,
      () => second.stderr,
    );
    expect(app.received[0]?.url).toBe('/relayed');
  });
});
