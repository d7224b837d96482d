// SIGTERM while `e` has the editor open: the editor is stopped with the tool (it was left running,
// fighting the shell for the terminal) and the temporary file holding the request, its
// Authorization header included, is removed; the terminal is restored.
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it, onTestFinished } from 'vitest';
import { CLI, waitFor } from './helpers.js';
import { expectRestored, startInTerminal } from './pty.js';
import { startReceiver } from './receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-editor-signal-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('a signal while the editor is open', { timeout: 60_000 }, () => {
  it('stops the editor, removes the temporary request file and restores the terminal', async () => {
    const target = await startReceiver();
    onTestFinished(() => target.close());
    // An "editor" that says who it is and what it opened, then waits as a person reading would.
    const editor = join(dir, 'editor.sh');
    const opened = join(dir, 'opened');
    writeFileSync(editor, `#!/bin/sh\necho "$$ $1" > '${opened}'\nexec sleep 60\n`);
    chmodSync(editor, 0o755);
    // The tool under a parent that holds the terminal after it exits, as a shell does (in a
    // terminal of its own, a child left behind would get SIGHUP when the tool exits).
    const shell = join(dir, 'shell.cjs');
    const pidFile = join(dir, 'pid');
    writeFileSync(
      shell,
      `const { spawn } = require('node:child_process');
const fs = require('node:fs');
const child = spawn(process.execPath, process.argv.slice(3), { stdio: 'inherit' });
fs.writeFileSync(process.argv[2], String(child.pid));
child.on('exit', (code, signal) => {
  fs.writeFileSync(process.argv[2] + '.exit', String(code ?? signal));
  setTimeout(() => {}, 60_000);
});
`,
    );
    const cli = startInTerminal([shell, pidFile, CLI, '--port', '0', '--replay-to', target.url], {
      cols: 120,
      rows: 30,
      cwd: dir,
      env: { EDITOR: editor, VISUAL: '' },
    });
    onTestFinished(() => {
      try {
        cli.terminal.kill('SIGKILL');
      } catch {}
    });
    const address = await cli.address();
    await fetch(`${address}/hooks/e`, {
      method: 'POST',
      headers: { Authorization: 'Bearer very-secret' },
      body: '{"a":1}',
    });
    await waitFor(
      () => cli.screen().includes('1 kept / 1 seen'),
      () => cli.screen().slice(-3000),
    );
    cli.terminal.write('e');
    await waitFor(() => existsSync(opened) && readFileSync(opened, 'utf8').endsWith('\n'));
    const [pidText, file] = readFileSync(opened, 'utf8').trim().split(' ');
    const pid = Number(pidText);
    onTestFinished(() => {
      if (alive(pid)) process.kill(pid, 'SIGKILL');
    });
    expect(readFileSync(file ?? '', 'utf8')).toContain('very-secret');
    process.kill(Number(readFileSync(pidFile, 'utf8')), 'SIGTERM');
    await waitFor(() => existsSync(`${pidFile}.exit`));
    expect(readFileSync(`${pidFile}.exit`, 'utf8')).toBe('143');
    await waitFor(
      () => !alive(pid),
      () => `editor ${pid} still running`,
      3_000,
    );
    expect(existsSync(dirname(file ?? ''))).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 300));
    expectRestored(cli.output());
  });
});
