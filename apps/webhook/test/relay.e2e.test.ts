// The relay and its clients as users run them: `webhook relay serve`, `webhook relay create`, and
// `webhook --relay <send URL> --json`, each in its own process. Deliveries are signed by the
// providers' own libraries, sent with header names in their own case, and must verify after the
// relay exactly as they do when sent directly.
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sign as githubSign, verify as githubVerify } from '@octokit/webhooks-methods';
import { Webhook } from 'standardwebhooks';
import Stripe from 'stripe';
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

const ADMIN_TOKEN = 'relay-admin-token-for-tests-0123456789';
const GITHUB_SECRET = 'gh-relay-secret';
const STRIPE_SECRET = 'whsec_relay_stripe';
const STANDARD_SECRET = `whsec_${Buffer.from('a standard webhooks relay secret').toString('base64')}`;
const stripe = new Stripe('sk_test_not_used_for_network');

/** JSON as providers write it: spacing, key order and escapes a re-serialiser would change. */
const PAYLOAD = Buffer.from(
  '{"action":  "opened",\n  "note":"Zo\\u00eb ✓", "amount": 12.50, "n": 1e3}',
);

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends with Node's http client, headers as raw pairs: names keep their case and order. */
function send(url: string, method: string, headers: [string, string][], body = Buffer.alloc(0)) {
  const target = new URL(url);
  return new Promise<Answer>((resolve, reject) => {
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        method,
        path: `${target.pathname}${target.search}`,
        headers: [...headers.flat(), 'Content-Length', String(body.length), 'Host', target.host],
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => {
          text += chunk;
        });
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
        );
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

interface JsonRecord {
  method: string;
  target: string;
  headers: [string, string][];
  body: string;
  bodyEncoding: 'utf8' | 'base64';
  remote: string;
  relayedVia?: string;
  verification?: { scheme: string; ok: boolean; reason: string };
}

const records = (cli: RunningCli): JsonRecord[] =>
  cli.stdout
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as JsonRecord);

const bodyOf = (record: JsonRecord) =>
  Buffer.from(record.body, record.bodyEncoding === 'base64' ? 'base64' : 'utf8');

const header = (record: JsonRecord, name: string) =>
  record.headers.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1] ?? '';

const adminEnv = { WEBHOOK_RELAY_ADMIN_TOKEN: ADMIN_TOKEN };

async function createChannel(server: string, extra: string[] = []) {
  const run = await runCli(['relay', 'create', '--server', server, '--json', ...extra], {
    env: adminEnv,
  });
  expect(run.stderr).toBe('');
  expect(run.code).toBe(0);
  return JSON.parse(run.stdout) as { sendUrl: string; token: string };
}

