// `webhook relay create` and `rotate` trust the relay's reply no more than any outside data: a
// reply that is not the expected JSON, holds a send URL or token of the wrong shape, or redirects
// elsewhere is refused with exit 1 and a one-line message; nothing of it reaches the terminal raw,
// and the admin token never follows a redirect.
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RELAY_ADMIN_TOKEN, runCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-relay-admin-'));
const env = { WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN };
const ID = 'AAAAAAAAAAAAAAAAAAAAAA';
const TOKEN = `whr_${'a'.repeat(43)}`;

/** Requests that reached the server a redirect points to, with their Authorization header. */
const stolen: (string | undefined)[] = [];
let thief: ReturnType<typeof createServer>;
let relay: ReturnType<typeof createServer>;
let base = '';

function reply(req: IncomingMessage, res: ServerResponse, thiefUrl: string) {
  const json = (status: number, value: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(typeof value === 'string' ? value : JSON.stringify(value));
  };
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const kind = path.split('/')[1] ?? '';
  switch (kind) {
    case 'esc':
      return json(201, {
        id: ID,
        sendUrl: `http://x/\u001b]0;TITLE\u0007\u001b[2J/c/${ID}`,
        token: TOKEN,
      });
    case 'token':
      return json(201, { id: ID, sendUrl: `http://x/c/${ID}`, token: 'whr_\u001b[31mred\u202e' });
    case 'notjson':
      return json(201, 'not json');
    case 'missing':
      return json(201, { id: 5 });
    case 'redirect':
      res.writeHead(307, { location: `${thiefUrl}/api/channels` });
      return res.end();
    default:
      return json(201, { id: ID, sendUrl: `http://x/c/${ID}`, token: TOKEN });
  }
}

beforeAll(async () => {
  thief = createServer((req, res) => {
    stolen.push(req.headers.authorization);
    req.resume();
    res.writeHead(201, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ id: ID, sendUrl: `http://x/c/${ID}`, token: TOKEN }));
  });
  await new Promise<void>((resolve) => thief.listen(0, '127.0.0.1', resolve));
  const thiefUrl = `http://127.0.0.1:${(thief.address() as AddressInfo).port}`;
  relay = createServer((req, res) => {
    req.resume();
    req.on('end', () => reply(req, res, thiefUrl));
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(relay.address() as AddressInfo).port}`;
});
afterAll(async () => {
  thief.close();
  relay.close();
  rmSync(dir, { recursive: true, force: true });
});

const create = (server: string, ...extra: string[]) =>
  runCli(['relay', 'create', '--server', server, ...extra], { cwd: dir, env });

// biome-ignore lint/suspicious/noControlCharactersInRegex: what must never reach a terminal
const RAW = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202e]/;

describe('relay create / rotate: the relay’s reply', () => {
  it('a well-formed reply is printed', async () => {
    const run = await create(`${base}/fine`, '--json');
    expect(run.code).toBe(0);
    expect(JSON.parse(run.stdout)).toEqual({ sendUrl: `http://x/c/${ID}`, token: TOKEN });
  });

  for (const [kind, message] of [
    ['esc', 'the send URL in its reply is not a send URL'],
    ['token', 'the token in its reply is not a listen token'],
    ['notjson', 'its reply is not JSON'],
    ['missing', 'the send URL in its reply is not a send URL'],
  ] as const) {
    for (const json of [[], ['--json']]) {
      it(`${kind}${json.length ? ' --json' : ''}: refused with exit 1, nothing raw on the terminal`, async () => {
        const run = await create(`${base}/${kind}`, ...json);
        expect(run.stderr).toContain(message);
        expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
        expect(run.stdout).not.toMatch(RAW);
        expect(run.stderr).not.toMatch(RAW);
        expect(run.stdout).not.toContain('undefined');
        expect(run.code).toBe(1);
      });
    }
  }

  it('rotate checks its reply the same way', async () => {
    const run = await runCli(['relay', 'rotate', '--server', `${base}/esc`, '--channel', ID], {
      cwd: dir,
      env,
    });
    expect(run.stderr).toContain('the send URL in its reply is not a send URL');
    expect(run.stdout).not.toMatch(RAW);
    expect(run.code).toBe(1);
  });

  it('a redirect is not followed: the admin token stays with the relay named', async () => {
    const run = await create(`${base}/redirect`);
    expect(run.stderr).toContain('redirect');
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    expect(run.code).toBe(1);
    expect(stolen).toEqual([]);
  });
});
