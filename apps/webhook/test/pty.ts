// The real CLI in a pseudo-terminal, as a user runs it: shared by the e2e tests and the
// reliability suite (reliability/).
import { closeSync, constants, openSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import pty from '@lydell/node-pty';
import { expect } from 'vitest';
import { CLI, childEnv, waitFor } from './helpers.js';

export const ENTER_ALT_SCREEN = '\x1b[?1049h';
export const LEAVE_ALT_SCREEN = '\x1b[?1049l';
export const SHOW_CURSOR = '\x1b[?25h';

/** Text as a person would read it: escape sequences removed. */
export function screenText(output: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping terminal escapes
  return output.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07]*\x07|\x1b[()][0-9A-B]/g, '');
}

export interface TerminalOptions {
  readonly cols?: number;
  readonly rows?: number;
  /** Variables added to the child's environment (EDITOR, TERM...). */
  readonly env?: Record<string, string>;
  /** Working directory (where `x` and `X` write files); the app's folder by default. */
  readonly cwd?: string;
}

/** Starts `node args...` (the CLI by default) in a pseudo-terminal and records what it draws. */
export function startInTerminal(
  args: readonly string[] = [CLI, '--port', '0'],
  { cols = 120, rows = 30, env = {}, cwd }: TerminalOptions = {},
) {
  const terminal = pty.spawn(process.execPath, [...args], {
    cwd: cwd ?? fileURLToPath(new URL('..', import.meta.url)),
    name: 'xterm-256color',
    cols,
    rows,
    env: childEnv({ TERM: 'xterm-256color', ...env }) as Record<string, string>,
  });
  // Linux may hang the terminal up before the last bytes a process wrote reach this side, when
  // that process was the terminal's only holder and exits: under load, 21 of 150 runs of a
  // program writing 20 KB and exiting lost part of it (node-pty's issues 85 and 726). In a real
  // terminal the shell holds it too; here the test does, until the process has gone.
  const ptsName = (terminal as unknown as { ptsName?: string }).ptsName;
  let holder: number | undefined;
  try {
    if (ptsName) holder = openSync(ptsName, constants.O_RDWR | constants.O_NOCTTY);
  } catch {
    // Without it the test still runs, as before.
  }
  const release = () => {
    if (holder === undefined) return;
    closeSync(holder);
    holder = undefined;
  };
  let output = '';
  let lastDataAt = 0;
  terminal.onData((data) => {
    output += data;
    lastDataAt = Date.now();
  });
  // node-pty may report the exit before it has delivered the last output (the restore sequences,
  // written just before exiting; on a loaded machine, hundreds of ms later): wait until the
  // alternate screen has been left (when it was entered) and the output has been quiet for
  // 200 ms, at most 5 s. A run that never restores the terminal still fails `expectRestored`.
  const exited = new Promise<{ exitCode: number; signal?: number }>((resolve) => {
    terminal.onExit(async (exit) => {
      const deadline = Date.now() + 5000;
      const left = () =>
        output.lastIndexOf(LEAVE_ALT_SCREEN) >= output.lastIndexOf(ENTER_ALT_SCREEN);
      while ((!left() || Date.now() - lastDataAt < 200) && Date.now() < deadline) {
        await new Promise((wait) => setTimeout(wait, 20));
      }
      release();
      resolve(exit);
    });
  });
  return {
    terminal,
    exited,
    output: () => output,
    screen: () => screenText(output),
    /** Text drawn after output position `mark`: what a key press made appear. */
    screenSince: (mark: number) => screenText(output.slice(mark)),
    /** The listening address, read off the status bar. */
    async address(): Promise<string> {
      const pattern = /http:\/\/127\.0\.0\.1:\d+/;
      await waitFor(
        () => pattern.test(screenText(output)),
        () => output,
        30_000,
      );
      return pattern.exec(screenText(output))?.[0] ?? '';
    },
  };
}

export type TerminalCli = ReturnType<typeof startInTerminal>;

/** The last `N kept / M seen` the status bar showed since output position `mark`, if any. */
export function statusCounts(
  cli: TerminalCli,
  mark = 0,
): { kept: number; seen: number } | undefined {
  const last = [...cli.screenSince(mark).matchAll(/(\d+) kept \/ (\d+) seen/g)].at(-1);
  return last ? { kept: Number(last[1]), seen: Number(last[2]) } : undefined;
}

/** Everything after the last frame: the restore sequences must be there, in this order. */
export function expectRestored(output: string, after = '') {
  expect(output.indexOf(ENTER_ALT_SCREEN)).toBeGreaterThanOrEqual(0);
  const leave = output.lastIndexOf(LEAVE_ALT_SCREEN);
  expect(leave).toBeGreaterThan(output.indexOf(ENTER_ALT_SCREEN));
  expect(output.lastIndexOf(SHOW_CURSOR)).toBeGreaterThan(output.lastIndexOf('\x1b[?25l'));
  // Nothing is drawn after the alternate screen is left.
  expect(screenText(output.slice(leave)).trim()).toBe(after);
}
