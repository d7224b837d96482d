// Ctrl+Z and SIGTSTP, as in less or vim: the UI leaves the alternate screen and restores the
// terminal, then stops; SIGCONT (the shell's fg) takes the terminal back and redraws, keys work.
import { readFileSync } from 'node:fs';
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, waitFor } from './helpers.js';
import {
  ENTER_ALT_SCREEN,
  expectRestored,
  LEAVE_ALT_SCREEN,
  SHOW_CURSOR,
  startInTerminal,
} from './pty.js';

/** The process's state letter in /proc: T when stopped. */
const state = (pid: number) => readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];

describe('suspending the UI', { timeout: 60_000 }, () => {
  it('Ctrl+Z and SIGTSTP restore the terminal and stop; SIGCONT redraws and keys work again', async () => {
    const cli = startInTerminal([CLI, '--port', '0'], { cols: 100, rows: 24 });
    onTestFinished(() => {
      try {
        cli.terminal.kill('SIGKILL');
      } catch {}
    });
    const pid = cli.terminal.pid;
    const address = await cli.address();
    await fetch(`${address}/hooks/z`, { method: 'POST', body: 'x' });
    await waitFor(
      () => cli.screen().includes('1 kept / 1 seen'),
      () => cli.screen().slice(-3000),
    );
    for (const stop of [() => cli.terminal.write('\x1a'), () => process.kill(pid, 'SIGTSTP')]) {
      const mark = cli.output().length;
      stop();
      // Stopped, and what it wrote before stopping read from the terminal: on a loaded machine
      // the process can be stopped before this side has read its last bytes.
      await waitFor(
        () =>
          state(pid) === 'T' &&
          cli.output().slice(mark).includes(LEAVE_ALT_SCREEN) &&
          cli.output().slice(mark).includes(SHOW_CURSOR),
        () => `state ${state(pid)}; output ${JSON.stringify(cli.output().slice(mark))}`,
        5_000,
      );
      const resumed = cli.output().length;
      process.kill(pid, 'SIGCONT');
      await waitFor(
        () =>
          cli.output().slice(resumed).includes(ENTER_ALT_SCREEN) &&
          cli.screenSince(resumed).includes('1 kept / 1 seen'),
        () => cli.screenSince(resumed),
        5_000,
      );
    }
    // Raw mode is back: one key, no Enter, is acted on.
    cli.terminal.write('q');
    const exit = await cli.exited;
    expect(exit.exitCode).toBe(0);
    expectRestored(cli.output());
  });
});
