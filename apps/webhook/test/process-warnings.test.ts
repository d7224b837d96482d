// Holding Node's process warnings while the UI is up, in a real Node process: once released, the
// held ones go through Node's own printer (its flags apply, its format is kept) and later ones
// print as they are raised, as if nothing had been held.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { MAX_HELD_WARNINGS } from '../src/process-warnings.js';
import { childEnv } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-warnings-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const MODULE = fileURLToPath(new URL('../src/process-warnings.ts', import.meta.url));

/** Runs `body` (with `hold` imported and `tick` to let emitted warnings through) under `flags`. */
function run(body: string, flags: string[] = []) {
  const script = join(dir, `script-${Math.random().toString(36).slice(2)}.mts`);
  writeFileSync(
    script,
    `import { holdProcessWarnings as hold } from ${JSON.stringify(MODULE)};
const tick = () => new Promise((resolve) => setImmediate(resolve));
const mark = (text: string) => process.stderr.write(\`--\${text}--\\n\`);
${body}
`,
  );
  const child = spawnSync(process.execPath, [...flags, '--import', 'tsx', script], {
    env: childEnv(),
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { stderr: child.stderr, code: child.status };
}

describe('holding process warnings', { timeout: 30_000 }, () => {
  it('nothing is printed while held; released, Node prints them as its flags say; later ones print at once', () => {
    const { stderr, code } = run(
      `const release = hold();
process.emitWarning('held and switched off', 'ExperimentalWarning');
process.emitWarning('held with its code', 'DeprecationWarning', 'DEP0998');
await tick();
mark('released');
const beyond = release();
mark(\`beyond: \${beyond.length}\`);
process.emitWarning('raised after', 'DeprecationWarning', 'DEP0997');
await tick();
mark('end');`,
      ['--disable-warning=ExperimentalWarning'],
    );
    expect(code).toBe(0);
    const [whileHeld, released, after] = stderr.split(/--released--\n|--beyond: 0--\n/);
    expect(whileHeld).toBe('');
    expect(released).toMatch(/^\(node:\d+\) \[DEP0998\] DeprecationWarning: held with its code\n/);
    expect(after).toMatch(/^\(node:\d+\) \[DEP0997\] DeprecationWarning: raised after\n/);
    expect(after).toMatch(/--end--\n$/);
    expect(stderr).not.toContain('held and switched off');
  });

  it(`beyond ${MAX_HELD_WARNINGS} held, the rest are counted; released twice, nothing more`, () => {
    const { stderr, code } = run(
      `const release = hold();
for (let i = 0; i < ${MAX_HELD_WARNINGS + 3}; i += 1) process.emitWarning(\`number \${i}\`);
await tick();
mark(release().join('|'));
mark(\`again: \${release().length}\`);`,
    );
    expect(code).toBe(0);
    expect(stderr.match(/Warning: number \d+\n/g)).toHaveLength(MAX_HELD_WARNINGS);
    expect(stderr).toContain(`Warning: number ${MAX_HELD_WARNINGS - 1}\n`);
    expect(stderr).toContain('--3 more warnings--');
    expect(stderr).toContain('--again: 0--');
  });
});
