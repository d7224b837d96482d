// A --save file that cannot be opened is a bad flag: exit 2 before any port is opened.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-save-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('--save', () => {
  it('a file that cannot be opened is exit 2, before listening', async () => {
    const file = join(dir, 'missing', 'session.jsonl');
    const run = await runCli(['--no-tui', '--port', '0', '--save', file], { cwd: dir });
    expect(run.stderr).toContain(`--save ${file}: cannot open (ENOENT)`);
    expect(run.stderr).not.toContain('listening on');
    expect(run.code).toBe(2);
    const replay = await runCli(
      [
        'replay',
        '--from',
        join(dir, 'none.jsonl'),
        '--all',
        '--to',
        'http://127.0.0.1:9',
        '--save',
        file,
      ],
      { cwd: dir },
    );
    expect(replay.stderr).toContain(`--save ${file}: cannot open (ENOENT)`);
    expect(replay.code).toBe(2);
  });
});
