// Statuses a configured or relayed answer may have (200–599: a 1xx left the sender waiting), and
// the record of an answer that carries no body (204, 304, any answer to HEAD).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createRelayChannel, RunningCli, runCli, sendRaw, startRelay, waitFor } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-statuses-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('answer statuses', () => {
  it.each([100, 101, 199])(
    'a config response.status %i exits 2 naming the range',
    async (status) => {
      const file = join(dir, `status-${status}.yaml`);
      writeFileSync(file, `response:\n  status: ${status}\n`);
      const run = await runCli(['-c', file, '--no-tui', '--port', '0'], { cwd: dir });
      expect(run.code).toBe(2);
      expect(run.stderr).toContain(
        `response.status: must be an integer from 200 to 599 (got ${status})`,
      );
    },
  );

  it('the relay refuses an answer with a 1xx status (400)', async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base, { waitForLocal: true });
    for (const status of [100, 101]) {
      const response = await fetch(`${relay.base}/api/channels/${channel.id}/events/1/answer`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${channel.token}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ status, headers: [], body: '' }),
      });
      expect(response.status).toBe(400);
      expect(await response.text()).toMatch(/status/);
    }
  });

  it('records no body for a 204, a 304 or an answer to HEAD (none was sent)', async () => {
    const file = join(dir, 'nobody.yaml');
    writeFileSync(
      file,
      [
        'response:',
        '  body: "{\\"ok\\":true}"',
        'routes:',
        '  - path: /no-content',
        '    response:',
        '      status: 204',
        '      body: gone',
        '  - path: /not-modified',
        '    response:',
        '      status: 304',
        '      body: same',
        '',
      ].join('\n'),
    );
    const cli = new RunningCli(['-c', file, '--json', '--port', '0'], { cwd: dir });
    cleanups.push(() => cli.stop());
    const port = Number(new URL(await cli.address()).port);
    const wire = await Promise.all(
      ['POST /no-content', 'GET /not-modified', 'HEAD /other', 'GET /other'].map((line) =>
        sendRaw(port, `${line} HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`),
      ),
    );
    expect(wire[3]).toMatch(/\r\n\r\n\{"ok":true\}$/);
    await waitFor(
      () => cli.stdout.trimEnd().split('\n').length === 4,
      () => cli.stdout,
    );
    const records = cli.stdout
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line));
    const byTarget = Object.fromEntries(
      records.map((record) => [`${record.method} ${record.target}`, record.response]),
    );
    expect(byTarget['POST /no-content']).toMatchObject({ status: 204, body: '' });
    expect(byTarget['GET /not-modified']).toMatchObject({ status: 304, body: '' });
    expect(byTarget['HEAD /other']).toMatchObject({ status: 200, body: '' });
    expect(byTarget['GET /other']).toMatchObject({ status: 200, body: '{"ok":true}' });
    for (const answer of wire.slice(0, 3)) expect(answer).toMatch(/\r\n\r\n$/);
  });
});
