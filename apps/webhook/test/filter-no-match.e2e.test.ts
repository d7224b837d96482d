// A filter that matches nothing says so, with how to get the list back, in the real command in a
// pseudo-terminal: not the first-run "Waiting for requests…" and "Send a request" panes.
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, waitFor } from './helpers.js';
import { startInTerminal } from './pty.js';

describe('a filter matching nothing', { timeout: 60_000 }, () => {
  it('says no request matches it, how many are kept, and that Esc clears it', async () => {
    const cli = startInTerminal([CLI, '--port', '0'], { cols: 120, rows: 30 });
    onTestFinished(() => {
      try {
        cli.terminal.kill('SIGKILL');
      } catch {}
    });
    const address = await cli.address();
    for (const n of [1, 2, 3]) await fetch(`${address}/a/${n}`, { method: 'POST', body: 'x' });
    await waitFor(
      () => cli.screen().includes('3 kept / 3 seen'),
      () => cli.screen().slice(-3000),
    );
    const mark = cli.output().length;
    cli.terminal.write('/zzz\r');
    await waitFor(
      () => cli.screenSince(mark).includes('0 of 3 match'),
      () => cli.screenSince(mark),
    );
    await waitFor(
      () =>
        cli.screenSince(mark).includes('No request matches /zzz (3 kept; Esc clears the filter)'),
      () => cli.screenSince(mark),
      5_000,
    );
    expect(cli.screenSince(mark)).not.toContain('Waiting for requests');
    expect(cli.screenSince(mark)).not.toContain('Send a request');
    // Esc brings the list back.
    const cleared = cli.output().length;
    cli.terminal.write('\x1b');
    await waitFor(
      () => cli.screenSince(cleared).includes('/a/3'),
      () => cli.screenSince(cleared),
    );
    cli.terminal.write('q');
    await cli.exited;
  });
});