const work = mkdtempSync(join(tmpdir(), 'webhook-relay-e2e-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));
const configFile = join(work, 'config.yaml');
writeFileSync(
  configFile,
  [
    'routes:',
    '  - path: /github',
    `    verify: {scheme: github, secret: ${GITHUB_SECRET}}`,
    '  - path: /stripe',
    `    verify: {scheme: stripe, secret: ${STRIPE_SECRET}}`,
    '  - path: /standard',
    `    verify: {scheme: standard-webhooks, secret: "${STANDARD_SECRET}"}`,
    '  - path: /created',
    '    response: {status: 201, headers: {X-Local: yes}, body: made locally}',
    '',
  ].join('\n'),
);

/** Every process started, so a failing test leaves none behind. */
const started: RunningCli[] = [];

/** A client process listening to `channel`; its cursor lives under `stateHome`. */
function startClient(channel: { sendUrl: string; token: string }, stateHome: string) {
  const client = new RunningCli(
    ['--relay', channel.sendUrl, '--json', '--port', '0', '-c', configFile],
    {
      env: { WEBHOOK_RELAY_TOKEN: channel.token, XDG_STATE_HOME: stateHome },
    },
  );
  started.push(client);
  return client;
}

const connected = (cli: RunningCli, times = 1) =>
  waitFor(
    () => (cli.stderr.match(/relay: connected/g) ?? []).length >= times,
    () => cli.stderr,
    90_000,
  );

// Each process starts through tsx; on a busy machine that takes seconds.
describe('the relay between senders on the internet and webhook --relay', {
  timeout: 200_000,
}, () => {
  let relay: RunningCli;
  let server: string;
  let channel: { sendUrl: string; token: string };
  let first: RunningCli;
  let second: RunningCli;
  const secondState = join(work, 'second');

  beforeAll(async () => {
    relay = new RunningCli(
      ['relay', 'serve', '--host', '127.0.0.1', '--port', '0', '--log-level', 'warn'],
      {
        env: adminEnv,
      },
    );
    server = await addressOf(relay);
    channel = await createChannel(server);
    first = startClient(channel, join(work, 'first'));
    second = startClient(channel, secondState);
    await Promise.all([connected(first), connected(second)]);
  }, 200_000);

  afterAll(async () => {
    await Promise.all([...started.map((client) => client.stop()), relay?.stop()]);
  }, 90_000);

  it('hands out an unguessable send URL and a secret token', () => {
    expect(channel.sendUrl).toMatch(new RegExp(`^${server}/c/[A-Za-z0-9_-]{22}$`));
    expect(channel.token).toMatch(/^whr_[A-Za-z0-9_-]{43}$/);
  });

  it('relays signed GitHub, Stripe and Standard Webhooks deliveries byte for byte: they verify in every listener', async () => {
    const githubHeaders: [string, string][] = [
      ['X-GitHub-Event', 'issues'],
      ['X-Hub-Signature-256', await githubSign(GITHUB_SECRET, PAYLOAD.toString())],
      ['content-type', 'application/json'],
    ];
    const stripeHeaders: [string, string][] = [
      [
        'Stripe-Signature',
        stripe.webhooks.generateTestHeaderString({
          payload: PAYLOAD.toString(),
          secret: STRIPE_SECRET,
        }),
      ],
      ['Content-Type', 'application/json; charset=utf-8'],
    ];
    const now = new Date();
    const standardHeaders: [string, string][] = [
      ['webhook-id', 'msg_relay_1'],
      ['webhook-timestamp', String(Math.floor(now.getTime() / 1000))],
      [
        'webhook-signature',
        new Webhook(STANDARD_SECRET).sign('msg_relay_1', now, PAYLOAD.toString()),
      ],
    ];
    for (const [path, headers] of [
      ['/github?delivery=1&x=%20y', githubHeaders],
      ['/stripe', stripeHeaders],
      ['/standard', standardHeaders],
    ] as const) {
      const answer = await send(`${channel.sendUrl}${path}`, 'POST', [...headers], PAYLOAD);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe('{"status":"ok"}');
    }
    for (const client of [first, second]) {
      await waitFor(
        () => records(client).length >= 3,
        () => client.stdout + client.stderr,
      );
      const [github, stripeRecord, standard] = records(client).slice(-3) as [
        JsonRecord,
        JsonRecord,
        JsonRecord,
      ];
      for (const record of [github, stripeRecord, standard]) {
        expect(bodyOf(record).equals(PAYLOAD)).toBe(true);
        expect(record.relayedVia).toBe(channel.sendUrl);
        expect(record.remote).toMatch(/^127\.0\.0\.1:\d+$/);
        expect(record.verification?.ok).toBe(true);
      }
      expect(github.target).toBe('/github?delivery=1&x=%20y');
      // Names in their case and order, as the sender wrote them.
      expect(github.headers.map(([name]) => name)).toEqual([
        'X-GitHub-Event',
        'X-Hub-Signature-256',
        'content-type',
        'Content-Length',
        'Host',
        'Connection',
      ]);
      expect(
        await githubVerify(
          GITHUB_SECRET,
          bodyOf(github).toString(),
          header(github, 'x-hub-signature-256'),
        ),
      ).toBe(true);
      expect(() =>
        stripe.webhooks.constructEvent(
          bodyOf(stripeRecord),
          header(stripeRecord, 'stripe-signature'),
          STRIPE_SECRET,
        ),
      ).not.toThrow();
      expect(
        new Webhook(STANDARD_SECRET).verify(
          bodyOf(standard).toString(),
          Object.fromEntries(standard.headers),
        ),
      ).toEqual(JSON.parse(PAYLOAD.toString()));
    }
  });

  it('relays every method, and every listener gets every request in order', async () => {
    const before = records(first).length;
    const methods = ['GET', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'PROPFIND'];
    for (let i = 0; i < 24; i += 1) {
      const method = methods[i % methods.length] as string;
      const answer = await send(
        `${channel.sendUrl}/order/${i}`,
        method,
        [['X-Order', String(i)]],
        Buffer.from(`#${i}`),
      );
      expect(answer.status).toBe(200);
    }
    for (const client of [first, second]) {
      await waitFor(
        () => records(client).length >= before + 24,
        () => client.stderr,
      );
      const got = records(client).slice(-24);
      expect(got.map((record) => record.target)).toEqual(
        Array.from({ length: 24 }, (_, i) => `/order/${i}`),
      );
      expect(got.map((record) => record.method)).toEqual(
        Array.from({ length: 24 }, (_, i) => methods[i % methods.length]),
      );
    }
  });

  it('a relayed request exported as curl goes back through its channel (it went to the relay host’s root)', async () => {
    const before = records(first).length;
    const body = Buffer.from('{"again":true}');
    const answer = await send(`${channel.sendUrl}/hooks/x?n=1`, 'POST', [['X-Trace', 'a']], body);
    expect(answer.status).toBe(200);
    await waitFor(
      () => records(first).length > before,
      () => first.stderr,
    );
    const line = first.stdout
      .split('\n')
      .filter((text) => text.startsWith('{'))
      .at(-1);
    const file = join(work, 'relayed.jsonl');
    writeFileSync(file, `${line}\n`);
    const exported = await runCli(['export', '--from', file, '--curl'], { cwd: work });
    expect(exported.stderr).toBe('');
    expect(exported.code).toBe(0);
    await promisify(execFile)('bash', ['-c', exported.stdout]);
    await waitFor(
      () => records(first).length > before + 1,
      () => first.stderr,
    );
    const again = records(first).at(-1) as JsonRecord;
    expect(again.target).toBe('/hooks/x?n=1');
    expect(again.relayedVia).toBeDefined();
    expect(header(again, 'X-Trace')).toBe('a');
    expect(bodyOf(again)).toEqual(body);
  });

  it('a client stopped for a while gets what it missed when it comes back, and nothing twice', async () => {
    await second.stop();
    for (let i = 0; i < 5; i += 1) {
      expect(
        (await send(`${channel.sendUrl}/while-away/${i}`, 'POST', [], Buffer.from(String(i))))
          .status,
      ).toBe(200);
    }
    second = startClient(channel, secondState);
    await waitFor(
      () => records(second).length >= 5,
      () => second.stdout + second.stderr,
      90_000,
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(records(second).map((record) => record.target)).toEqual(
      Array.from({ length: 5 }, (_, i) => `/while-away/${i}`),
    );
  });

  it('refuses a listener without the token, with another channel’s token, or with a revoked one', async () => {
    const events = (sendUrl: string) => `${sendUrl.replace('/c/', '/api/channels/')}/events`;
    const other = await createChannel(server);
    const noToken = await fetch(events(channel.sendUrl));
    expect(noToken.status).toBe(401);
    const otherToken = await fetch(events(channel.sendUrl), {
      headers: { Authorization: `Bearer ${other.token}` },
    });
    expect(otherToken.status).toBe(401);
    expect(await otherToken.json()).toEqual({
      error: 'unauthorized',
      message: 'the listen token is missing or wrong',
    });

    // A client of the other channel is connected when its token is rotated: it is dropped.
    const listening = startClient(other, join(work, 'other'));
    await connected(listening);
    const rotated = await runCli(
      ['relay', 'rotate', '--server', server, '--channel', other.sendUrl, '--json'],
      {
        env: adminEnv,
      },
    );
    expect(rotated.code).toBe(0);
    const fresh = JSON.parse(rotated.stdout) as { token: string; sendUrl: string };
    expect(fresh.sendUrl).toBe(other.sendUrl);
    expect(fresh.token).not.toBe(other.token);
    await waitFor(
      () => /relay: refused/.test(listening.stderr),
      () => listening.stderr,
    );
    await listening.stop();
    const revoked = await fetch(events(other.sendUrl), {
      headers: { Authorization: `Bearer ${other.token}` },
    });
    expect(revoked.status).toBe(401);
    const allowed = await fetch(events(other.sendUrl), {
      headers: { Authorization: `Bearer ${fresh.token}` },
    });
    expect(allowed.status).toBe(200);
    await allowed.body?.cancel();

    // The refusals are in the relay's log, without the tokens.
    await waitFor(
      () => (relay.stdout.match(/listener refused/g) ?? []).length >= 3,
      () => relay.stdout,
    );
    expect(relay.stdout).not.toContain(other.token);
    expect(relay.stdout).not.toContain(channel.token);

    const deleted = await runCli(
      ['relay', 'delete', '--server', server, '--channel', other.sendUrl],
      { env: adminEnv },
    );
    expect(deleted.code).toBe(0);
    expect((await send(`${other.sendUrl}/gone`, 'POST', [])).status).toBe(404);
  });

  it('refuses admin calls without the admin token', async () => {
    const run = await runCli(['relay', 'create', '--server', server], {
      env: { WEBHOOK_RELAY_ADMIN_TOKEN: 'not-the-admin-token-of-this-relay' },
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain('relay: 401 the admin token is missing or wrong');
  });

  it('a channel answers what its creator set, the rest as a config file’s response: no body, a type from the body', async () => {
    const answers = async (options: string[]) => {
      const made = await createChannel(server, options);
      const answer = await send(`${made.sendUrl}/hook`, 'POST', [], Buffer.from('{}'));
      return { status: answer.status, type: answer.headers['content-type'], body: answer.body };
    };
    expect(await answers([])).toEqual({
      status: 200,
      type: 'application/json',
      body: '{"status":"ok"}',
    });
    // A status alone said JSON and sent nothing.
    expect(await answers(['--status', '202'])).toEqual({ status: 202, type: undefined, body: '' });
    expect(await answers(['--body', 'thanks'])).toEqual({
      status: 200,
      type: 'text/plain; charset=utf-8',
      body: 'thanks',
    });
    expect(await answers(['--status', '201', '--body', '{"queued":true}'])).toEqual({
      status: 201,
      type: 'application/json',
      body: '{"queued":true}',
    });
    expect(await answers(['--header', 'Content-Type: application/xml', '--body', '<ok/>'])).toEqual(
      { status: 200, type: 'application/xml', body: '<ok/>' },
    );
  });

  it('--wait-for-local: the sender gets the local answer; with nobody listening, 503 and the event waits', async () => {
    const waiting = await createChannel(server, ['--wait-for-local']);
    const nobody = await send(`${waiting.sendUrl}/created`, 'POST', [], Buffer.from('early'));
    expect(nobody.status).toBe(503);
    expect(nobody.body).toContain('no listener connected');
    const client = startClient(waiting, join(work, 'waiting'));
    try {
      await connected(client);
      const answer = await send(
        `${waiting.sendUrl}/created`,
        'POST',
        [['X-Try', '2']],
        Buffer.from('late'),
      );
      expect(answer.status).toBe(201);
      expect(answer.headers['x-local']).toBe('yes');
      expect(answer.body).toBe('made locally');
    } finally {
      await client.stop();
    }
  });
});
