// Two relays behind a (pretend) load balancer, sharing one Redis: a sender hitting one relay
// reaches a client connected to the other, and a client resumes from either.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sign as githubSign, verify as githubVerify } from '@octokit/webhooks-methods';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunningCli, runCli, waitFor } from './helpers.js';

/** The base URL a relay prints once it listens (tsx startup takes seconds on a busy machine). */
async function addressOf(cli: RunningCli): Promise<string> {
  await waitFor(
    () => /listening on http:\/\/\S+/.test(cli.stderr),
    () => cli.stderr,
    90_000,
  );
  return /listening on (http:\/\/\S+)/.exec(cli.stderr)?.[1] ?? '';
}

const redisUrl = process.env.TEST_REDIS_URL;
const ADMIN_TOKEN = 'relay-admin-token-for-redis-tests-0123';
const adminEnv = { WEBHOOK_RELAY_ADMIN_TOKEN: ADMIN_TOKEN };

interface JsonRecord {
  target: string;
  headers: [string, string][];
  body: string;
  bodyEncoding: 'utf8' | 'base64';
  relayedVia?: string;
}

const records = (cli: RunningCli): JsonRecord[] =>
  cli.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as JsonRecord);

describe.skipIf(!redisUrl)(
  'with Redis (TEST_REDIS_URL): two relays share channels, buffers and listeners',
  { timeout: 200_000 },
  () => {
    // Made when the suite runs: a skipped suite runs no afterAll that would remove it.
    let work = '';
    beforeAll(() => {
      work = mkdtempSync(join(tmpdir(), 'webhook-relay-redis-'));
    });
    let relayA: RunningCli;
    let relayB: RunningCli;
    let a: string;
    let b: string;
    let channel: { sendUrl: string; token: string };
    const id = () => channel.sendUrl.slice(channel.sendUrl.lastIndexOf('/') + 1);
    const clients: RunningCli[] = [];

    const startRelay = () =>
      new RunningCli(
        [
          'relay',
          'serve',
          '--host',
          '127.0.0.1',
          '--port',
          '0',
          '--log-level',
          'warn',
          '--max-channels',
          '1000000',
        ],
        {
          env: { ...adminEnv, REDIS_URL: redisUrl ?? '' },
        },
      );
    const listen = (base: string) => {
      const client = new RunningCli(['--relay', `${base}/c/${id()}`, '--json', '--port', '0'], {
        env: { WEBHOOK_RELAY_TOKEN: channel.token, XDG_STATE_HOME: join(work, 'state') },
      });
      clients.push(client);
      return client;
    };
    const connected = (cli: RunningCli) =>
      waitFor(
        () => /relay: connected/.test(cli.stderr),
        () => cli.stderr,
        90_000,
      );

    beforeAll(async () => {
      relayA = startRelay();
      relayB = startRelay();
      [a, b] = await Promise.all([addressOf(relayA), addressOf(relayB)]);
      const created = await runCli(['relay', 'create', '--server', a, '--json'], { env: adminEnv });
      expect(created.code).toBe(0);
      channel = JSON.parse(created.stdout) as { sendUrl: string; token: string };
    }, 200_000);

    afterAll(async () => {
      if (channel)
        await runCli(['relay', 'delete', '--server', b, '--channel', id()], { env: adminEnv });
      await Promise.all([
        ...clients.map((client) => client.stop()),
        relayA?.stop(),
        relayB?.stop(),
      ]);
      rmSync(work, { recursive: true, force: true });
    }, 60_000);

    it('a signed delivery sent to one relay reaches a client of the other, verifiable; a client resumes from either', async () => {
      const first = listen(b);
      await connected(first);
      const body = '{"zen":  "Relays share a stream.",\n "hook_id": 1}';
      const signature = await githubSign('redis-secret', body);
      const answer = await fetch(`${a}/c/${id()}/github`, {
        method: 'POST',
        headers: { 'X-Hub-Signature-256': signature, 'Content-Type': 'application/json' },
        body,
      });
      expect(answer.status).toBe(200);
      await waitFor(
        () => records(first).length === 1,
        () => first.stdout + first.stderr,
        30_000,
      );
      const [record] = records(first) as [JsonRecord];
      expect(record.body).toBe(body);
      expect(record.relayedVia).toBe(`${b}/c/${id()}`);
      const header = record.headers.find(([name]) => name === 'X-Hub-Signature-256')?.[1] ?? '';
      expect(await githubVerify('redis-secret', record.body, header)).toBe(true);

      // Stopped; three sent through B; back on A: exactly the three, in order.
      await first.stop();
      for (let i = 0; i < 3; i += 1) {
        expect(
          (await fetch(`${b}/c/${id()}/missed/${i}`, { method: 'PUT', body: String(i) })).status,
        ).toBe(200);
      }
      const again = listen(a);
      await waitFor(
        () => records(again).length >= 3,
        () => again.stdout + again.stderr,
        90_000,
      );
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(records(again).map((r) => r.target)).toEqual(['/missed/0', '/missed/1', '/missed/2']);

      // Rotating through A drops the listener on A too, and B refuses the old token.
      const rotated = await runCli(['relay', 'rotate', '--server', b, '--channel', id()], {
        env: adminEnv,
      });
      expect(rotated.code).toBe(0);
      await waitFor(
        () => /relay: refused/.test(again.stderr),
        () => again.stderr,
        30_000,
      );
      const old = await fetch(`${b}/api/channels/${id()}/events`, {
        headers: { Authorization: `Bearer ${channel.token}` },
      });
      expect(old.status).toBe(401);
    });

    it('reports Redis in /health', async () => {
      const health = await fetch(`${a}/health`);
      expect(await health.json()).toEqual({ status: 'ok', store: 'redis' });
    });
  },
);
