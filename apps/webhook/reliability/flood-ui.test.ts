// A flood of requests while the real UI runs in a pseudo-terminal: nothing lost below the retention
// limit (the status bar's count against what the client completed), keys still answered within
// 200 ms (measured from the key's write to the frame that shows its effect), and the terminal
// restored when the tool is stopped in the middle of the flood, by every way out.
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { CLI, waitFor } from '../test/helpers.js';
import { expectRestored, startInTerminal, statusCounts, type TerminalCli } from '../test/pty.js';
import { flood, scaled } from './support.js';

const FLOOD = scaled(10_000, 50_000);
const KEY_BUDGET_MS = 200;
/** Key presses measured under load at the least, however fast the machine gets through the flood. */
const MIN_PRESSES = 8;
/** The most the top-up load may add (at 12,000 requests/s, 8 presses take about 24,000). */
const TOP_UP = 4 * FLOOD;
/** 24 numbered rows: collapsed, the detail shows 20 and a hint; expanded, `row 21` too. */
const BODY = Buffer.from(
  Array.from({ length: 24 }, (_, i) => `row ${String(i + 1).padStart(2, '0')}`).join('\n'),
);

let running: TerminalCli | undefined;
afterEach(() => {
  running?.terminal.kill('SIGKILL');
  running = undefined;
});

function start(args: string[] = []) {
  running = startInTerminal([CLI, '--port', '0', ...args], { cols: 120, rows: 40 });
  return running;
}

/**
 * Resolves with the ms from now until `condition` holds on the output drawn after `mark`, timed on
 * the pseudo-terminal's data events (no polling error).
 */
function timeUntil(cli: TerminalCli, mark: number, condition: (drawn: string) => boolean) {
  const started = performance.now();
  return new Promise<number>((resolve, reject) => {
    const timeout = setTimeout(() => {
      listener.dispose();
      reject(new Error(`no such frame within 5 s:\n${cli.screenSince(mark).slice(-2000)}`));
    }, 5_000);
    const listener = cli.terminal.onData(() => {
      // Registered after startInTerminal's own listener, so the output already holds this data.
      if (!condition(cli.screenSince(mark))) return;
      clearTimeout(timeout);
      listener.dispose();
      resolve(performance.now() - started);
    });
  });
}

