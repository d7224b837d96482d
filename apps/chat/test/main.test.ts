import { type ChildProcess, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runServiceInProcess, withBusyPort } from '@netops/service-runtime/testing';
import { migrate, openStore } from '@netops/store';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHAT_VARIABLES } from '../src/config.js';
import { MIGRATIONS } from '../src/db/schema.js';
import { chatService } from '../src/service.js';
import { accounts } from './support/accounts.js';
import { APPS, FakeProvider } from './support/fake-provider.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
/**
 * tsx's loader, by path (the process runs in a folder of its own, where `tsx` would not resolve).
 * Node itself runs the service, not the `tsx` command: that command relays a signal to its child
 * and, unless the child acknowledges it within 30 ms, kills it with SIGKILL and exits 143, which
 * on a loaded machine made a graceful SIGTERM look like a crash.
 */
const TSX_LOADER = fileURLToPath(
  new URL('../../../node_modules/tsx/dist/loader.mjs', import.meta.url),
);

/** `npm run chat` as a user runs it: src/main.ts in a process, configured by env and YAML. */
function start(env: NodeJS.ProcessEnv, cwd: string, args: string[] = []) {
  const child = spawn(
    process.execPath,
    [
      '--import',
      pathToFileURL(TSX_LOADER).href,
      '--conditions=development',
      join(APP_DIR, 'src/main.ts'),
      ...args,
    ],
    {
      cwd,
      env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
    },
  );
  let output = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
  });
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
  const waitFor = async (pattern: RegExp) => {
    for (let i = 0; i < 1200 && !pattern.test(output); i++) {
      if (child.exitCode !== null) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return output;
  };
  return { child, exited, waitFor, output: () => output };
}

let fake: FakeProvider;
const children: ChildProcess[] = [];
/** From a services file, signing in; its stdout closed later. */
let withServices: ReturnType<typeof start>;
/** Without a services file; its stdout stuck later. */
let withoutServices: ReturnType<typeof start>;
/** The services' working folders, all under this one. */
const scratch = mkdtempSync(join(tmpdir(), 'chat-main-'));
beforeAll(async () => {
  fake = await FakeProvider.start();
  // Both processes start together: their start-ups overlap instead of adding up.
  const dir = mkdtempSync(join(scratch, 'main-'));
  writeFileSync(
    join(dir, 'chat.config.yaml'),
    `services:\n  github:\n    type: github\n    appId: ${APPS.github.appId}\n    appSecret: \${GH_SECRET}\n    apiUrl: ${fake.url}/github\n`,
  );
  withServices = start(
    {
      PORT: '0',
      DATABASE_URL: 'memory://',
      GH_SECRET: APPS.github.appSecret,
      // A line per request, and thousands of calls from one address (above the default limit).
      LOG_LEVEL: 'info',
      API_RATE_LIMIT: '100000',
    },
    dir,
  );
  withoutServices = start(
    { PORT: '0', DATABASE_URL: 'memory://', LOG_LEVEL: 'info', API_RATE_LIMIT: '100000' },
    mkdtempSync(join(scratch, 'log-reader-')),
  );
  children.push(withServices.child, withoutServices.child);
});
afterAll(async () => {
  for (const child of children) child.kill();
  await fake.close();
  rmSync(scratch, { recursive: true, force: true });
});

/** 'exited', or 'still running' when the process outlives `ms`. */
function exitWithin(exited: Promise<unknown>, ms: number) {
  return Promise.race([
    exited.then(() => 'exited'),
    new Promise((resolve) => setTimeout(() => resolve('still running'), ms)),
  ]);
}

/** `count` requests, `concurrency` at a time; every answer must be an answer, not a 5xx. */
async function requests(url: string, count: number, concurrency = 16) {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < count) expect((await fetch(`${url}/api/v1/me`)).status).toBe(401);
    }),
  );
}

