import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { type RunningCapture, startCapture } from '../src/app.js';
import type { CapturedRequest } from '../src/capture/record.js';
import { RequestStore } from '../src/capture/store.js';
import { toCurl } from '../src/export/curl.js';
import { toHar } from '../src/export/har.js';
import { requestJson } from '../src/output/json.js';
import {
  loadInto,
  MAX_LINE_VALUES,
  openSession,
  readSession,
  recordFromJson,
} from '../src/session/session.js';
import { captureConfig, runCli, sendRaw, waitFor } from './helpers.js';
import { startReceiver } from './receiver.js';

const run = promisify(execFile);
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the check
const CONTROLS = /[\u0000-\u0008\u000b-\u001f]/;
const dir = mkdtempSync(join(tmpdir(), 'webhook-session-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Captures a few awkward requests and returns the records as completed. */
async function captureSome(
  save?: string,
): Promise<{ capture: RunningCapture; records: CapturedRequest[] }> {
  const capture = await startCapture(captureConfig());
  cleanups.push(() => capture.close());
  const records: CapturedRequest[] = [];
  const session = save ? openSession(save) : null;
  capture.onRecord((record) => {
    records.push(record);
    session?.append(record);
  });
  cleanups.push(() => session?.close());
  const port = Number(new URL(capture.address).port);
  await sendRaw(
    port,
    Buffer.concat([
      Buffer.from(
        'POST /hooks/bin?a=1&a=2 HTTP/1.1\r\nHost: h.test\r\nX-Case: One\r\nx-case: two\r\n' +
          'X-Latin: caf\xe9\r\nX-Utf8: Zo\xc3\xab\r\nContent-Length: 6\r\nConnection: close\r\n\r\n',
        'latin1',
      ),
      Buffer.from([0x00, 0xff, 0x27, 0x0a, 0x40, 0x1b]),
    ]),
  );
  const json = '{"it\'s":"12.50\\n"}\n';
  await sendRaw(
    port,
    `PUT /t?q=it's HTTP/1.1\r\nHost: h.test\r\nContent-Type: application/json\r\nContent-Length: ${json.length}\r\nConnection: close\r\n\r\n${json}`,
  );
  await waitFor(() => records.length === 2);
  return { capture, records };
}

describe('sessions', () => {
  it('--save writes each record as it completes; --load brings back the exact bytes, header order and case', async () => {
    const file = join(dir, 'roundtrip.jsonl');
    const { records } = await captureSome(file);
    const lines = readFileSync(file, 'utf8').trimEnd().split('\n');
    expect(lines).toHaveLength(2);
    const store = new RequestStore({ maxRequests: 10, maxMemory: 1 << 20 });
    const count = await loadInto(
      readSession(file, { maxLineBytes: 1 << 20 }),
      (draft) => store.add(draft),
      10,
    );
    expect(count).toBe(2);
    const loaded = store.snapshot().records;
    for (const [i, original] of records.entries()) {
      const copy = loaded[i] as CapturedRequest;
      expect(copy.body).toEqual(original.body);
      expect(copy.headers).toEqual(original.headers);
      expect(copy.query).toEqual(original.query);
      expect(copy.target).toBe(original.target);
      expect(copy.receivedAt).toBe(original.receivedAt);
      expect(copy.response).toEqual(original.response);
      // Written again, it is the same line.
      expect(requestJson(copy)).toBe(lines[i]);
    }
    const latin = JSON.parse(lines[0] as string).headers as unknown[][];
    expect(latin).toContainEqual([
      'X-Latin',
      Buffer.from('caf\xe9', 'latin1').toString('base64'),
      'base64',
    ]);
    expect(latin).toContainEqual(['X-Utf8', 'Zoë']);
  });

  it('links replays to their originals again after loading (new seqs)', async () => {
    const file = join(dir, 'links.jsonl');
    const original = JSON.parse(requestJson((await captureSome()).records[0] as CapturedRequest));
    writeFileSync(
      file,
      [
        JSON.stringify({ ...original, seq: 7 }),
        JSON.stringify({ ...original, seq: 8, replayOf: 7, remote: 'replay' }),
        '',
      ].join('\n'),
    );
    const store = new RequestStore({ maxRequests: 10, maxMemory: 1 << 20 });
    await loadInto(readSession(file, { maxLineBytes: 1 << 20 }), (draft) => store.add(draft), 10);
    expect(store.snapshot().records.map((record) => [record.seq, record.replayOf])).toEqual([
      [1, undefined],
      [2, 1],
    ]);
  });

  it('refuses hostile lines with the line number and what is wrong', async () => {
    const valid = JSON.parse(requestJson((await captureSome()).records[1] as CapturedRequest));
    const cases: [string, RegExp][] = [
      ['{"seq":', /not valid JSON/],
      ['[1,2]', /must be a JSON object/],
      [JSON.stringify({ ...valid, seq: -1 }), /seq: must be a positive integer/],
      [JSON.stringify({ ...valid, size: 1e300 }), /size: must be a byte count/],
      [JSON.stringify({ ...valid, size: 1 }), /size: smaller than the body/],
      [
        JSON.stringify({ ...valid, method: 'GET /x HTTP/1.1\r\n' }),
        /method: must be an HTTP token/,
      ],
      [JSON.stringify({ ...valid, target: '/a b\u001b[2J' }), /target: must be a request target/],
      [JSON.stringify({ ...valid, headers: [['X-A', 'v\r\nInjected: 1']] }), /line break or NUL/],
      [JSON.stringify({ ...valid, headers: [['Bad Name', 'v']] }), /HTTP token/],
      [JSON.stringify({ ...valid, headers: 'nope' }), /headers: must be a list/],
      [JSON.stringify({ ...valid, bodyEncoding: 'base64', body: '***' }), /body: is not base64/],
      [
        JSON.stringify({
          ...valid,
          forward: { target: 'x', failure: 'meteor', message: '', durationMs: 1 },
        }),
        /forward\.failure/,
      ],
      [
        JSON.stringify({ ...valid, verification: { scheme: 'md5', ok: true, reason: '' } }),
        /verification\.scheme/,
      ],
      [
        JSON.stringify({ ...valid, headers: Array.from({ length: 200_000 }, () => ['a', 'b']) }),
        /more than/,
      ],
    ];
    for (const [line, message] of cases) {
      expect(() => recordFromJson(line), line.slice(0, 60)).toThrow(message);
    }
    const file = join(dir, 'hostile.jsonl');
    writeFileSync(file, `${JSON.stringify(valid)}\n\n{"seq":1,"time":5}\n`);
    await expect(consume(file, 1 << 20)).rejects.toThrow(
      `${file}:3: time: must be an ISO 8601 time`,
    );
    const huge = join(dir, 'huge.jsonl');
    writeFileSync(huge, `${JSON.stringify(valid)}\n${'x'.repeat(300_000)}`);
    await expect(consume(huge, 100_000)).rejects.toThrow(
      `${huge}:2: line longer than 100000 bytes`,
    );
  });
});

describe('--load line bounds (an 18.8 MB line of tiny values was parsed for 16.6 s in 1.04 GB)', () => {
  it(`refuses a line of more than ${MAX_LINE_VALUES} JSON values before parsing it`, async () => {
    const file = join(dir, 'values.jsonl');
    // About 12 MB: within the byte limit, but 1.2 million arrays and 2.4 million strings.
    writeFileSync(file, `{"seq":1,"headers":[${'["a","b"],'.repeat(1_200_000)}[]]}\n`);
    const parse = vi.spyOn(JSON, 'parse');
    try {
      await expect(consume(file, 64 << 20)).rejects.toThrow(
        `${file}:1: line holds more than ${MAX_LINE_VALUES} JSON values (not a saved record)`,
      );
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });

  it('still reads a record with as many headers and query pairs as a request can carry', async () => {
    const file = join(dir, 'many.jsonl');
    const query = Array.from({ length: 20_000 }, (_, i) => `q${i}=${i}`).join('&');
    const headers = Array.from({ length: 30_000 }, (_, i) => [`h${i}`, 'v']);
    const record = {
      seq: 1,
      time: new Date(0).toISOString(),
      method: 'GET',
      url: `http://h.test/?${query}`,
      path: '/',
      target: `/?${query}`,
      query: query.split('&').map((pair) => pair.split('=')),
      headers,
      remote: '127.0.0.1:1',
      httpVersion: '1.1',
      size: 0,
      truncated: false,
      bodyEncoding: 'utf8',
      body: '',
    };
    writeFileSync(file, `${JSON.stringify(record)}\n`);
    const loaded = [];
    for await (const entry of readSession(file, { maxLineBytes: 64 << 20 })) loaded.push(entry);
    expect(loaded[0]?.draft.headers).toHaveLength(30_000);
  });
});

async function consume(file: string, maxLineBytes: number) {
  for await (const _record of readSession(file, { maxLineBytes })) {
    // reading is the point
  }
}

describe('export', () => {
  it('curl: the command, run by the real curl, sends the same bytes (binary bodies through a file)', async () => {
    const { records } = await captureSome();
    const app = await startReceiver();
    cleanups.push(() => app.close());
    for (const [i, record] of records.entries()) {
      const bodyFilePath = join(dir, `body-${i}.bin`);
      const curl = toCurl(record, { bodyFilePath, origin: app.url });
      if (!curl.ok) throw new Error(curl.reason);
      if (curl.bodyFile) writeFileSync(curl.bodyFile.path, curl.bodyFile.bytes);
      await run('bash', ['-c', curl.command]);
      const seen = app.received[i];
      expect(seen?.method).toBe(record.method);
      expect(seen?.url).toBe(record.target);
      expect(seen?.body).toEqual(record.body);
      const names = (seen?.rawHeaders ?? []).filter((_, j) => j % 2 === 0);
      const expected = record.headers
        .map(([name]) => name)
        .filter((name) => !/^(host|content-length|connection)$/i.test(name));
      expect(names.filter((name) => expected.includes(name))).toEqual(expected);
      for (const [name, value] of record.headers.filter(([n]) => n.startsWith('X-'))) {
        const at = seen?.rawHeaders.indexOf(name) ?? -1;
        expect(seen?.rawHeaders[at + 1]).toBe(value);
      }
    }
    const first = toCurl(records[0] as CapturedRequest);
    expect(first.ok && first.command).not.toMatch(CONTROLS);
  });

  it('HAR 1.2: request, response, base64 for binary bodies', async () => {
    const { records } = await captureSome();
    const har = toHar(records);
    expect(har.log.version).toBe('1.2');
    const [binary, text] = har.log.entries as {
      request: {
        method: string;
        url: string;
        headers: { name: string; value: string }[];
        postData: { text: string; encoding?: string };
        queryString: unknown[];
      };
      response: { status: number; content: { text: string } };
    }[];
    expect(binary?.request.postData).toMatchObject({
      encoding: 'base64',
      text: Buffer.from([0, 255, 39, 10, 64, 27]).toString('base64'),
    });
    expect(binary?.request.queryString).toEqual([
      { name: 'a', value: '1' },
      { name: 'a', value: '2' },
    ]);
    expect(binary?.request.headers.find((header) => header.name === 'X-Utf8')?.value).toBe('Zoë');
    expect(text?.request.postData.text).toBe('{"it\'s":"12.50\\n"}\n');
    expect(text?.response).toMatchObject({ status: 200, content: { text: '{"status":"ok"}' } });
  });
});

describe('headless commands', () => {
  it('webhook replay --from FILE --all --to URL, then webhook export --har and --curl', async () => {
    const file = join(dir, 'cli.jsonl');
    await captureSome(file);
    const app = await startReceiver();
    cleanups.push(() => app.close());
    const out = join(dir, 'replays.jsonl');
    const har = join(dir, 'out.har');
    const [replayed, exported] = await Promise.all([
      runCli(['replay', '--from', file, '--all', '--to', app.url, '--save', out], { cwd: dir }),
      runCli(['export', '--from', file, '--har', har], { cwd: dir }),
    ]);
    expect(replayed.stderr).toMatch(
      /#1 POST → http:\/\/127\.0\.0\.1:\d+\/hooks\/bin\?a=1&a=2: 201 Created/,
    );
    expect(replayed.code).toBe(0);
    expect(app.received.map((request) => request.url)).toEqual(['/hooks/bin?a=1&a=2', "/t?q=it's"]);
    const lines = replayed.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines.map((line) => [line.replayOf, line.forward.status])).toEqual([
      [1, 201],
      [2, 201],
    ]);
    expect(readFileSync(out, 'utf8').trimEnd().split('\n')).toHaveLength(2);
    expect(exported.code).toBe(0);
    expect(JSON.parse(readFileSync(har, 'utf8')).log.entries).toHaveLength(2);

    const [curl, missing] = await Promise.all([
      runCli(['export', '--from', file, '--curl', '--id', '2'], { cwd: dir }),
      runCli(['replay', '--from', file, '--id', '9', '--to', app.url], { cwd: dir }),
    ]);
    expect(curl.stdout).toMatch(
      /^curl .* -X 'PUT' --url 'http:\/\/127\.0\.0\.1:\d+' --request-target '\/t\?q=it'\\''s'/,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('no record with seq 9');
  });
});
