import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfigText } from '../src/config/file.js';
import { type Environment, parseCommand } from '../src/config/load.js';
import { parseSize } from '../src/config/size.js';
import { BUILT_IN_RESPONSE, DEFAULT_LIMITS } from '../src/config/types.js';
import { CliError } from '../src/errors.js';

function configError(text: string): CliError {
  try {
    parseConfigText(text, 'config.yaml');
  } catch (error) {
    expect(error).toBeInstanceOf(CliError);
    return error as CliError;
  }
  throw new Error('expected a config error');
}

describe('config file', () => {
  it('reads every key of the spec', () => {
    const config = parseConfigText(
      [
        'port: 9999',
        'host: 0.0.0.0',
        'response:',
        '  status: 202',
        '  headers:',
        '    X-Tool: webhook',
        '  body: accepted',
        'routes:',
        '  - path: /hooks/github',
        '    method: post',
        '    response:',
        '      status: 204',
        '  - path: /api/*',
        '    response:',
        '      body: \'{"ok":true}\'',
      ].join('\n'),
      'config.yaml',
    );
    expect(config.port).toBe(9999);
    expect(config.host).toBe('0.0.0.0');
    expect(config.response).toEqual({
      status: 202,
      headers: [['X-Tool', 'webhook']],
      body: 'accepted',
    });
    expect(config.routes).toEqual([
      {
        path: '/hooks/github',
        method: 'POST',
        response: { status: 204, headers: [], body: '' },
        forward: null,
        verify: null,
      },
      {
        path: '/api/*',
        method: null,
        response: { status: 200, headers: [], body: '{"ok":true}' },
        forward: null,
        verify: null,
      },
    ]);
  });

  it('replaces NAME and NAME:-default references by the environment, as the chat service does', () => {
    // Escaped: `\${NAME}` is the config file's syntax, not this template's.
    const text = `response:
  headers:
    X-Set: \${SET}
    X-Default: "\${UNSET:-fallback}"
    X-Empty: "\${EMPTY:-fallback}"
    X-Given: "\${SET:-fallback}"
`;
    const config = parseConfigText(text, 'config.yaml', { SET: 'from-env', EMPTY: '' });
    expect(config.response?.headers).toEqual([
      ['X-Set', 'from-env'],
      ['X-Default', 'fallback'],
      ['X-Empty', 'fallback'],
      ['X-Given', 'from-env'],
    ]);
    expect(() => parseConfigText(`response:\n  body: \${UNSET}\n`, 'config.yaml', {})).toThrow(
      'config.yaml:2: response.body: environment variable UNSET is not set',
    );
  });

  it('accepts an empty file', () => {
    expect(parseConfigText('', 'c.yaml')).toEqual({ routes: [] });
    expect(parseConfigText('# nothing yet\n', 'c.yaml')).toEqual({ routes: [] });
  });

  it.each([
    ['port: [9080\n', 2, '(syntax)'],
    ['port: 9080\nhost: a: b\n', 2, '(syntax)'],
    ['port: 9080\nport: 9081\n', 2, '(syntax)'],
    ['port: 9080\nprot: 1\n', 2, 'prot: unknown key'],
    ['port: "9080"\n', 1, 'port: must be an integer from 0 to 65535'],
    ['port: 70000\n', 1, 'port: must be an integer'],
    ['host: 12\n', 1, 'host: must be a string'],
    [
      'response:\n  status: 700\n',
      2,
      'response.status: must be an integer from 200 to 599 (got 700)',
    ],
    ['response:\n  status: 99\n', 2, 'response.status: must be an integer from 200 to 599'],
    ['response:\n  status: 200.5\n', 2, 'response.status: must be an integer'],
    ['response:\n  body: 12\n', 2, 'response.body: must be a string'],
    ['response:\n  colour: red\n', 2, 'response.colour: unknown key'],
    ['response: ok\n', 1, 'response: must be a map'],
    [
      'response:\n  headers:\n    "Bad Name": x\n',
      3,
      'response.headers.Bad Name: is not a valid header name',
    ],
    [
      'response:\n  headers:\n    X-Ok: "a\\nb"\n',
      3,
      'response.headers.X-Ok: is not a valid header value',
    ],
    ['response:\n  headers:\n    X-Count: 3\n', 3, 'response.headers.X-Count: must be a string'],
    [
      'response:\n  headers:\n    Content-Length: "5"\n  body: ok\n',
      3,
      'response.headers.Content-Length: is computed from the body; remove it',
    ],
    [
      'routes:\n  - path: /a\n    response:\n      headers:\n        transfer-encoding: chunked\n',
      5,
      'routes[0].response.headers.transfer-encoding: is computed from the body; remove it',
    ],
    ['response:\n  headers: [a]\n', 2, 'response.headers: must be a map'],
    ['routes: {}\n', 1, 'routes: must be a list'],
    ['routes:\n  - method: GET\n    response: {}\n', 2, 'routes[0]: needs a path'],
    ['routes:\n  - path: /a\n', 2, 'routes[0]: needs a response'],
    ['routes:\n  - path: a\n    response: {}\n', 2, 'routes[0].path: must start with /'],
    [
      'routes:\n  - path: /a\n    response: {}\n  - path: /b\n    method: "GE T"\n    response: {}\n',
      5,
      'routes[1].method: is not an HTTP method',
    ],
    [
      'routes:\n  - path: /a\n    response:\n      status: 1000\n',
      4,
      'routes[0].response.status: must be an integer',
    ],
    ['- a\n- b\n', 1, '(top level): must be a map'],
  ])('rejects %j at line %i naming %s', (text, line, expected) => {
    const error = configError(text);
    expect(error.exitCode).toBe(2);
    expect(error.message).toMatch(new RegExp(`^config\\.yaml:${line}: `));
    expect(error.message).toContain(expected);
  });
});

