// `r`, `e`, `x` and `X` in the real command in a pseudo-terminal, against a real receiving server.
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI, waitFor } from './helpers.js';
import { startInTerminal } from './pty.js';

interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

let receiver: Server;
let receiverUrl = '';
const received: Received[] = [];
let directory = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      received.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"received":true}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  directory = mkdtempSync(join(tmpdir(), 'webhook-ui-e2e-'));
  // The "editor": changes the body and a header in the file it is given, as a person would.
  const editor = join(directory, 'edit.sh');
  writeFileSync(
    editor,
    `#!/bin/sh\nsed -i -e 's/"push"/"edited"/' -e 's/^x-event: push/x-event: edited/I' "$1"\n`,
  );
  chmodSync(editor, 0o755);
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(directory, { recursive: true, force: true });
});

describe('replay from the UI', { timeout: 60_000 }, () => {
  it('r replays to a URL typed in the prompt, e edits in $EDITOR first, x copies as curl, X exports HAR', async () => {
    const cli = startInTerminal([CLI, '--port', '0'], {
      cols: 150,
      rows: 40,
      cwd: directory,
      env: { EDITOR: join(directory, 'edit.sh'), VISUAL: '', TERM: 'xterm-256color', TMUX: '' },
    });
    try {
      const address = await cli.address();
      const body = '{"event":"push","amount":12.50}';
      const first = await fetch(`${address}/hooks/e2e?x=1`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-event': 'push' },
        body,
      });
      expect(first.status).toBe(200);
      await waitFor(
        () => cli.screen().includes('1 kept / 1 seen'),
        () => cli.screen().slice(-3000),
      );

      // No forward target and no --replay-to: r asks for a URL.
      let mark = cli.output().length;
      cli.terminal.write('r');
      await waitFor(
        () => cli.screenSince(mark).includes('Replay to base URL (the path is appended): http://'),
        () => cli.screen().slice(-3000),
      );
      cli.terminal.write(`${receiverUrl.slice('http://'.length)}\r`);
      await waitFor(
        () => received.length === 1,
        () => cli.screen().slice(-3000),
      );
      expect(received[0]).toMatchObject({ method: 'POST', url: '/hooks/e2e?x=1', body });
      expect(received[0]?.headers['x-event']).toBe('push');
      await waitFor(
        () => /#2 replay of #1 → 200 OK in \d+ ms/.test(cli.screen()),
        () => cli.screen().slice(-3000),
      );
      await waitFor(
        () => cli.screen().includes(`→ Replayed to ${receiverUrl}/hooks/e2e?x=1 · 200 OK`),
        cli.screen,
      );
      expect(cli.screen()).toContain('↻ replay of #1');

      // e: the editor changes the body and a header; the URL typed before is used again.
      mark = cli.output().length;
      cli.terminal.write('e');
      await waitFor(
        () => received.length === 2,
        () => cli.screen().slice(-3000),
      );
      expect(received[1]?.body).toBe('{"event":"edited","amount":12.50}');
      expect(received[1]?.headers['x-event']).toBe('edited');
      expect(received[1]?.headers['content-length']).toBe(String(received[1]?.body.length));
      await waitFor(
        () => /#3 replay of #1 → 200 OK/.test(cli.screenSince(mark)),
        () => cli.screen().slice(-3000),
      );
      await waitFor(
        () => cli.screenSince(mark).includes('3 kept / 3 seen'),
        () => cli.screen().slice(-3000),
      );

      // x: the curl command through OSC 52 and, this terminal not being known to take it, a file.
      mark = cli.output().length;
      cli.terminal.write('x');
      await waitFor(
        () => cli.screenSince(mark).includes('#3 as curl: ./webhook-3.curl.sh'),
        cli.screen,
      );
      const script = readFileSync(join(directory, 'webhook-3.curl.sh'), 'utf8');
      expect(script).toMatch(/^#!\/usr\/bin\/env bash\ncurl /);
      expect(script).toContain('"edited"');
      // biome-ignore lint/suspicious/noControlCharactersInRegex: the OSC 52 sequence is the point
      const sequence = /\x1b\]52;c;([A-Za-z0-9+/=]+)\x07/.exec(cli.output().slice(mark));
      expect(Buffer.from(sequence?.[1] ?? '', 'base64').toString('utf8')).toBe(
        script.replace(/^#!\/usr\/bin\/env bash\n/, '').trimEnd(),
      );

      // X: the filtered list as HAR.
      mark = cli.output().length;
      cli.terminal.write('/edited\r');
      await waitFor(
        () => cli.screenSince(mark).includes('1 of 3 match'),
        () => cli.screen().slice(-3000),
      );
      cli.terminal.write('X');
      await waitFor(
        () => /exported to \.\/webhook-[\d-]+\.har/.test(cli.screenSince(mark)),
        cli.screen,
      );
      const harFile = readdirSync(directory).find((name) => name.endsWith('.har')) ?? '';
      const har = JSON.parse(readFileSync(join(directory, harFile), 'utf8'));
      expect(har.log.version).toBe('1.2');
      expect(har.log.entries).toHaveLength(1);
      expect(har.log.entries[0].request.postData.text).toBe('{"event":"edited","amount":12.50}');

      cli.terminal.write('q');
      expect((await cli.exited).exitCode).toBe(0);
    } finally {
      cli.terminal.kill();
    }
  });
});
