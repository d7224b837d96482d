import { spawn } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { platform } from 'node:os';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { startScriptArguments } from '../bench/processes.js';

/**
 * The Node flags `npm start` runs the service with (the root's start script). V8 compiles
 * PGlite's WebAssembly, optimises JavaScript and helps the garbage collector on a pool of worker
 * threads (4 by default). Each worker that compiles gets a malloc arena of its own, and the
 * compilers' freed memory stays in those arenas: 30–50 MB of an idle service's resident set. One
 * worker keeps that memory in one arena (README "One V8 worker thread").
 */
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** The Node flags of the start script, as the benchmark reads them to start the service. */
const startScriptNodeFlags = () => startScriptArguments(ROOT).filter((arg) => arg.startsWith('--'));

/** The threads of a Node process started with `flags` once it has run its first timer. */
async function threadsOfNodeWith(flags: readonly string[]): Promise<number> {
  const child = spawn(
    process.execPath,
    [
      ...flags,
      '-e',
      'setTimeout(() => process.stdout.write("ready"), 50); setTimeout(() => {}, 10_000)',
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  try {
    await new Promise<void>((resolve, reject) => {
      child.once('error', reject);
      child.stdout.once('data', () => resolve());
    });
    return readdirSync(`/proc/${child.pid}/task`).length;
  } finally {
    child.kill();
  }
}

describe('the start script', () => {
  it('keeps the heap settings that make a small service small', () => {
    expect(startScriptNodeFlags()).toEqual(
      expect.arrayContaining([
        '--max-semi-space-size=4',
        '--wasm-lazy-compilation',
        '--v8-pool-size=1',
      ]),
    );
  });

  it.runIf(platform() === 'linux')(
    'runs V8 on one worker thread instead of its default four',
    async () => {
      const byDefault = await threadsOfNodeWith([]);
      const withStartFlags = await threadsOfNodeWith(startScriptNodeFlags());
      expect(withStartFlags).toBeLessThanOrEqual(byDefault - 3);
    },
  );
});
