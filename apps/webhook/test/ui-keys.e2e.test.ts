// Filter, body-view and list keys in the real command, in a pseudo-terminal.
import { describe, expect, it } from 'vitest';
import { CLI, waitFor } from './helpers.js';
import { startInTerminal } from './pty.js';

const shown = (screen: string, parts: (string | RegExp)[]) =>
  parts.every((part) => (typeof part === 'string' ? screen.includes(part) : part.test(screen)));

describe('filter, body view and list keys in a pseudo-terminal', { timeout: 60_000 }, () => {
  it('/ filters as you type, n moves, Esc clears; v cycles the body view', async () => {
    const cli = startInTerminal([CLI, '--port', '0'], { cols: 140, rows: 30 });
    try {
      const address = await cli.address();
      for (const [path, event] of [
        ['/hooks/github', 'push'],
        ['/hooks/github', 'issues'],
        ['/health', 'none'],
      ]) {
        await fetch(`${address}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-github-event': event as string },
          body: JSON.stringify({ price: 12.5, event }),
        });
      }
      await waitFor(() => cli.screen().includes('3 kept / 3 seen'), cli.screen);

      let mark = cli.output().length;
      cli.terminal.write('/header:x-github-event=push');
      await waitFor(() => cli.screenSince(mark).includes('1 of 3 match'), cli.screen);
      cli.terminal.write('\r');
      mark = cli.output().length;
      cli.terminal.write('n'); // a key again once Enter closed the prompt
      await waitFor(
        () => shown(cli.screenSince(mark), ['/header:x-github-event=push · 1 of 3 match']),
        cli.screen,
      );
      mark = cli.output().length;
      cli.terminal.write('\x1b'); // Esc clears the filter, not quit
      await waitFor(() => cli.screenSince(mark).includes('3 kept / 3 seen'), cli.screen);

      mark = cli.output().length;
      cli.terminal.write('v');
      await waitFor(() => shown(cli.screenSince(mark), ['raw text', 'body: raw']), cli.screen);
      mark = cli.output().length;
      cli.terminal.write('v');
      await waitFor(() => shown(cli.screenSince(mark), ['hex, as received']), cli.screen);
      cli.terminal.write('q');
      expect((await cli.exited).exitCode).toBe(0);
    } finally {
      cli.terminal.kill();
    }
  });
});
