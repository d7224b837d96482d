// `webhook relay …` flags checked before anything starts: a bad one is exit 2 naming the flag,
// never a stack trace.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createRelayChannel, RELAY_ADMIN_TOKEN, runCli, startRelay } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-relay-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN };

/** A self-signed certificate and its key, as PEM files. */
function selfSigned(name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=relay.test',
  ]);
  return { cert, key };
}

const noCrash = (stderr: string) => expect(stderr).not.toMatch(/internal error|\n\s+at /);

/** Runs each command line; each must end with exit 2 and its message, never a stack trace. */
async function refusedAtStart(cases: readonly (readonly [readonly string[], string])[]) {
  const runs = await Promise.all(cases.map(([args]) => runCli([...args], { cwd: dir, env })));
  runs.forEach((run, index) => {
    expect(run.stderr).toContain(cases[index]?.[1]);
    noCrash(run.stderr);
    expect(run.code).toBe(2);
  });
}

describe('relay serve --tls-cert / --tls-key', () => {
  it('a file that is not PEM, or a key that is not the certificate’s, is exit 2 naming the flag', async () => {
    const one = selfSigned('one');
    const two = selfSigned('two');
    const serve = ['relay', 'serve', '--host', '127.0.0.1', '--port', '0'];
    await refusedAtStart([
      [
        [...serve, '--tls-cert', '/etc/hostname', '--tls-key', '/etc/hostname'],
        '--tls-cert /etc/hostname: ',
      ],
      [
        [...serve, '--tls-cert', one.cert, '--tls-key', '/etc/hostname'],
        '--tls-key /etc/hostname: ',
      ],
      [[...serve, '--tls-cert', one.key, '--tls-key', one.key], `--tls-cert ${one.key}: `],
      [[...serve, '--tls-cert', one.cert, '--tls-key', two.key], `--tls-key ${two.key}: `],
    ]);
  });
});

describe('a channel’s answer headers', () => {
  it('relay create refuses a header HTTP cannot carry, or one the relay computes, with exit 2', async () => {
    const create = (header: string) => [
      'relay',
      'create',
      '--server',
      'http://127.0.0.1:9',
      '--header',
      header,
    ];
    await refusedAtStart([
      [create('X-A: a\u0001'), '--header X-A: the value holds a control character'],
      [create('X-B: a\u007f'), '--header X-B: the value holds a control character'],
      [create('Connection: close'), '--header Connection: is computed by the relay'],
      [create('Content-Length: 3'), '--header Content-Length: is computed by the relay'],
    ]);
  });

  it('the relay API answers 400 for such a header instead of dropping it', async () => {
    const relay = await startRelay();
    try {
      for (const [header, message] of [
        [['X-A', 'a\u0001'], 'X-A: the value holds a control character'],
        [['Bad Name', 'x'], 'Bad Name: the name must be an HTTP token'],
        [['Transfer-Encoding', 'chunked'], 'Transfer-Encoding: is computed by the relay'],
      ] as const) {
        const response = await fetch(`${relay.base}/api/channels`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${RELAY_ADMIN_TOKEN}`,
            'Content-Type': 'application/json',
          },
          body: JSON.stringify({ response: { status: 202, headers: [header] } }),
        });
        expect(response.status).toBe(400);
        expect(((await response.json()) as { message: string }).message).toContain(message);
      }
      const fine = await createRelayChannel(relay.base, {
        response: { status: 202, headers: [['X-Ok', 'café']] },
      });
      const sent = await fetch(fine.sendUrl, { method: 'POST' });
      expect(sent.status).toBe(202);
      expect(sent.headers.get('x-ok')).toBe('café');
    } finally {
      await relay.app.close();
    }
  });
});

describe('a channel’s answer header beyond Latin-1', () => {
  it('relay create sends a value typed in UTF-8 as its UTF-8 bytes, as curl does', async () => {
    const relay = await startRelay();
    try {
      const run = await runCli(
        ['relay', 'create', '--server', relay.base, '--json', '--header', 'X-Note: café ☕'],
        { cwd: dir, env },
      );
      noCrash(run.stderr);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      const created = JSON.parse(run.stdout) as { sendUrl: string };
      const sent = await fetch(created.sendUrl, { method: 'POST' });
      // fetch gives header bytes as Latin-1 characters: the bytes are those of the UTF-8 text.
      const bytes = Buffer.from(sent.headers.get('x-note') ?? '', 'latin1');
      expect(bytes).toEqual(Buffer.from('café ☕', 'utf8'));
    } finally {
      await relay.app.close();
    }
  });

  it('the relay API names characters above U+00FF (a value is bytes) and keeps bytes exactly', async () => {
    const relay = await startRelay();
    try {
      const response = await fetch(`${relay.base}/api/channels`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${RELAY_ADMIN_TOKEN}`,
          'Content-Type': 'application/json',
        },
        body: JSON.stringify({ response: { headers: [['X-Note', 'café ☕']] } }),
      });
      expect(response.status).toBe(400);
      const { message } = (await response.json()) as { message: string };
      expect(message).toContain('X-Note: the value holds a character above U+00FF');
      expect(message).not.toContain('control character');
      const utf8 = Buffer.from('café ☕', 'utf8').toString('latin1');
      const fine = await createRelayChannel(relay.base, {
        response: { status: 202, headers: [['X-Note', utf8]] },
      });
      const sent = await fetch(fine.sendUrl, { method: 'POST' });
      expect(Buffer.from(sent.headers.get('x-note') ?? '', 'latin1').toString('utf8')).toBe(
        'café ☕',
      );
    } finally {
      await relay.app.close();
    }
  });
});

describe('flags named in their own messages', () => {
  it('relay serve --public-url names --public-url; --forward-timeout below 0.001 s is refused', async () => {
    const runs = await Promise.all([
      runCli(['relay', 'serve', '--port', '0', '--public-url', 'ftp://x'], { cwd: dir, env }),
      runCli(['relay', 'serve', '--port', '0', '--public-url', 'https://x/?q=1'], {
        cwd: dir,
        env,
      }),
      runCli(['--no-tui', '--port', '0', '--forward-timeout', '0.0001'], { cwd: dir }),
      runCli(['--no-tui', '--port', '0', '--forward-timeout', '0.0009'], { cwd: dir }),
    ]);
    expect(runs.map((run) => run.code)).toEqual([2, 2, 2, 2]);
    expect(runs[0]?.stderr).toContain('--public-url must be an http:// or https:// URL');
    expect(runs[1]?.stderr).toContain('--public-url must be an http:// or https:// URL');
    for (const run of runs.slice(0, 2)) expect(run.stderr).not.toContain('--server');
    expect(runs[2]?.stderr).toContain(
      '--forward-timeout must be a number of seconds from 0.001 to 3600 (got 0.0001)',
    );
    expect(runs[3]?.stderr).toContain('(got 0.0009)');
  });
});
