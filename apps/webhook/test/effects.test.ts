import { execFile } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  createReadStream,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it, onTestFinished } from 'vitest';
import { type CapturedRequest, StoredRequest } from '../src/capture/record.js';
import { toCurl } from '../src/export/curl.js';
import { harPieces } from '../src/export/har.js';
import { replay } from '../src/replay/replay.js';
import { osc52 } from '../src/ui/clipboard.js';
import { fromEditableText, toEditableText } from '../src/ui/edit.js';
import { createEffects, type UiServices } from '../src/ui/effects.js';
import { clipboardSupport, uiEnvironment } from '../src/ui/environment.js';
import { uiServices } from '../src/ui/run.js';
import { makeRecord } from './helpers.js';
import { startReceiver } from './receiver.js';

let directory = '';
beforeEach(() => {
  directory = mkdtempSync(join(tmpdir(), 'webhook-effects-'));
});
afterEach(() => rmSync(directory, { recursive: true, force: true }));

function setup(clipboard: 'osc52' | 'file', editor = 'true') {
  const written: string[] = [];
  const replays: { record: CapturedRequest; to: string | undefined; edits: unknown }[] = [];
  const services: UiServices = {
    async replay(record, request) {
      replays.push({ record, to: request.to, edits: request.edits });
      return makeRecord({
        replayOf: record.seq,
        forward: {
          kind: 'response',
          target: request.to ?? 'http://own.test/hooks',
          status: 201,
          statusText: 'Created',
          headers: [],
          body: Buffer.alloc(0),
          size: 0,
          truncated: false,
          durationMs: 4,
        },
      });
    },
    curl: (record, options) => ({
      ok: true,
      command: `curl -X ${record.method} http://x.test${record.target}`,
      bodyFile: record.body.includes(0)
        ? { path: options.bodyFilePath ?? 'body', bytes: record.body }
        : null,
    }),
    har: harPieces,
  };
  let suspended = 0;
  const effects = createEffects({
    environment: { editor, clipboard, directory },
    services,
    writeTerminal: (text) => written.push(text),
    suspend: async (work) => {
      suspended += 1;
      return work();
    },
    now: () => new Date(Date.UTC(2026, 10, 24, 4, 30, 5)),
  });
  return { effects, written, replays, suspended: () => suspended };
}

