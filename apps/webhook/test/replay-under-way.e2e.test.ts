// A replay from the UI shows at once as a row under way (`→ …`), updated when the target answers,
// and one still under way when the tool stops goes to --save marked pending, as forwards do.
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { CLI, waitFor } from './helpers.js';
import { startInTerminal } from './pty.js';
import { startReceiver } from './receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-replay-under-way-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a replay under way', { timeout: 60_000 }, () => {
  it('has its row at once (→ …), and goes to --save pending when the tool stops before the answer', async () => {
    // Takes requests and never answers them.
    const target = await startReceiver(() => {});
    onTestFinished(() => target.close());
    const file = join(dir, 'session.jsonl');
    const cli = startInTerminal(
      [CLI, '--port', '0', '--replay-to', target.url, '--forward-timeout', '30', '--save', file],
      { cols: 120, rows: 30, cwd: dir },
    );
    onTestFinished(() => {
      try {
        cli.terminal.kill('SIGKILL');
      } catch {}
    });
    const address = await cli.address();
    expect((await fetch(`${address}/hooks/a`, { method: 'POST', body: '{"a":1}' })).status).toBe(
      200,
    );
    await waitFor(
      () => cli.screen().includes('1 kept / 1 seen'),
      () => cli.screen().slice(-3000),
    );
    const mark = cli.output().length;
    cli.terminal.write('r');
    await waitFor(() => target.received.length === 1);
    // Long before the 30 s timeout: the replay's row, under way.
    await waitFor(
      () => cli.screenSince(mark).includes('2 kept / 2 seen'),
      () => cli.screenSince(mark).slice(-3000),
      5_000,
    );
    expect(cli.screenSince(mark)).toMatch(/POST \/hooks\/a +→ …/);
    cli.terminal.write('q');
    await cli.exited;
    const records = existsSync(file)
      ? readFileSync(file, 'utf8')
          .split('\n')
          .filter(Boolean)
          .map(
            (line) =>
              JSON.parse(line) as {
                target: string;
                replayOf?: number;
                forward?: { pending?: boolean };
              },
          )
      : [];
    const replayed = records.find((record) => record.replayOf === 1);
    expect(replayed?.target).toBe('/hooks/a');
    expect(replayed?.forward?.pending).toBe(true);
  });
});
