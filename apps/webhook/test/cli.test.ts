import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunningCli, runCli, waitFor } from './helpers.js';

/** A port held by another server, for the busy-port cases. */
let busy: Server;
let busyPort: number;
beforeAll(async () => {
  busy = createServer((_req, res) => res.end());
  await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
  busyPort = (busy.address() as { port: number }).port;
});
afterAll(() => new Promise<void>((resolve) => busy.close(() => resolve())));

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the check
const CONTROLS = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;

const dir = mkdtempSync(join(tmpdir(), 'webhook-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe.concurrent('the webhook command', () => {
  it('stops with exit 1 and says so when the port is in use', async () => {
    const run = await runCli(['--no-tui', '--port', String(busyPort)]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`webhook: 127.0.0.1:${busyPort} is already in use (try --port)\n`);
  });

  it('stops with exit 2 on a bad config file, before opening any port', async () => {
    // The file asks for the busy port: exit 2 (not 1) shows validation ran before listening.
    const file = join(dir, 'bad.yaml');
    writeFileSync(file, `port: ${busyPort}\nresponse:\n  status: 200\n  headerz: {}\n`);
    const run = await runCli(['--no-tui', '--config', 'bad.yaml'], { cwd: dir });
    expect(run.code).toBe(2);
    expect(run.stderr).toBe(
      'webhook: bad.yaml:4: response.headerz: unknown key (expected one of: status, headers, body)\n',
    );
  });

  it('finds ./config.yaml and reports a YAML syntax error with its line', async () => {
    const project = mkdtempSync(join(dir, 'project-'));
    writeFileSync(
      join(project, 'config.yaml'),
      'port: 9080\nroutes:\n  - path: /a\n    response: [\n',
    );
    const run = await runCli(['--no-tui'], { cwd: project });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/^webhook: config\.yaml:\d+: \(syntax\): /);
  });

  // Key and header names from the file were printed raw, so a crafted
  // ./config.yaml could retitle the window, write the clipboard (OSC 52) and clear the screen.
  it('escapes everything it prints from a config file', async () => {
    const osc = '\u001b]0;pwned\u0007\u001b]52;c;cm0gLXJmIH4gIw==\u0007\u001b[2J';
    const cases = [
      `response:\n  headers:\n    "X${osc}": v\n`,
      `routes:\n  - path: /a\n    method: "P${osc}"\n    response: {}\n`,
      `"port${osc}\u009b31m": 1\n`,
    ];
    const runs = await Promise.all(
      cases.map((text) => {
        const project = mkdtempSync(join(dir, 'hostile-'));
        writeFileSync(join(project, 'config.yaml'), text);
        return runCli(['--no-tui'], { cwd: project });
      }),
    );
    for (const run of runs) {
      expect(run.code).toBe(2);
      expect(run.stderr).not.toMatch(CONTROLS);
      expect(run.stderr).toMatch(/␛\]0;pwned␇|␛\]52|<U\+009B>/);
    }
  });

  it('warns when it listens beyond loopback', { timeout: 75_000 }, async () => {
    const cli = new RunningCli(['--no-tui', '--host', '0.0.0.0', '--port', '0']);
    try {
      // tsx compiling the sources on a loaded machine can take far more than the usual 10 s: wait
      // for the address line (printed after the warning) with a generous bound, no fixed sleep.
      await waitFor(
        () => /listening on http:\/\//.test(cli.stderr),
        () => cli.stderr,
        60_000,
      );
      expect(cli.stderr).toMatch(
        /webhook: warning: listening on 0\.0\.0\.0:\d+ .*other machines[^\n]*\nwebhook: listening on http:\/\/0\.0\.0\.0:\d+\n/,
      );
    } finally {
      await cli.stop();
    }
  });

  it('stops with exit 2 on a bad flag', async () => {
    const run = await runCli(['--port', 'eighty']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--port must be an integer from 0 to 65535 (got eighty)');
  });

  it('a usage error of several lines is printed as lines, each escaped, not joined by stand-ins', async () => {
    const run = await runCli(['--port', '-1']);
    expect(run.stderr).not.toContain('␊');
    const lines = run.stderr.trimEnd().split('\n');
    expect(lines.length).toBeGreaterThan(1);
    for (const line of lines) expect(line).toMatch(/^webhook: /);
    expect(run.stderr).toContain("webhook: Option '--port' argument is ambiguous.\n");
    expect(run.code).toBe(2);
  });

  it('prints help', async () => {
    const run = await runCli(['--help']);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('--max-body <size>');
  });

  it('prints one line per request without a terminal, and stops on SIGTERM', async () => {
    const cli = new RunningCli(['--port', '0']);
    const address = await cli.address();
    await fetch(`${address}/hooks/one?x=1`, { method: 'POST', body: 'hello' });
    await fetch(`${address}/two`);
    await waitFor(
      () => cli.stdout.split('\n').length > 2,
      () => cli.stdout,
    );
    expect(cli.stdout).toMatch(
      /^\d\d:\d\d:\d\d POST \/hooks\/one 5\n\d\d:\d\d:\d\d GET \/two 0\n$/,
    );
    const exit = await cli.stop();
    expect(exit.code).toBe(143);
  });

  it('prints JSON lines with --json, answering from the config', async () => {
    writeFileSync(
      join(dir, 'routes.yaml'),
      'routes:\n  - path: /hooks/*\n    method: POST\n    response:\n      status: 201\n      body: created\n',
    );
    const cli = new RunningCli(['--json', '--port', '0', '--config', 'routes.yaml'], { cwd: dir });
    const address = await cli.address();
    const response = await fetch(`${address}/hooks/x?a=1&a=2`, {
      method: 'POST',
      body: Buffer.from([0xde, 0xad, 0xbe, 0xef]),
    });
    expect(response.status).toBe(201);
    expect(await response.text()).toBe('created');
    await waitFor(
      () => cli.stdout.endsWith('\n'),
      () => cli.stdout,
    );
    const record = JSON.parse(cli.stdout);
    expect(record).toMatchObject({
      seq: 1,
      method: 'POST',
      path: '/hooks/x',
      url: `${address}/hooks/x?a=1&a=2`,
      query: [
        ['a', '1'],
        ['a', '2'],
      ],
      size: 4,
      truncated: false,
      bodyEncoding: 'base64',
      body: '3q2+7w==',
    });
    await cli.stop();
  });
});
