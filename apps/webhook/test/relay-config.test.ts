import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type Environment, parseCommand } from '../src/config/load.js';
import { CliError } from '../src/errors.js';
import { DEFAULT_RELAY_LIMITS, parseRelayCommand } from '../src/relay/config.js';
import { parseSendUrl } from '../src/relay/protocol.js';
import { hashToken, newChannelId, newListenToken, tokenMatches } from '../src/relay/secrets.js';

const SEND_URL = 'https://relay.example/c/3q2-7wD0m1y8lM5oQ1C0yA';
const ADMIN = { WEBHOOK_RELAY_ADMIN_TOKEN: 'an-admin-token-long-enough-0123' };

/** Each test's working folder, under one removed at the end. */
const scratch = mkdtempSync(join(tmpdir(), 'relay-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
const workingFolder = () => mkdtempSync(join(scratch, 'cwd-'));

function env(variables: Record<string, string> = {}, cwd = workingFolder()): Environment {
  return { cwd, home: '/home/user', xdgConfigHome: undefined, interactive: false, variables };
}

function failure(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return (error as CliError).message;
  }
  throw new Error('expected a CliError');
}

describe('webhook --relay', () => {
  it('takes the token from WEBHOOK_RELAY_TOKEN and keeps the cursor under XDG_STATE_HOME', () => {
    const command = parseCommand(
      ['--relay', `${SEND_URL}/`],
      env({ WEBHOOK_RELAY_TOKEN: 'whr_abc', XDG_STATE_HOME: '/state' }),
    );
    expect(command.kind === 'run' && command.config.relay).toEqual({
      sendUrl: SEND_URL,
      token: 'whr_abc',
      cursorFile: '/state/webhook/relay/3q2-7wD0m1y8lM5oQ1C0yA.cursor',
    });
  });

  it('reads relay: keys from the config file, variables expanded; WEBHOOK_RELAY_TOKEN wins over the file', () => {
    const cwd = workingFolder();
    writeFileSync(join(cwd, 'config.yaml'), `relay:\n  url: ${SEND_URL}\n  token: \${MY_TOKEN}\n`);
    const fromFile = parseCommand([], env({ MY_TOKEN: 'whr_file' }, cwd));
    expect(fromFile.kind === 'run' && fromFile.config.relay?.token).toBe('whr_file');
    const fromEnv = parseCommand(
      [],
      env({ MY_TOKEN: 'whr_file', WEBHOOK_RELAY_TOKEN: 'whr_env' }, cwd),
    );
    expect(fromEnv.kind === 'run' && fromEnv.config.relay?.token).toBe('whr_env');
  });

  it('refuses a send URL on a port fetch never connects to (it retried forever with “bad port”)', () => {
    for (const port of ['6000', '6667', '10080']) {
      const url = `http://relay.example:${port}/c/3q2-7wD0m1y8lM5oQ1C0yA`;
      expect(
        failure(() => parseCommand(['--relay', url], env({ WEBHOOK_RELAY_TOKEN: 'whr_x' }))),
      ).toContain(`--relay: port ${port} is one HTTP clients refuse to connect to`);
    }
    const fine = parseCommand(
      ['--relay', 'http://relay.example:8080/c/3q2-7wD0m1y8lM5oQ1C0yA'],
      env({ WEBHOOK_RELAY_TOKEN: 'whr_x' }),
    );
    expect(fine.kind).toBe('run');
  });

  it('refuses a missing token, a URL that is not a send URL and hostile tokens, before listening', () => {
    expect(failure(() => parseCommand(['--relay', SEND_URL], env()))).toContain(
      'WEBHOOK_RELAY_TOKEN',
    );
    for (const url of [
      'https://relay.example/c/short',
      'ftp://relay.example/c/3q2-7wD0m1y8lM5oQ1C0yA',
      `${SEND_URL}?x=1`,
      'https://u:p@relay.example/c/3q2-7wD0m1y8lM5oQ1C0yA',
      'not a url',
    ]) {
      expect(
        failure(() => parseCommand(['--relay', url], env({ WEBHOOK_RELAY_TOKEN: 'whr_x' }))),
      ).toContain('--relay must be a relay send URL');
    }
    expect(
      failure(() =>
        parseCommand(['--relay', SEND_URL], env({ WEBHOOK_RELAY_TOKEN: 'whr_\x1b[31m' })),
      ),
    ).toContain('token');
    const cwd = workingFolder();
    writeFileSync(join(cwd, 'config.yaml'), 'relay:\n  url: https://relay.example/hooks\n');
    expect(failure(() => parseCommand([], env({}, cwd)))).toMatch(
      /config\.yaml:2: relay\.url: must be a relay send URL/,
    );
    writeFileSync(join(cwd, 'config.yaml'), 'relay:\n  listen: yes\n');
    expect(failure(() => parseCommand([], env({}, cwd)))).toContain('relay.listen: unknown key');
  });

  it('replaying a file does not need the relay token', () => {
    const cwd = workingFolder();
    writeFileSync(join(cwd, 'config.yaml'), `relay:\n  url: ${SEND_URL}\n`);
    const command = parseCommand(
      ['replay', '--from', 'x.jsonl', '--all', '--to', 'http://127.0.0.1:1'],
      env({}, cwd),
    );
    expect(command.kind).toBe('replay');
  });
});

describe('webhook relay …', () => {
  it('serve: defaults, limits from flags, and every bad value refused with the flag named', () => {
    const serve = parseRelayCommand(['serve'], { variables: ADMIN });
    expect(serve.kind === 'relay-serve' && serve.config.limits).toEqual(DEFAULT_RELAY_LIMITS);
    expect(serve.kind === 'relay-serve' && serve.config.adminTokenHash).toBe(
      hashToken(ADMIN.WEBHOOK_RELAY_ADMIN_TOKEN),
    );
    const tuned = parseRelayCommand(
      [
        'serve',
        '--max-body',
        '1MiB',
        '--buffer-events',
        '10',
        '--channel-rate',
        '7',
        '--wait-timeout',
        '20',
      ],
      { variables: ADMIN },
    );
    expect(tuned.kind === 'relay-serve' && tuned.config.limits).toMatchObject({
      maxBody: 1024 * 1024,
      buffer: { events: 10 },
      channelRate: { perSecond: 7, burst: 28 },
      waitTimeoutMs: 20_000,
    });
    for (const [args, message] of [
      [['serve', '--port', '70000'], '--port must be an integer'],
      [['serve', '--max-body', 'lots'], '--max-body must be a size'],
      [
        ['serve', '--max-body', '10MiB', '--buffer-bytes', '12MiB'],
        '--buffer-bytes must hold at least one event',
      ],
      [['serve', '--max-body', '13MiB'], '--max-body must be at most 11 MiB (got 13MiB)'],
      [
        ['serve', '--public-url', 'http://user:pw@relay.example'],
        '--public-url must not hold a user name or password',
      ],
      [
        ['serve', '--public-url', 'http://relay.example/\u001b[31m'],
        '--public-url must be printable ASCII without spaces',
      ],
      [['serve', '--public-url', 'https://relay.example/#x'], '--public-url must be an http'],
      [['serve', '--tls-cert', '/nonexistent'], '--tls-cert and --tls-key go together'],
      [['serve', '--tls-cert', '/nonexistent', '--tls-key', '/nonexistent'], 'cannot be read'],
      [['serve', '--trust-proxy', '10.0.0.0/99'], '--trust-proxy'],
      [['serve', '--log-level', 'loud'], '--log-level'],
      [['serve', '--server', 'http://x'], '--server does not apply to webhook relay serve'],
      [['create'], 'needs --server'],
      [['create', '--server', 'ftp://relay'], '--server must be an http'],
      [
        ['create', '--server', 'http://relay', '--header', 'Bad Name: x'],
        "--header must be 'Name: value'",
      ],
      [
        ['create', '--server', 'http://relay', '--status', '99'],
        '--status must be an integer from 200',
      ],
      [['rotate', '--server', 'http://relay'], 'needs --channel'],
      [
        ['delete', '--server', 'http://relay', '--channel', '../x'],
        '--channel must be a channel id',
      ],
      [['launch'], 'unknown relay command: launch'],
    ] as const) {
      expect(failure(() => parseRelayCommand([...args], { variables: ADMIN }))).toContain(message);
    }
  });

  it('needs a long enough admin token for every command', () => {
    for (const variables of [
      {},
      { WEBHOOK_RELAY_ADMIN_TOKEN: 'short' },
      { WEBHOOK_RELAY_ADMIN_TOKEN: `${'x'.repeat(30)} y` },
    ]) {
      expect(failure(() => parseRelayCommand(['serve'], { variables }))).toContain(
        'WEBHOOK_RELAY_ADMIN_TOKEN must be set',
      );
    }
    expect(parseRelayCommand(['--help'], { variables: {} }).kind).toBe('relay-help');
  });
});

describe('relay ids and tokens', () => {
  it('channel ids carry 128 random bits and parse back from a send URL; tokens match only their hash', () => {
    const ids = new Set(Array.from({ length: 1000 }, newChannelId));
    expect(ids.size).toBe(1000);
    for (const id of ids) expect(Buffer.from(id, 'base64url').length).toBe(16);
    const id = [...ids][0] as string;
    expect(parseSendUrl(`https://relay.example/prefix/c/${id}`)).toEqual({
      base: 'https://relay.example/prefix',
      channel: id,
      href: `https://relay.example/prefix/c/${id}`,
    });
    const token = newListenToken();
    expect(tokenMatches(token, hashToken(token))).toBe(true);
    expect(tokenMatches(newListenToken(), hashToken(token))).toBe(false);
    expect(tokenMatches('', hashToken(token))).toBe(false);
  });
});

describe('channel ids', () => {
  it('never start with a dash, so `--channel <id>` is never read as an option', () => {
    // base64url puts a dash first in 1 of 64 ids; `webhook relay rotate --channel -x…` then
    // stopped with a usage error (exit 2).
    const ids = Array.from({ length: 5000 }, () => newChannelId());
    expect(ids.filter((id) => id.startsWith('-'))).toEqual([]);
    for (const id of ids.slice(0, 100)) expect(id).toMatch(/^[A-Za-z0-9_][A-Za-z0-9_-]{21}$/);
  });
});