describe('sizes', () => {
  it.each([
    ['1048576', 1048576],
    ['512k', 512 * 1024],
    ['512KB', 512 * 1024],
    ['10MiB', 10 * 1024 * 1024],
    ['1.5m', 1.5 * 1024 * 1024],
    ['2g', 2 * 1024 ** 3],
    ['7b', 7],
  ])('%s is %i bytes', (text, bytes) => {
    expect(parseSize(text)).toBe(bytes);
  });

  it.each(['', 'ten', '-1', '10 TB', '1e9'])('%j is not a size', (text) => {
    expect(parseSize(text)).toBeNull();
  });
});

describe('flags and config discovery', () => {
  const dir = mkdtempSync(join(tmpdir(), 'webhook-config-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const env = (cwd: string, extra: Partial<Environment> = {}): Environment => ({
    cwd,
    home: join(dir, 'home'),
    xdgConfigHome: undefined,
    interactive: true,
    ...extra,
  });
  const run = (argv: string[], environment: Environment) => {
    const command = parseCommand(argv, environment);
    if (command.kind !== 'run') throw new Error(`expected run, got ${command.kind}`);
    return command.config;
  };

  it('defaults without a config file', () => {
    const config = run([], env(join(dir, 'empty')));
    expect(config).toMatchObject({
      host: '127.0.0.1',
      port: 9080,
      configFile: null,
      output: 'tui',
    });
    expect(config.defaultResponse).toEqual(BUILT_IN_RESPONSE);
    expect(config.limits).toEqual(DEFAULT_LIMITS);
  });

  it('finds ./config.yaml, then ./config.yml, then the XDG location; flags override the file', () => {
    const project = join(dir, 'project');
    mkdirSync(project, { recursive: true });
    const xdg = join(dir, 'xdg');
    mkdirSync(join(xdg, 'webhook'), { recursive: true });
    writeFileSync(join(xdg, 'webhook', 'config.yaml'), 'port: 7001\n');
    expect(run([], env(project, { xdgConfigHome: xdg })).port).toBe(7001);
    writeFileSync(join(project, 'config.yml'), 'port: 7002\n');
    expect(run([], env(project, { xdgConfigHome: xdg })).port).toBe(7002);
    writeFileSync(join(project, 'config.yaml'), 'port: 7003\nhost: 0.0.0.0\n');
    const config = run([], env(project, { xdgConfigHome: xdg }));
    expect(config).toMatchObject({ port: 7003, host: '0.0.0.0', configFile: 'config.yaml' });
    expect(run(['--port', '7004', '--host', '::1'], env(project))).toMatchObject({
      port: 7004,
      host: '::1',
    });
  });

  it('uses ~/.config/webhook/config.yaml without XDG_CONFIG_HOME', () => {
    mkdirSync(join(dir, 'home', '.config', 'webhook'), { recursive: true });
    writeFileSync(join(dir, 'home', '.config', 'webhook', 'config.yaml'), 'port: 7010\n');
    expect(run([], env(join(dir, 'elsewhere'))).port).toBe(7010);
  });

  it('reads the limits and the output mode', () => {
    const cwd = join(dir, 'empty');
    const config = run(
      ['--max-body', '1k', '--max-requests', '5', '--max-memory', '1MiB', '--no-tui'],
      env(cwd),
    );
    expect(config.limits).toEqual({ maxBody: 1024, maxRequests: 5, maxMemory: 1024 * 1024 });
    expect(config.output).toBe('lines');
    expect(run(['--json'], env(cwd)).output).toBe('json');
    expect(run([], env(cwd, { interactive: false })).output).toBe('lines');
  });

  it.each([
    [['--port', 'abc'], '--port must be an integer'],
    [['--port', '65536'], '--port must be an integer'],
    [['--max-body', 'lots'], '--max-body must be a size'],
    [['--max-requests', '0'], '--max-requests must be a positive integer'],
    [['--max-body', '2m', '--max-memory', '1m'], 'must not exceed --max-memory'],
    [['--config', 'missing.yaml'], 'config file not found: missing.yaml'],
    [['--colour'], "Unknown option '--colour'"],
    [['--host', ''], '--host must not be empty'],
  ])('%j is a usage error', (argv, message) => {
    expect(() => parseCommand(argv, env(join(dir, 'empty')))).toThrow(message);
  });
});
