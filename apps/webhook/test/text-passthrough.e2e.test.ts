// Outside the UI (--no-tui lines, stderr, --json) text is written as it is: only control, bidi
// and invisible characters become stand-ins. Clusters terminals measure differently (Hindi
// conjuncts, emoji with selectors, modifiers or joiners) are the UI's concern alone.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { RunningCli, waitFor } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-passthrough-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const WORDS = ['नमस्ते', 'हिन्दी', 'क्ष', '❤️', '👍🏽', '👨‍👩‍👧', '1️⃣'];

function start(args: string[]) {
  const cli = new RunningCli([...args, '--port', '0'], { cwd: dir });
  cleanups.push(() => cli.stop());
  return cli;
}

describe('text outside the UI', () => {
  it('--no-tui lines and stderr show Hindi and emoji unchanged', async () => {
    const name = `${WORDS.join('-')}.yaml`;
    writeFileSync(join(dir, name), 'response:\n  status: 200\n');
    const cli = start(['--no-tui', '-c', name]);
    const base = await cli.address();
    expect(cli.stderr).toContain(`(config: ${WORDS.join('-')}.yaml)`);
    for (const word of WORDS) {
      await fetch(`${base}/${encodeURIComponent(word)}/x`, { method: 'POST', body: '{}' });
    }
    await waitFor(
      () => cli.stdout.split('\n').length > WORDS.length,
      () => cli.stdout,
    );
    for (const word of WORDS) expect(cli.stdout).toContain(` POST /${word}/x 2`);
    expect(cli.stdout).not.toContain('<U+');
  });

  it('--json keeps Hindi and emoji in paths, headers and bodies', async () => {
    const cli = start(['--json']);
    const base = await cli.address();
    const text = WORDS.join(' ');
    await fetch(`${base}/${encodeURIComponent(text)}`, {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain; charset=utf-8' },
      body: text,
    });
    await waitFor(
      () => cli.stdout.includes('\n'),
      () => cli.stdout,
    );
    const record = JSON.parse(cli.stdout.split('\n')[0] ?? '');
    expect(record.path).toBe(`/${text}`);
    expect(JSON.stringify(record)).toContain(text);
    expect(cli.stdout).not.toContain('<U+');
  });
});
