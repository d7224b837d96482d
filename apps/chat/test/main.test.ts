import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts } from './support/accounts.js';
import { APPS, FakeProvider } from './support/fake-provider.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const TSX = fileURLToPath(new URL('../../../node_modules/.bin/tsx', import.meta.url));

/** `npm run chat` as a user runs it: src/main.ts in a process, configured by env and YAML. */
function start(env: NodeJS.ProcessEnv, cwd: string, args: string[] = []) {
  const child = spawn(TSX, ['--conditions=development', join(APP_DIR, 'src/main.ts'), ...args], {
    cwd,
    env: { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env },
  });
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
beforeAll(async () => {
  fake = await FakeProvider.start();
});
afterAll(async () => {
  for (const child of children) child.kill();
  await fake.close();
});

describe('src/main.ts', () => {
  it('starts from a YAML file with secrets from the environment, prints its URL and services, and signs in', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-main-'));
    writeFileSync(
      join(dir, 'chat.config.yaml'),
      `services:\n  github:\n    type: github\n    appId: ${APPS.github.appId}\n    appSecret: \${GH_SECRET}\n    apiUrl: ${fake.url}/github\n`,
    );
    const run = start(
      { PORT: '0', DATABASE_URL: 'memory://', GH_SECRET: APPS.github.appSecret },
      dir,
    );
    children.push(run.child);
    const output = await run.waitFor(/chat login service on/);
    expect(output).toContain('services from');
    expect(output).toContain('github (github)');
    expect(output).not.toContain(APPS.github.appSecret);
    // Off a terminal (a pipe here) every line is JSON.
    for (const line of output.trim().split('\n'))
      expect(() => JSON.parse(line), line).not.toThrow();
    const url = /chat login service on (http:\/\/[^\s"]+)/.exec(output)?.[1];
    expect(url).toBeDefined();

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
    expect(run.output()).not.toContain(data.authToken);
    run.child.kill('SIGTERM');
    expect(await run.exited).toBe(0);
    // The embedded store's first start (initdb) is slow on a busy machine.
  }, 90_000);

  it('starts with no services when there is no file, and says so', async () => {
    const run = start(
      { PORT: '0', DATABASE_URL: 'memory://' },
      mkdtempSync(join(tmpdir(), 'chat-')),
    );
    children.push(run.child);
    expect(await run.waitFor(/no services configured/)).toContain('no services configured');
    run.child.kill('SIGTERM');
    await run.exited;
  });

  it('stops at start with an error naming the bad key', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'chat-bad-'));
    writeFileSync(
      join(dir, 'chat.config.yaml'),
      'services:\n  twitter: { type: twitter, appId: k }\n',
    );
    const run = start({ PORT: '0', DATABASE_URL: 'memory://' }, dir);
    children.push(run.child);
    expect(await run.exited).toBe(1);
    expect(run.output()).toContain('configuration error: services.twitter.appSecret: required');
  });
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

describe('src/main.ts when the reader of its output is gone or stuck', () => {
  async function started() {
    const run = start(
      // Thousands of calls from one address: above the per-address API rate limit's default.
      { PORT: '0', DATABASE_URL: 'memory://', LOG_LEVEL: 'info', API_RATE_LIMIT: '100000' },
      mkdtempSync(join(tmpdir(), 'chat-log-reader-')),
    );
    children.push(run.child);
    const banner = await run.waitFor(/chat login service on/);
    const url = /chat login service on (http:\/\/[^\s"]+)/.exec(banner)?.[1];
    if (!url) throw new Error(`no banner:\n${banner}`);
    return { run, url };
  }

  it('keeps answering with stdout a pipe whose reader is closed, and exits on time on SIGTERM', async () => {
    const { run, url } = await started();
    // The reading end closes (a terminal closed, `| head` done, a log shipper gone): every
    // later write to stdout fails with EPIPE.
    run.child.stdout.destroy();
    await requests(url, 50);
    run.child.kill('SIGTERM');
    expect(await exitWithin(run.exited, 5000)).toBe('exited');
  }, 90_000);

  it('keeps answering while the reader has stopped reading, and exits on time on SIGTERM', async () => {
    const { run, url } = await started();
    // A log shipper that hangs: the pipe fills up and every write to it would block.
    run.child.stdout.pause();
    await requests(url, 2000);
    run.child.kill('SIGTERM');
    expect(await exitWithin(run.exited, 5000)).toBe('exited');
  }, 90_000);
});

describe('src/main.ts command line and listening errors', () => {
  it('--help prints the usage (variables, documentation) and exits 0 without starting', async () => {
    const run = start({}, mkdtempSync(join(tmpdir(), 'chat-help-')), ['--help']);
    children.push(run.child);
    expect(await run.exited).toBe(0);
    expect(run.output()).toContain('Usage: npm run chat');
    for (const name of [
      'PORT',
      'LOG_LEVEL',
      'CHAT_CONFIG',
      'EMBEDDED_DURABILITY',
      'apps/chat/README.md',
    ]) {
      expect(run.output()).toContain(name);
    }
    expect(run.output()).not.toContain('chat login service on');
  });

  it('a busy port: one line naming the address and PORT, exit code 1', async () => {
    const occupier = createServer();
    await new Promise<void>((resolve) => occupier.listen(0, '127.0.0.1', resolve));
    const { port } = occupier.address() as { port: number };
    try {
      const run = start(
        { PORT: String(port), DATABASE_URL: 'memory://' },
        mkdtempSync(join(tmpdir(), 'chat-')),
      );
      children.push(run.child);
      expect(await run.exited).toBe(1);
      expect(run.output()).toBe(`127.0.0.1:${port} is already in use (set PORT)\n`);
    } finally {
      occupier.close();
    }
  });
});