/** The URL the banner names, once it is out. */
async function listening(run: ReturnType<typeof start>) {
  const banner = await run.waitFor(/chat login service on/);
  const url = /chat login service on (http:\/\/[^\s"]+)/.exec(banner)?.[1];
  if (!url) throw new Error(`no banner:\n${banner}`);
  return url;
}

// Two processes, each answering several checks: what only a process shows (its output, its
// signals, a reader of its output that goes away). What the start-up decides before it listens
// is checked in-process below.
describe('src/main.ts in a process', () => {
  it('PORT=0 without ROOT_URL advertises the port it listens on, not 0', async () => {
    for (const run of [withServices, withoutServices]) {
      const url = await listening(run);
      const openapi = (await (await fetch(`${url}/api/v1/openapi.json`)).json()) as {
        servers: { url: string }[];
      };
      expect(openapi.servers).toEqual([{ url }]);
    }
    const url = await listening(withServices);
    const state = Buffer.from(
      JSON.stringify({
        loginStyle: 'popup',
        credentialToken: 'port-zero-0123456789',
        isCordova: false,
      }),
    ).toString('base64');
    const started = await fetch(`${url}/_oauth/github/authorize?state=${state}`, {
      redirect: 'manual',
    });
    expect(started.status).toBe(302);
    const target = new URL(started.headers.get('location') ?? '');
    expect(target.searchParams.get('redirect_uri')).toBe(`${url}/_oauth/github`);
    // Both processes start here (PGlite's start is slow on a busy machine).
  }, 90_000);

  it('starts from a YAML file with secrets from the environment, signs in, then keeps answering with its stdout closed and exits 0 on time on SIGTERM', async () => {
    const run = withServices;
    const url = await listening(run);
    const output = run.output();
    expect(output).toContain('services from');
    expect(output).toContain('github (github)');
    expect(output).not.toContain(APPS.github.appSecret);

    const response = await fetch(`${url}/api/v1/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        serviceName: 'github',
        ...accounts.github(fake),
        ...APPS.github,
        expiresIn: 60,
      }),
    });
    expect(response.status).toBe(200);
    const { data } = (await response.json()) as { data: { userId: string; authToken: string } };
    const meResponse = await fetch(`${url}/api/v1/me`, {
      headers: { 'x-user-id': data.userId, 'x-auth-token': data.authToken },
    });
    expect(meResponse.status).toBe(200);
    await run.waitFor(/"url":"\/api\/v1\/me"/);
    expect(run.output()).not.toContain(data.authToken);
    // Off a terminal (a pipe here) every line is JSON.
    for (const line of run.output().trim().split('\n'))
      expect(() => JSON.parse(line), line).not.toThrow();

    // The reading end closes (a terminal closed, `| head` done, a log shipper gone): every
    // later write to stdout fails with EPIPE.
    run.child.stdout.destroy();
    await requests(url, 50);
    run.child.kill('SIGTERM');
    expect(await exitWithin(run.exited, 5000)).toBe('exited');
    expect(await run.exited).toBe(0);
    // The embedded store's first start (initdb) is slow on a busy machine.
  }, 90_000);

  it('starts with no services when there is no file and says so, keeps answering while the reader has stopped reading, and exits on time on SIGTERM', async () => {
    const run = withoutServices;
    const url = await listening(run);
    expect(run.output()).toContain('no services configured');
    // A log shipper that hangs: the pipe fills up and every write to it would block.
    run.child.stdout.pause();
    await requests(url, 2000);
    run.child.kill('SIGTERM');
    expect(await exitWithin(run.exited, 5000)).toBe('exited');
  }, 90_000);
});

/** The start-up as `npm run chat -- ARGS` runs it with `env`, up to where it would listen. */
const startUp = (argv: string[], env: Record<string, string>) =>
  runServiceInProcess(chatService, argv, { PATH: process.env.PATH, LOG_LEVEL: 'warn', ...env });

describe('src/main.ts command line, configuration and listening errors', () => {
  it('--help prints the usage (every variable, documentation) and exits 0 without starting', async () => {
    const run = await startUp(['--help'], {});
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('Usage: npm run chat');
    for (const name of [
      ...CHAT_VARIABLES.map((variable) => variable.name),
      'apps/chat/README.md',
    ]) {
      expect(run.stdout).toContain(name);
    }
    expect(run.stdout + run.log).not.toContain('chat login service on');
  });

  it('refuses an unknown argument with exit code 2 instead of ignoring it', async () => {
    const run = await startUp(['--port', '4000'], {});
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'unknown argument "--port": settings are environment variables (see --help)\n',
    );
  });

  it('stops at start with an error naming the bad key', async () => {
    const dir = mkdtempSync(join(scratch, 'bad-'));
    writeFileSync(
      join(dir, 'chat.config.yaml'),
      'services:\n  twitter: { type: twitter, appId: k }\n',
    );
    const run = await startUp([], {
      PORT: '0',
      DATABASE_URL: 'memory://',
      CHAT_CONFIG: join(dir, 'chat.config.yaml'),
    });
    expect(run.code).toBe(1);
    expect(run.stderr).toBe('configuration error: services.twitter.appSecret: required\n');
  });

  it('names every bad variable at once, one a line, exit code 1', async () => {
    const run = await startUp([], {
      PORT: 'eighty',
      LOG_LEVEL: 'loud',
      DATABASE_URL: 'mysql://root:hunter2@db/chat',
      TRUST_PROXY: '2',
      SESSION_CACHE: 'yes',
    });
    expect(run.code).toBe(1);
    const [heading, ...problems] = run.stderr.trimEnd().split('\n');
    expect(heading).toBe('configuration errors (5):');
    const named = problems.map((line) => /^ {2}- ([A-Z_]+): /.exec(line)?.[1]).sort();
    expect(named).toEqual(['DATABASE_URL', 'LOG_LEVEL', 'PORT', 'SESSION_CACHE', 'TRUST_PROXY']);
    // A database URL's password is never repeated.
    expect(run.stderr).not.toContain('hunter2');
  });

  it('a busy port: one line naming the address and PORT, exit code 1', async () => {
    await withBusyPort(async (port) => {
      const run = await startUp([], { PORT: String(port), DATABASE_URL: 'memory://' });
      expect(run.code).toBe(1);
      expect(run.stdout + run.log).toBe('');
      expect(run.stderr).toBe(`127.0.0.1:${port} is already in use (set PORT)\n`);
    });
  });
});

describe('src/main.ts on a database an older release made', () => {
  it('says it upgrades it, and how long it took; a plain restart says neither', async () => {
    const dataDir = join(scratch, 'older');
    // The database as the release before the newest migration left it.
    const older = join(scratch, 'older-migrations');
    mkdirSync(older);
    const names = readdirSync(MIGRATIONS)
      .filter((name) => name.endsWith('.sql'))
      .sort();
    for (const name of names.slice(0, -1)) {
      copyFileSync(new URL(name, MIGRATIONS), join(older, name));
    }
    const store = await openStore<unknown>({ dataDir, durable: false });
    await migrate(store, older);
    await store.close();

    const env = { PORT: '0', DATA_DIR: dataDir, LOG_LEVEL: 'info' };
    const upgrade = start(env, mkdtempSync(join(scratch, 'upgrade-')));
    children.push(upgrade.child);
    await listening(upgrade);
    upgrade.child.kill('SIGTERM');
    await upgrade.exited;
    const newest = (names.at(-1) ?? '').slice(0, 3);
    expect(upgrade.output()).toContain(`Upgrading the database: 1 migration (${newest})…`);
    expect(upgrade.output()).toMatch(/Database upgraded: 1 migration applied in \d+\.\d s/);

    const restart = start(env, mkdtempSync(join(scratch, 'restart-')));
    children.push(restart.child);
    await listening(restart);
    restart.child.kill('SIGTERM');
    await restart.exited;
    expect(restart.output()).not.toMatch(/Upgrading the database|Database upgraded/);
  }, 120_000);
});
