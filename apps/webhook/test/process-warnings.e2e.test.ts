// Many forwards under way at once print no MaxListenersExceededWarning (each listened to the
// queue's one abort signal), and nothing the process prints lands on the UI's screen: a warning
// raised while the UI is up is held and printed on the normal screen once it has gone.
import { describe, expect, it, onTestFinished } from 'vitest';
import { CLI, RunningCli, waitFor } from './helpers.js';
import { ENTER_ALT_SCREEN, LEAVE_ALT_SCREEN, screenText, startInTerminal } from './pty.js';
import { startReceiver } from './receiver.js';

/** An app that takes requests and answers none until the test ends. */
async function hangingApp() {
  const app = await startReceiver(() => {});
  onTestFinished(() => app.close());
  return app;
}

async function sendAtOnce(base: string, count: number) {
  await Promise.all(
    Array.from({ length: count }, (_, i) =>
      fetch(`${base}/many/${i}`, { method: 'POST', body: String(i) }).then((answer) =>
        answer.arrayBuffer(),
      ),
    ),
  );
}

// Raised on demand, while the UI is up: a warning from anywhere in the process.
const WARN_ON_SIGUSR2 = `data:text/javascript,process.on('SIGUSR2',()=>process.emitWarning('raised while the UI is on screen'))`;

// Two warnings on demand: one of a type the user switched off with --disable-warning, and one
// with a code, whose --trace-warnings stack must survive being held.
const TWO_WARNINGS_ON_SIGUSR2 = `data:text/javascript,process.on('SIGUSR2',()=>{process.emitWarning('switched off by the user','ExperimentalWarning');process.emitWarning('kept with its code','DeprecationWarning','DEP0999')})`;

describe('process warnings', { timeout: 60_000 }, () => {
  it('30 forwards under way at once print no MaxListenersExceededWarning', async () => {
    const app = await hangingApp();
    const cli = new RunningCli(['--no-tui', '--port', '0', '--forward-to', app.url]);
    onTestFinished(async () => {
      await cli.stop();
    });
    await sendAtOnce(await cli.address(), 30);
    await waitFor(
      () => app.received.length === 30,
      () => cli.stderr,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(cli.stderr).not.toContain('MaxListenersExceededWarning');
    expect(cli.stderr).not.toContain('Warning');
  });

  it('the UI: nothing lands on its screen; a warning is printed once it has gone', async () => {
    const app = await hangingApp();
    const cli = startInTerminal([
      '--import',
      WARN_ON_SIGUSR2,
      CLI,
      '--port',
      '0',
      '--forward-to',
      app.url,
    ]);
    onTestFinished(() => {
      cli.terminal.kill();
    });
    await sendAtOnce(await cli.address(), 30);
    await waitFor(
      () => app.received.length === 30,
      () => cli.screen(),
    );
    cli.terminal.kill('SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const onScreen = screenText(cli.output().slice(cli.output().indexOf(ENTER_ALT_SCREEN)));
    expect(onScreen).not.toContain('Warning');
    cli.terminal.write('q');
    await cli.exited;
    const output = cli.output();
    const afterUi = screenText(output.slice(output.lastIndexOf(LEAVE_ALT_SCREEN)));
    expect(afterUi).toContain('raised while the UI is on screen');
    expect(output).not.toContain('MaxListenersExceededWarning');
  });

  it('held warnings go to Node’s own printer: --disable-warning, codes and --trace-warnings hold', async () => {
    const cli = startInTerminal([
      '--disable-warning=ExperimentalWarning',
      '--trace-warnings',
      '--import',
      TWO_WARNINGS_ON_SIGUSR2,
      CLI,
      '--port',
      '0',
    ]);
    onTestFinished(() => {
      cli.terminal.kill();
    });
    await cli.address();
    cli.terminal.kill('SIGUSR2');
    await new Promise((resolve) => setTimeout(resolve, 500));
    cli.terminal.write('q');
    await cli.exited;
    const output = cli.output();
    const afterUi = screenText(output.slice(output.lastIndexOf(LEAVE_ALT_SCREEN)));
    expect(afterUi).toContain('[DEP0999] DeprecationWarning: kept with its code');
    // --trace-warnings: where it was raised, as Node prints it without the UI.
    expect(afterUi).toMatch(/kept with its code\s*\n\s+at /);
    // (The stack above quotes the preload's source, so only the warning as printed is looked for.)
    expect(afterUi).not.toContain('ExperimentalWarning: switched off by the user');
  });
});
