import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CLI, waitFor } from './helpers.js';
import { expectRestored, LEAVE_ALT_SCREEN, screenText, startInTerminal } from './pty.js';

describe('the UI in a pseudo-terminal', { timeout: 60_000 }, () => {
  it('shows requests as they arrive, answers keys, and restores the terminal on q', async () => {
    const cli = startInTerminal();
    const address = await cli.address();
    const response = await fetch(`${address}/hooks/e2e?source=pty`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-e2e': 'yes' },
      body: JSON.stringify({ event: 'push', commits: [1, 2, 3] }),
    });
    expect(response.status).toBe(200);
    await fetch(`${address}/second`, { method: 'PUT', body: Buffer.from([0, 1, 2, 0xff]) });
    // A frame may reach us in several pieces: wait for everything it should show.
    const shown = (screen: string, parts: (string | RegExp)[]) =>
      parts.every((part) => (typeof part === 'string' ? screen.includes(part) : part.test(screen)));
    const afterArrivals = [
      /\d\d:\d\d:\d\d POST \/hooks\/e2e/,
      /\d\d:\d\d:\d\d PUT \/second/,
      `PUT ${address}/second`,
      'binary, hex dump',
    ];
    await waitFor(() => shown(cli.screen(), afterArrivals), cli.screen);

    // Select the older request: its detail, pretty JSON included, is drawn anew.
    const mark = cli.output().length;
    cli.terminal.write('j');
    const afterKey = ['"event": "push"', `POST ${address}/hooks/e2e?source=pty`, 'source = pty'];
    await waitFor(() => shown(cli.screenSince(mark), afterKey), cli.screen);

    cli.terminal.write('q');
    const exit = await cli.exited;
    expect(exit.exitCode).toBe(0);
    expectRestored(cli.output());
  });

  it.each([
    ['Ctrl+C', '\x03'],
    ['Esc', '\x1b'],
  ])('restores the terminal on %s', async (_name, key) => {
    const cli = startInTerminal();
    await cli.address();
    cli.terminal.write(key);
    const exit = await cli.exited;
    expect(exit.exitCode).toBe(0);
    expectRestored(cli.output());
  });

  it.each([
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const)('restores the terminal on %s', async (signal, code) => {
    const cli = startInTerminal();
    await cli.address();
    cli.terminal.kill(signal);
    const exit = await cli.exited;
    expect(exit.exitCode).toBe(code);
    expectRestored(cli.output());
  });

  it('restores the terminal on an uncaught exception, then reports it', async () => {
    const fixture = fileURLToPath(new URL('./fixtures/crash-in-ui.ts', import.meta.url));
    const cli = startInTerminal(['--import', 'tsx', fixture]);
    const exit = await cli.exited;
    expect(cli.screen()).toContain('http://crash.test');
    expect(exit.exitCode).toBe(70);
    const leave = cli.output().lastIndexOf(LEAVE_ALT_SCREEN);
    const report = screenText(cli.output().slice(leave)).trim();
    expect(report).toMatch(/^webhook: internal error: Error: boom from the fixture/);
    expectRestored(cli.output(), report);
  });

  it('keeps the warning about listening beyond loopback on screen, and prints it again on exit', async () => {
    const cli = startInTerminal([CLI, '--host', '0.0.0.0', '--port', '0']);
    await waitFor(() => /kept \/ 0 seen/.test(cli.screen()), cli.screen, 30_000);
    expect(cli.screen()).toMatch(/⚠ warning: listening on 0\.0\.0\.0:\d+ \(--host 0\.0\.0\.0\)/);
    const port = /http:\/\/0\.0\.0\.0:(\d+)/.exec(cli.screen())?.[1];
    // It listens on every interface: the loopback one answers too.
    const mark = cli.output().length;
    await fetch(`http://127.0.0.1:${port}/hooks/after`, { method: 'POST', body: 'x' });
    await waitFor(() => cli.screenSince(mark).includes('/hooks/after'), cli.screen);
    cli.terminal.write('q');
    const exit = await cli.exited;
    expect(exit.exitCode).toBe(0);
    const leave = cli.output().lastIndexOf(LEAVE_ALT_SCREEN);
    const after = screenText(cli.output().slice(leave)).trim();
    expect(after).toMatch(/^webhook: warning: listening on 0\.0\.0\.0:\d+/);
    expectRestored(cli.output(), after);
  });
});
