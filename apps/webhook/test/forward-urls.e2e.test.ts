// Forward and replay base URLs are checked alike wherever they are given: flags, the config file
// and the UI's replay prompt.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { replayUrl } from '../src/ui/reducer.js';
import { runCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-forward-urls-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CREDENTIALS = 'must not hold credentials (user:password@): they would not be sent';

describe('credentials in a forward or replay URL (they were accepted, then dropped)', () => {
  it('--forward-to, --replay-to and replay --to refuse them with exit 2', async () => {
    const file = join(dir, 'records.jsonl');
    writeFileSync(file, '');
    const runs = await Promise.all([
      runCli(['--no-tui', '--port', '0', '--forward-to', 'http://user:pw@127.0.0.1:9/a'], {
        cwd: dir,
      }),
      runCli(['--no-tui', '--port', '0', '--replay-to', 'http://user@127.0.0.1:9/a'], { cwd: dir }),
      runCli(['replay', '--from', file, '--all', '--to', 'http://user:pw@127.0.0.1:9/'], {
        cwd: dir,
      }),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2]);
    expect(runs[0]?.stderr).toContain(`--forward-to ${CREDENTIALS}`);
    expect(runs[1]?.stderr).toContain(`--replay-to ${CREDENTIALS}`);
    expect(runs[2]?.stderr).toContain(`--to ${CREDENTIALS}`);
    for (const run of runs) expect(run.stderr).not.toContain('listening on');
  });

  it('the config file refuses them in forward: and a route’s forward:', async () => {
    const file = join(dir, 'creds.yaml');
    writeFileSync(file, 'routes:\n  - path: /a\n    forward: http://user:pw@127.0.0.1:9/a\n');
    const run = await runCli(['-c', file, '--no-tui', '--port', '0'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`routes[0].forward: ${CREDENTIALS}`);
  });

  it('the replay prompt refuses them', () => {
    expect(replayUrl('http://user:pw@127.0.0.1:4162/base')).toEqual({
      error: `Replay URL ${CREDENTIALS}`,
    });
    expect(replayUrl('http://127.0.0.1:4162/base')).toBe('http://127.0.0.1:4162/base');
  });
});