describe('a flood while the UI runs in a pseudo-terminal', () => {
  it(`records all ${FLOOD} requests and answers keys within ${KEY_BUDGET_MS} ms (median)`, async () => {
    // Room for the flood and for the top-up load below: nothing may be evicted.
    const cli = start(['--max-requests', String(FLOOD + TOP_UP + 10)]);
    const address = await cli.address();
    // Two requests, then `j` selects the older one: the selection stays there during the flood.
    for (const path of ['/first', '/second'])
      await fetch(`${address}${path}`, { body: BODY, method: 'POST' });
    await waitFor(() => statusCounts(cli)?.seen === 2, cli.screen);
    let mark = cli.output().length;
    cli.terminal.write('j');
    await waitFor(() => cli.screenSince(mark).includes(`POST ${address}/first`), cli.screen);

    const latencies: number[] = [];
    let flooding = true;
    const load = (async () => {
      const options = { concurrency: 16, body: () => BODY };
      const first = await flood(address, { ...options, count: FLOOD });
      // A quick machine can get through the flood in under a second (three presses, CI once):
      // keep the same load on, counted like the rest, until enough presses are measured.
      const topUp = await flood(address, {
        ...options,
        count: TOP_UP,
        stop: () => latencies.length >= MIN_PRESSES,
      });
      return {
        completed: first.completed + topUp.completed,
        failed: first.failed + topUp.failed,
        ms: first.ms + topUp.ms,
        flood: first,
      };
    })().finally(() => {
      flooding = false;
    });
    // Expand (measured: `row 21` can only appear once the key is handled), then collapse (not
    // measured: a frame already on its way shows the hint too), as long as the load lasts.
    await new Promise((resolve) => setTimeout(resolve, 300));
    while (flooding) {
      mark = cli.output().length;
      cli.terminal.write('\r');
      latencies.push(await timeUntil(cli, mark, (drawn) => drawn.includes('row 21')));
      mark = cli.output().length;
      cli.terminal.write('\r');
      await timeUntil(cli, mark, (drawn) => {
        const collapsed = drawn.lastIndexOf('(Enter to expand)');
        return collapsed > drawn.lastIndexOf('row 21');
      });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const result = await load;
    await waitFor(
      () => statusCounts(cli)?.seen === 2 + result.completed,
      () => JSON.stringify(statusCounts(cli)),
      15_000,
    );
    const counts = statusCounts(cli);

    const sorted = [...latencies].sort((a, b) => a - b);
    const percentile = (p: number) =>
      sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;
    console.info(
      `flood: ${result.flood.completed} of ${FLOOD} completed in ${result.flood.ms} ms ` +
        `(${Math.round((result.flood.completed * 1000) / result.flood.ms)} req/s), ` +
        `${result.completed} with the top-up, status bar ${JSON.stringify(counts)}; ` +
        `key-to-screen over ${latencies.length} presses: median ${percentile(0.5).toFixed(0)} ms, ` +
        `p95 ${percentile(0.95).toFixed(0)} ms, max ${(sorted.at(-1) ?? 0).toFixed(0)} ms`,
    );
    expect(result.failed).toBe(0);
    expect(result.flood.completed).toBe(FLOOD);
    expect(counts).toEqual({ kept: result.completed + 2, seen: result.completed + 2 });
    expect(latencies.length).toBeGreaterThanOrEqual(MIN_PRESSES);
    // On a quiet 2-CPU machine p95 stays under the budget; CI shares its CPUs with the other
    // suites, so the test holds the median to the budget and p95 to twice it, and reports all
    // three (RELIABILITY.md has the figures).
    expect(percentile(0.5)).toBeLessThan(KEY_BUDGET_MS);
    expect(percentile(0.95)).toBeLessThan(2 * KEY_BUDGET_MS);

    cli.terminal.write('q');
    expect((await cli.exited).exitCode).toBe(0);
    expectRestored(cli.output());
  });

  it.each([
    ['q', (cli: TerminalCli) => cli.terminal.write('q'), 0],
    ['Ctrl+C', (cli: TerminalCli) => cli.terminal.write('\x03'), 0],
    ['SIGTERM', (cli: TerminalCli) => cli.terminal.kill('SIGTERM'), 143],
    ['SIGHUP', (cli: TerminalCli) => cli.terminal.kill('SIGHUP'), 129],
  ] as const)('restores the terminal on %s in the middle of a flood', async (_name, stop, code) => {
    const cli = start();
    const address = await cli.address();
    let exited = false;
    const load = flood(address, {
      count: FLOOD,
      concurrency: 16,
      body: () => BODY,
      stop: () => exited,
    });
    await waitFor(() => (statusCounts(cli)?.seen ?? 0) > 200, cli.screen);
    stop(cli);
    const exit = await cli.exited;
    exited = true;
    await load;
    expect(exit.exitCode).toBe(code);
    expectRestored(cli.output());
  });

  it('restores the terminal on an uncaught exception in the middle of a flood, then reports it', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/crash-under-flood.ts', import.meta.url));
    const crashing = startInTerminal(['--import', 'tsx', fixture], { cols: 120, rows: 40 });
    running = crashing;
    const address = await crashing.address();
    let exited = false;
    const load = flood(address, {
      count: FLOOD,
      concurrency: 16,
      body: () => BODY,
      stop: () => exited,
    });
    const exit = await crashing.exited;
    exited = true;
    await load;
    expect(exit.exitCode).toBe(70);
    const output = crashing.output();
    const report = crashing.screenSince(output.lastIndexOf('\x1b[?1049l')).trim();
    expect(report).toMatch(/^webhook: internal error: Error: crash after 300 requests/);
    expectRestored(output, report);
  });
});
