// Copy as curl (`x`) and `webhook export --curl`: the command, pasted into bash or zsh, sends the
// captured request once, byte for byte, to the address it was sent to. The tool itself is the
// receiver: what the pasted command sends is captured again and compared with the original.
import { execFile, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import pty from '@lydell/node-pty';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { type RunningCapture, startCapture } from '../src/app.js';
import { type CapturedRequest, StoredRequest } from '../src/capture/record.js';
import { toCurl } from '../src/export/curl.js';
import { requestJson } from '../src/output/json.js';
import { replay } from '../src/replay/replay.js';
import { recordFromJson } from '../src/session/session.js';
import { captureConfig, childEnv, makeRecord, runCli, sendRaw, waitFor } from './helpers.js';
import { startReceiver } from './receiver.js';

const run = promisify(execFile);

// Without zsh (a machine that never ran .ci/run) its case is skipped, and says so, so that
// `npm test` passes on a fresh clone with nothing installed by hand; CI sets NETOPS_REQUIRE_ZSH
// so that there it fails instead.
const hasZsh = spawnSync('zsh', ['-c', 'exit 0']).status === 0;
const runZsh = hasZsh || process.env.NETOPS_REQUIRE_ZSH === '1';
if (!runZsh) console.warn('zsh is missing: skipping the curl export test in zsh');
const dir = mkdtempSync(join(tmpdir(), 'webhook-curl-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function capturing(): Promise<{
  capture: RunningCapture;
  port: number;
  records: CapturedRequest[];
}> {
  const capture = await startCapture(captureConfig());
  cleanups.push(() => capture.close());
  const records: CapturedRequest[] = [];
  capture.onRecord((record) => records.push(record));
  return { capture, port: Number(new URL(capture.address).port), records };
}

/** What must arrive again: every header but the ones curl computes (length) or owns (connection). */
const comparable = (record: CapturedRequest) =>
  record.headers.filter(([name]) => !/^(content-length|connection)$/i.test(name));

describe('curl export', () => {
  it.each(runZsh ? ['bash', 'zsh'] : ['bash'])(
    '%s: sends the captured request once, to the address it was sent to (globbing made 100 requests of one, and Host chose the target)',
    async (shell) => {
      // Where a command built from the Host header would go.
      const decoy = await startReceiver();
      cleanups.push(() => decoy.close());
      const { port, records } = await capturing();
      const decoyAuthority = new URL(decoy.url).host;
      await sendRaw(
        port,
        `GET /a{b,c}/[1-50]?n=[1-2]&q={x} HTTP/1.1\r\nHost: x@${decoyAuthority}\r\n` +
          "X-Quote: it's $HOME `id` !! \\\r\nConnection: close\r\n\r\n",
      );
      await sendRaw(
        port,
        Buffer.concat([
          Buffer.from(
            'POST /hooks/{id}/[0] HTTP/1.1\r\nHost: h.test\r\nX-Case: One\r\nx-case: two\r\n' +
              'X-Latin: caf\xe9\r\nContent-Length: 7\r\nConnection: close\r\n\r\n',
            'latin1',
          ),
          Buffer.from([0x00, 0xff, 0x27, 0x0a, 0x40, 0x1b, 0x5b]),
        ]),
      );
      await waitFor(() => records.length === 2);
      const originals = records.slice(0, 2);
      for (const [i, original] of originals.entries()) {
        const before = records.length;
        const curl = toCurl(original, { bodyFilePath: join(dir, `${shell}-${i}.body`) });
        if (!curl.ok) throw new Error(curl.reason);
        const { command, bodyFile } = curl;
        if (bodyFile) writeFileSync(bodyFile.path, bodyFile.bytes);
        await run(shell, ['-c', command]);
        await waitFor(() => records.length > before);
        // Once, not once per glob expansion.
        await new Promise((resolve) => setTimeout(resolve, 200));
        expect(records.length).toBe(before + 1);
        const copy = records.at(-1) as CapturedRequest;
        expect(copy.method).toBe(original.method);
        expect(copy.target).toBe(original.target);
        expect(comparable(copy)).toEqual(comparable(original));
        expect(copy.body).toEqual(original.body);
      }
      expect(decoy.received).toHaveLength(0);
    },
  );

  it('a replay goes where the replay went: the target base and the route are kept (they were lost)', async () => {
    const { port, records } = await capturing();
    await sendRaw(
      port,
      'POST /hooks/github?d=1 HTTP/1.1\r\nHost: h.test\r\nContent-Length: 2\r\n' +
        'Connection: close\r\n\r\n{}',
    );
    await waitFor(() => records.length === 1);
    const original = records[0] as CapturedRequest;
    // Replayed to the tool itself under /api: it arrives at /api/hooks/github?d=1.
    const sent = StoredRequest.from(
      90,
      await replay(original, { to: `http://127.0.0.1:${port}/api` }),
    );
    await waitFor(() => records.length === 2);
    expect(records[1]?.target).toBe('/api/hooks/github?d=1');
    // Loaded from a file without its original, it has no replayOf: the same command.
    const { replayOf: _original, ...alone } = JSON.parse(requestJson(sent));
    const loaded = recordFromJson(JSON.stringify(alone));
    for (const replayed of [sent, StoredRequest.from(loaded.fileSeq, loaded.draft)]) {
      const before = records.length;
      const curl = toCurl(replayed);
      if (!curl.ok) throw new Error(curl.reason);
      await run('bash', ['-c', curl.command]);
      await waitFor(() => records.length > before);
      expect(records.at(-1)?.target).toBe('/api/hooks/github?d=1');
      expect(records.at(-1)?.body.toString()).toBe('{}');
    }
  });

  it('webhook export --curl exports each record or skips it with a message (one bad Host aborted the export)', async () => {
    const { port, records } = await capturing();
    await sendRaw(port, 'GET /ok HTTP/1.1\r\nHost: h.test\r\nConnection: close\r\n\r\n');
    await sendRaw(port, 'GET /spaced HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n');
    await waitFor(() => records.length === 2);
    // A record written before the tool kept the address it listened on, with no usable URL.
    const unaddressed = JSON.parse(requestJson(records[1] as CapturedRequest));
    delete unaddressed.local;
    unaddressed.seq = 3;
    unaddressed.url = 'http://a b/spaced';
    const file = join(dir, 'session.jsonl');
    writeFileSync(
      file,
      `${records.map((record) => requestJson(record)).join('\n')}\n${JSON.stringify(unaddressed)}\n`,
    );
    const exported = await runCli(['export', '--from', file, '--curl'], { cwd: dir });
    expect(exported.stderr).not.toContain('internal error');
    expect(exported.stderr).not.toMatch(/\n\s+at /);
    expect(exported.stderr).toContain('#3: skipped');
    const commands = exported.stdout.trim().split('\n\n');
    expect(commands).toHaveLength(2);
    expect(commands[1]).toContain("-H 'Host: a b'");
    expect(exported.code).toBe(1);
    const har = join(dir, 'out.har');
    const asHar = await runCli(['export', '--from', file, '--har', har], { cwd: dir });
    expect(asHar.code).toBe(0);
    expect(JSON.parse(readFileSync(har, 'utf8')).log.entries).toHaveLength(3);
  });
});

describe('webhook export --curl counts', () => {
  it('one record exported and one skipped: says so, not “no records exported”', async () => {
    const record = (seq: number, extra: Record<string, unknown>) =>
      JSON.stringify({
        seq,
        time: '2026-12-06T16:53:25.691Z',
        method: 'POST',
        url: 'http://a b/x',
        path: '/x',
        target: '/x',
        query: [],
        headers: [['Host', 'x']],
        remote: '1.2.3.4',
        httpVersion: '1.1',
        size: 0,
        truncated: false,
        bodyEncoding: 'utf8',
        body: '',
        ...extra,
      });
    const file = join(dir, 'counts.jsonl');
    writeFileSync(file, `${record(1, { local: '127.0.0.1:9' })}\n${record(2, {})}\n`);
    const exported = await runCli(['export', '--from', file, '--curl'], { cwd: dir });
    expect(exported.stderr).toContain('#2: skipped');
    expect(exported.stderr).not.toContain('no records exported');
    expect(exported.stderr).toContain('1 of 2 records skipped');
    expect(exported.stdout).toContain("--url 'http://127.0.0.1:9'");
    expect(exported.code).toBe(1);
  });
});

describe('webhook export --curl body files', () => {
  it('never overwrite: an existing file or link of the name is left alone, the next free name used', async () => {
    const cwd = mkdtempSync(join(dir, 'bodies-'));
    const victim = join(cwd, 'victim.txt');
    writeFileSync(victim, 'keep me');
    symlinkSync(victim, join(cwd, 'webhook-1.body'));
    const file = join(cwd, 'binary.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify({
        seq: 1,
        time: '2026-12-06T16:53:25.691Z',
        method: 'POST',
        url: 'http://127.0.0.1:9/x',
        path: '/x',
        target: '/x',
        query: [],
        headers: [['Host', 'x']],
        remote: '1.2.3.4',
        httpVersion: '1.1',
        size: 3,
        truncated: false,
        bodyEncoding: 'base64',
        body: Buffer.from([1, 0, 2]).toString('base64'),
        local: '127.0.0.1:9',
      })}\n`,
    );
    const exported = await runCli(['export', '--from', file, '--curl'], { cwd });
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(exported.stderr).toContain('#1: body written to webhook-1-1.body');
    expect(exported.stdout).toContain('@webhook-1-1.body');
    expect(readFileSync(join(cwd, 'webhook-1-1.body'))).toEqual(Buffer.from([1, 0, 2]));
    expect(exported.code).toBe(0);
  });
});

describe('a url that no request line can hold', () => {
  const hostile = 'http://127.0.0.1:4133/a HTTP/1.1\r\nX-Injected: yes\r\n\r\nGET /b';
  const line = JSON.stringify({
    seq: 1,
    time: '2026-12-06T16:53:25.691Z',
    method: 'POST',
    url: hostile,
    path: '/a',
    target: '/a',
    query: [],
    headers: [['Host', 'x']],
    remote: '1.2.3.4',
    httpVersion: '1.1',
    size: 0,
    truncated: false,
    bodyEncoding: 'utf8',
    body: '',
    relayedVia: 'http://127.0.0.1:4131/c/EvH3Wtag7P8WDO7jp4Farw',
  });

  it('is skipped when a session file is read, naming the line', async () => {
    const file = join(dir, 'smuggle.jsonl');
    writeFileSync(file, `${line}\n`);
    const exported = await runCli(['export', '--from', file, '--curl'], { cwd: dir });
    expect(exported.stdout).not.toContain('X-Injected');
    expect(exported.stderr).toContain('smuggle.jsonl:1: url: ');
    expect(exported.stderr).toContain('; line skipped');
    expect(exported.code).toBe(1);
  });

  it('makes no command: curl would send it as a second request', () => {
    const record = makeRecord({
      url: hostile,
      relayedVia: 'http://127.0.0.1:4131/c/EvH3Wtag7P8WDO7jp4Farw',
    });
    const curl = toCurl(record);
    expect(curl.ok).toBe(false);
    expect(!curl.ok && curl.reason).toContain('request target');
  });
});

describe('a body or header holding CR or tab, pasted into an interactive shell', () => {
  // A terminal paste is not what `bash -c` reads: bash's line editor turns a pasted CR into a line
  // feed (CR LF became LF LF, and a signature over the body failed), and a typed tab completes.
  const body = Buffer.from('line1\r\nline2\n\tindented\r\n{"it\'s":"Zo\u00eb"}\r');
  const record = () =>
    makeRecord({
      method: 'POST',
      target: '/hooks/crlf',
      headers: [
        ['Host', 'h.test'],
        ['X-Tab', 'a\tb'],
        ['Content-Type', 'application/octet-stream'],
      ],
      body,
    });

  it('writes no raw CR or tab in the command, and `bash -c` of it sends the same bytes', async () => {
    const app = await startReceiver();
    cleanups.push(() => app.close());
    const curl = toCurl(record(), { origin: app.url });
    if (!curl.ok) throw new Error(curl.reason);
    expect(curl.bodyFile).toBeNull();
    expect(curl.command).not.toMatch(/[\r\t]/);
    await run('bash', ['-c', curl.command]);
    expect(app.received[0]?.body).toEqual(body);
    expect(app.received[0]?.rawHeaders.slice(2, 4)).toEqual(['X-Tab', 'a\tb']);
  });

  it.each([
    ['pasted (bracketed paste)', (text: string) => `\x1b[200~${text}\x1b[201~\r`],
    ['typed', (text: string) => `${text}\r`],
  ])('sends the same bytes when %s into bash -i in a terminal', async (_how, input) => {
    const app = await startReceiver();
    cleanups.push(() => app.close());
    const curl = toCurl(record(), { origin: app.url });
    if (!curl.ok) throw new Error(curl.reason);
    const shell = pty.spawn('bash', ['--norc', '--noprofile', '-i'], {
      name: 'xterm-256color',
      cols: 400,
      rows: 40,
      cwd: dir,
      env: childEnv({ TERM: 'xterm-256color', PS1: '$ ', INPUTRC: '/dev/null' }) as Record<
        string,
        string
      >,
    });
    let screen = '';
    shell.onData((data) => {
      screen += data;
    });
    cleanups.push(() => shell.kill());
    await waitFor(
      () => screen.includes('$ '),
      () => screen,
    );
    // Bracketed paste on, as bash 5.1 and later set it for a terminal.
    shell.write('bind "set enable-bracketed-paste on"\r');
    shell.write(input(curl.command));
    await waitFor(
      () => app.received.length === 1,
      () => screen,
    );
    expect(app.received[0]?.body).toEqual(body);
    expect(app.received[0]?.rawHeaders.slice(2, 4)).toEqual(['X-Tab', 'a\tb']);
  });
});

describe('headers the command keeps as captured', () => {
  it.each([
    [
      'a POST with Content-Length: 0 and no body',
      [
        ['Host', 'h.test'],
        ['Content-Length', '0'],
      ],
      '',
    ],
    [
      'Expect: 100-continue, Connection and Content-Length in their place',
      [
        ['Host', 'h.test'],
        ['Expect', '100-continue'],
        ['Content-Length', '2'],
        ['Connection', 'close'],
        ['Content-Type', 'application/json'],
      ],
      '{}',
    ],
  ])('%s: every header arrives in order and case', async (_what, headers, body) => {
    const app = await startReceiver();
    cleanups.push(() => app.close());
    const record = makeRecord({
      method: 'POST',
      target: '/kept',
      headers: headers as [string, string][],
      body: Buffer.from(body),
    });
    const curl = toCurl(record, { origin: app.url });
    if (!curl.ok) throw new Error(curl.reason);
    await run('bash', ['-c', curl.command]);
    expect(app.received[0]?.rawHeaders).toEqual(headers.flat());
    expect(app.received[0]?.body.toString()).toBe(body);
  });
});

describe('invisible characters in a curl command', () => {
  // Format characters outside the BMP's usual ranges too: Arabic letter mark, soft hyphen,
  // Mongolian vowel separator, interlinear annotation marks, tag characters (U+E0000–E007F, which
  // spell hidden text after an emoji), and other astral format characters.
  const INVISIBLES = [
    '\u061c',
    '\u00ad',
    '\u180e',
    '\ufff9',
    '\ufffa',
    '\ufffb',
    '\u{e0001}',
    '\u{e0041}',
    '\u{e007f}',
    '\u{110bd}',
    '\u{1d173}',
    '\u2065',
  ];

  it.each(INVISIBLES.map((char) => [`U+${char.codePointAt(0)?.toString(16).toUpperCase()}`, char]))(
    'never writes %s raw, in a header or the body',
    (_name, char) => {
      const text = `a${char}b`;
      const record = makeRecord({
        headers: [
          ['Host', 'h.test'],
          ['X-Name', Buffer.from(text).toString('latin1')],
        ],
        body: Buffer.from(`{"k":"${text}"}`),
      });
      const curl = toCurl(record, { bodyFilePath: 'webhook-1.body' });
      if (!curl.ok) throw new Error(curl.reason);
      expect(curl.command).not.toContain(char);
      // The body's exact bytes go through a file rather than the terminal.
      expect(curl.bodyFile?.bytes).toEqual(record.body);
    },
  );
});