describe('x: curl to the clipboard or a file', () => {
  it('sends OSC 52 alone to a terminal known to take it', async () => {
    const { effects, written } = setup('osc52');
    const record = makeRecord({ target: '/hooks/a' });
    const notice = await effects.copyCurl(record);
    expect(written).toEqual([osc52('curl -X POST http://x.test/hooks/a')]);
    expect(written[0]?.startsWith('\x1b]52;c;')).toBe(true);
    expect(written[0]?.endsWith('\x07')).toBe(true);
    expect(notice.text).toMatch(/copied as curl to the clipboard \(OSC 52/);
    expect(readdirSync(directory)).toEqual([]);
  });

  it('writes a file as well where the clipboard is not known to work', async () => {
    const { effects, written } = setup('file');
    const record = makeRecord({ target: '/hooks/b' });
    const notice = await effects.copyCurl(record);
    expect(written).toHaveLength(1);
    const name = `webhook-${record.seq}.curl.sh`;
    expect(notice.text).toBe(
      `#${record.seq} as curl: ./${name} (clipboard not known to work here)`,
    );
    expect(readFileSync(join(directory, name), 'utf8')).toBe(
      '#!/usr/bin/env bash\ncurl -X POST http://x.test/hooks/b\n',
    );
  });

  it("the written file runs as it is: a header that is not printable arrives byte for byte (sh took its $'…' word as text)", async () => {
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    const real = createEffects({
      environment: { editor: 'true', clipboard: 'file', directory },
      services: { replay: async (record) => record, curl: toCurl, har: () => [] },
      writeTerminal: () => {},
      suspend: async (work) => work(),
      now: () => new Date(),
    });
    const record = makeRecord({
      method: 'GET',
      target: '/hooks/latin',
      local: new URL(receiver.url).host,
      headers: [
        ['Host', 'h.test'],
        ['X-Latin', 'caf\xe9'],
      ],
    });
    const notice = await real.copyCurl(record);
    expect(notice.text).toContain(`./webhook-${record.seq}.curl.sh`);
    await promisify(execFile)(join(directory, `webhook-${record.seq}.curl.sh`));
    const seen = receiver.received.at(-1);
    expect(seen?.url).toBe('/hooks/latin');
    expect(seen?.rawHeaders[seen.rawHeaders.indexOf('X-Latin') + 1]).toBe('caf\xe9');
  });

  it('writes a body that is not printable next to the command', async () => {
    const { effects } = setup('osc52');
    const record = makeRecord({ body: Buffer.from([1, 0, 2]) });
    const notice = await effects.copyCurl(record);
    expect(notice.text).toContain(`(body in ./webhook-${record.seq}.body)`);
    expect(readFileSync(join(directory, `webhook-${record.seq}.body`))).toEqual(
      Buffer.from([1, 0, 2]),
    );
  });

  it('falls back to a file when the command is too long for OSC 52', async () => {
    const { effects, written } = setup('osc52');
    const notice = await effects.copyCurl(makeRecord({ target: `/${'a'.repeat(80_000)}` }));
    expect(written).toEqual([]);
    expect(notice.text).toContain('too long for the clipboard');
  });
});

describe('files x and X write', () => {
  it('are new files: an existing file or link of the name is left alone, the next free name taken and named', async () => {
    const { effects } = setup('file');
    const victim = join(directory, 'victim.txt');
    writeFileSync(victim, 'keep me');
    const record = makeRecord({ body: Buffer.from([1, 0, 2]) });
    symlinkSync(victim, join(directory, `webhook-${record.seq}.body`));
    symlinkSync(victim, join(directory, `webhook-${record.seq}.curl.sh`));
    const notice = await effects.copyCurl(record);
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(notice.text).toContain(`./webhook-${record.seq}-1.curl.sh`);
    expect(notice.text).toContain(`(body in ./webhook-${record.seq}-1.body)`);
    expect(readFileSync(join(directory, `webhook-${record.seq}-1.body`))).toEqual(
      Buffer.from([1, 0, 2]),
    );
    symlinkSync(victim, join(directory, 'webhook-20261124-043005.har'));
    const har = await effects.exportHar([record], '');
    expect(readFileSync(victim, 'utf8')).toBe('keep me');
    expect(har.text).toContain('./webhook-20261124-043005-1.har');
    expect(
      JSON.parse(readFileSync(join(directory, 'webhook-20261124-043005-1.har'), 'utf8')).log
        .entries,
    ).toHaveLength(1);
  });
});

describe('X: HAR export', () => {
  it('writes the records as HAR to a file named by the time', async () => {
    const { effects } = setup('file');
    const records = [makeRecord({ target: '/a' }), makeRecord({ target: '/b' })];
    const notice = await effects.exportHar(records, 'method:POST');
    const name = 'webhook-20261124-043005.har';
    expect(notice.text).toBe(`2 requests matching /method:POST exported to ./${name} (HAR 1.2)`);
    const har = JSON.parse(readFileSync(join(directory, name), 'utf8'));
    expect(har.log.version).toBe('1.2');
    expect(har.log.entries).toHaveLength(2);
  });

  it('writes entry by entry: more than one string can hold (nine bodies within the default --max-body)', async () => {
    const effects = createEffects({
      environment: { editor: 'true', clipboard: 'file', directory },
      services: uiServices({
        replay: async (record) => record,
        replayTarget: () => null,
        resignRefusal: () => null,
      }),
      writeTerminal: () => {},
      suspend: async (work) => work(),
      now: () => new Date(Date.UTC(2026, 10, 24, 4, 30, 5)),
    });
    // Control bytes are valid UTF-8 and six characters each in JSON: 60 MiB of text per body.
    const body = Buffer.alloc(10 * 1024 * 1024, 1);
    const records = Array.from({ length: 9 }, () => makeRecord({ body }));
    const notice = await effects.exportHar(records, '');
    expect(notice.tone).toBe('good');
    const file = join(directory, 'webhook-20261124-043005.har');
    expect(statSync(file).size).toBeGreaterThan(9 * 60 * 1024 * 1024);
    // Its end closes the document the start opened.
    const head = await new Promise<string>((resolve) => {
      createReadStream(file, { start: 0, end: 40, encoding: 'utf8' }).on('data', (chunk) =>
        resolve(String(chunk)),
      );
    });
    expect(head).toMatch(/^\{"log":\{"version":"1\.2"/);
    const tail = Buffer.alloc(5);
    const fd = openSync(file, 'r');
    readSync(fd, tail, 0, 5, statSync(file).size - 5);
    closeSync(fd);
    expect(tail.toString()).toBe('\n]}}\n');
  }, 120_000);
});

describe('r and e: replay', () => {
  it('replays as captured, and reports the answer', async () => {
    const { effects, replays, suspended } = setup('file');
    const record = makeRecord();
    const notice = await effects.replay(record, 'http://127.0.0.1:3000', false);
    expect(replays).toEqual([{ record, to: 'http://127.0.0.1:3000', edits: undefined }]);
    // null: the record's own target, left to the capture (its route shapes the path)
    await effects.replay(record, null, false);
    expect(replays[1]).toEqual({ record, to: undefined, edits: undefined });
    expect(suspended()).toBe(0);
    expect(notice).toEqual({
      text: expect.stringMatching(/replay of #\d+ → 201 Created in 4 ms$/),
      tone: 'good',
    });
  });

  it('opens $EDITOR with the UI taken down, then replays what was saved', async () => {
    const editor = join(directory, 'edit.sh');
    writeFileSync(editor, `#!/bin/sh\nsed -i -e 's/GET/PUT/' -e 's/"a"/"b"/' "$1"\n`);
    chmodSync(editor, 0o755);
    const { effects, replays, suspended } = setup('file', editor);
    const record = makeRecord({
      method: 'GET',
      target: '/x?y=1',
      headers: [
        ['Host', 'h'],
        ['Content-Length', '5'],
      ],
      body: Buffer.from('{"a"}'),
    });
    await effects.replay(record, 'http://t.test', true);
    expect(suspended()).toBe(1);
    expect(replays[0]?.edits).toEqual({
      method: 'PUT',
      target: '/x?y=1',
      headers: [['Host', 'h']],
      body: Buffer.from('{"b"}'),
    });
  });

  it('a truncated request saved unchanged in the editor is not sent (its kept start went out)', async () => {
    const receiver = await startReceiver();
    onTestFinished(() => receiver.close());
    const real = createEffects({
      environment: { editor: 'true', clipboard: 'file', directory },
      services: {
        replay: async (record, request) =>
          StoredRequest.from(
            99,
            await replay(record, { to: request.to ?? receiver.url, ...request }),
          ),
        curl: toCurl,
        har: () => [],
      },
      writeTerminal: () => {},
      suspend: async (work) => work(),
      now: () => new Date(),
    });
    const record = makeRecord({ body: Buffer.from('{"st'), size: 100, truncated: true });
    const notice = await real.replay(record, receiver.url, true);
    expect(notice.text).toContain('body truncated by --max-body when captured; not replayed');
    expect(receiver.received).toEqual([]);
  });

  it('replays nothing when the editor fails', async () => {
    const { effects, replays } = setup('file', 'false');
    const notice = await effects.replay(makeRecord(), 'http://t.test', true);
    expect(notice).toEqual({ text: 'Editor exited with 1: nothing replayed', tone: 'bad' });
    expect(replays).toEqual([]);
  });
});

describe('the editable request', () => {
  const original = {
    method: 'POST',
    target: '/hooks?a=1',
    headers: [
      ['Content-Type', 'application/json'],
      ['X-Name', Buffer.from('Zoë').toString('latin1')],
    ] as [string, string][],
    body: Buffer.from('{"a":1}'),
  };

  it('round-trips byte for byte, even through an editor that adds a final newline', () => {
    const text = toEditableText(original);
    expect(text.toString('latin1')).toContain(
      'POST /hooks?a=1 HTTP/1.1\nContent-Type: application/json\n',
    );
    for (const edited of [text, Buffer.concat([text, Buffer.from('\n')])]) {
      const back = fromEditableText(edited, original);
      expect(back).toEqual({ ok: true, request: original });
    }
  });

  it('accepts CRLF line ends and drops Content-Length', () => {
    const edited = Buffer.from('PUT /x HTTP/1.1\r\nContent-Length: 3\r\nA: b\r\n\r\nxyz');
    expect(fromEditableText(edited, original)).toEqual({
      ok: true,
      request: { method: 'PUT', target: '/x', headers: [['A', 'b']], body: Buffer.from('xyz') },
    });
  });

  it('says what is wrong with a broken first line or header', () => {
    expect(fromEditableText(Buffer.from('garbage\n\n'), original)).toMatchObject({ ok: false });
    expect(fromEditableText(Buffer.from('GET / HTTP/1.1\nno colon\n\n'), original)).toEqual({
      ok: false,
      error: 'Not a header line: no colon',
    });
  });
});

describe('environment', () => {
  it('trusts OSC 52 only in terminals known to take it', () => {
    expect(clipboardSupport({ TERM: 'xterm-kitty' })).toBe('osc52');
    expect(clipboardSupport({ TERM_PROGRAM: 'iTerm.app', TERM: 'xterm-256color' })).toBe('osc52');
    expect(clipboardSupport({ WT_SESSION: 'x' })).toBe('osc52');
    expect(clipboardSupport({ TERM: 'xterm-256color' })).toBe('file');
    expect(clipboardSupport({ TERM: 'xterm-kitty', TMUX: '/tmp/tmux-0/default' })).toBe('file');
    expect(clipboardSupport({ TERM: 'screen-256color' })).toBe('file');
    expect(clipboardSupport({ TERM: 'xterm', WEBHOOK_CLIPBOARD: 'osc52' })).toBe('osc52');
    expect(clipboardSupport({ TERM: 'xterm-kitty', WEBHOOK_CLIPBOARD: 'file' })).toBe('file');
  });

  it('takes $VISUAL, then $EDITOR, then vi', () => {
    expect(uiEnvironment({ VISUAL: 'code --wait', EDITOR: 'nano' }, '/d').editor).toBe(
      'code --wait',
    );
    expect(uiEnvironment({ EDITOR: 'nano' }, '/d').editor).toBe('nano');
    expect(uiEnvironment({}, '/d')).toEqual({ editor: 'vi', clipboard: 'file', directory: '/d' });
  });
});
