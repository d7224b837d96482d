// Fields no HTTP message can carry (a line break or control character in a header value, a name
// that is not a token) from a relay event or a saved record: refused with a message, never a crash.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { sendRequest } from '../src/forward/client.js';
import { ForwardQueue } from '../src/forward/queue.js';
import { fakeRelay, RunningCli, runCli, waitFor } from './helpers.js';
import { startReceiver } from './receiver.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-hostile-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function receiver() {
  const app = await startReceiver();
  cleanups.push(() => app.close());
  return app;
}

const wire = (headers: [string, string][], target = '/hook') => ({
  receivedAt: Date.now(),
  method: 'POST',
  target,
  headers,
  body: Buffer.from('{}').toString('base64'),
  remote: '203.0.113.9:5000',
  httpVersion: '1.1',
  awaitsAnswer: false,
});

describe('a header Node cannot send', () => {
  it('sendRequest resolves with a forward error (it never rejects)', async () => {
    const app = await receiver();
    const request = {
      method: 'POST',
      target: '/x',
      headers: [['X-Evil', 'a\nb']] as [string, string][],
      body: Buffer.from('{}'),
    };
    const result = await sendRequest(request, `${app.url}/x`, {
      timeoutMs: 2000,
      maxResponseBody: 1024,
    });
    expect(result).toMatchObject({ kind: 'failure', failure: 'error' });
    expect(result.kind === 'failure' && result.message).toMatch(/X-Evil/);
    const queue = new ForwardQueue({
      concurrency: 2,
      maxQueued: 10,
      maxQueuedBytes: 1 << 20,
      timeoutMs: 2000,
      maxResponseBody: 1024,
    });
    cleanups.push(() => queue.close());
    const queued = await queue.submit(
      { ...request, headers: [['Bad Name', 'v']] as [string, string][] },
      `${app.url}/x`,
    );
    expect(queued).toMatchObject({ kind: 'failure', failure: 'error' });
    expect(queue.load.requests).toBe(0);
    expect(app.received).toHaveLength(0);
  });

  it('a relay event with one is refused with a message; the next event is forwarded', async () => {
    const app = await receiver();
    const relay = await fakeRelay(
      [
        wire([['X-Evil', 'a\nb']]),
        wire([['X-Ctl', 'a\u0001b']]),
        wire([['Bad Name', 'v']]),
        wire([['X-Ok', 'fine']], '/a b'),
        wire([['X-Ok', 'fine']], '/good'),
      ],
      (cleanup) => cleanups.push(cleanup),
    );
    const cli = new RunningCli(
      ['--json', '--port', '0', '--relay', relay, '--forward-to', app.url],
      { cwd: dir, env: { WEBHOOK_RELAY_TOKEN: 'whr_test', HOME: dir, XDG_CONFIG_HOME: dir } },
    );
    cleanups.push(() => cli.stop());
    await cli.address();
    await waitFor(
      () => app.received.length === 1 && /event 4 refused/.test(cli.stderr),
      () => cli.stderr,
    );
    expect(app.received.map((request) => request.url)).toEqual(['/good']);
    expect(cli.stderr).toMatch(/event 1 refused.*X-Evil/);
    expect(cli.stderr).toMatch(/event 2 refused.*X-Ctl/);
    expect(cli.stderr).toMatch(/event 3 refused.*name/);
    expect(cli.stderr).not.toMatch(/internal error|TypeError|\n\s+at /);
    expect(cli.child.exitCode).toBeNull();
  });

  it('replay --from a record holding one exits 2 naming the line and field', async () => {
    const app = await receiver();
    const file = join(dir, 'ctl.jsonl');
    const record = {
      seq: 1,
      time: new Date().toISOString(),
      method: 'POST',
      target: '/x',
      path: '/x',
      url: 'http://h/x',
      query: [],
      headers: [['X-Evil', 'a\u0001b']],
      bodyEncoding: 'utf8',
      body: '{}',
      size: 2,
      remote: '127.0.0.1:1',
      httpVersion: '1.1',
    };
    writeFileSync(file, `${JSON.stringify(record)}\n`);
    const run = await runCli(['replay', '--from', file, '--id', '1', '--to', app.url], {
      cwd: dir,
    });
    expect(run.stderr).toMatch(/ctl\.jsonl:1: headers\[0\]: the value holds a control character/);
    expect(run.stderr).not.toMatch(/internal error|TypeError|\n\s+at /);
    expect(run.code).toBe(2);
    expect(app.received).toHaveLength(0);
  });
});
