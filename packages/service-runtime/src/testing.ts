import { spawnSync } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, type Environment } from './environment.js';
import { runService, type ServiceDefinition } from './run-service.js';
import type { ListenSettings } from './settings.js';

export interface InProcessRun {
  /** The exit code the process would have ended with. */
  code: number | undefined;
  stdout: string;
  stderr: string;
  /** What went to the log output (the starting line, logs), as JSON lines. */
  log: string;
}

/**
 * Runs a service's start-up in the calling process, for what it does before it listens: the
 * command line, --help, the configuration's problems, a busy port. No signal handler is
 * installed; a run that gets as far as listening is an error here (start a process for that).
 */
export async function runServiceInProcess<Config extends ListenSettings>(
  definition: ServiceDefinition<Config>,
  argv: readonly string[],
  env: Environment,
): Promise<InProcessRun> {
  const logFile = join(tmpdir(), `service-log-${process.pid}-${Date.now()}-${Math.random()}`);
  const fd = openSync(logFile, 'w');
  let stdout = '';
  let stderr = '';
  let exitCode: number | undefined;
  try {
    const code = await runService(definition, {
      argv,
      env,
      stdout: (text) => {
        stdout += text;
      },
      stderr: (text) => {
        stderr += text;
      },
      exit: (ended) => {
        exitCode = ended;
      },
      logOutput: { fd, pretty: false },
      signals: [],
    });
    if (code === undefined) throw new Error('the service started listening in the test process');
    return { code: exitCode, stdout, stderr, log: readFileSync(logFile, 'utf8') };
  } finally {
    closeSync(fd);
    rmSync(logFile, { force: true });
  }
}

/** Runs `body` with a port of 127.0.0.1 that another listener holds, released afterwards. */
export async function withBusyPort<T>(body: (port: number) => Promise<T>): Promise<T> {
  const occupier = createServer();
  await new Promise<void>((resolve) => occupier.listen(0, '127.0.0.1', resolve));
  const { port } = occupier.address() as { port: number };
  try {
    return await body(port);
  } finally {
    await new Promise((resolve) => occupier.close(resolve));
  }
}

/**
 * Values an environment may hold by mistake or by malice: control characters, a terminal
 * escape, a lone surrogate, numbers out of every range, a megabyte, credentials in a URL.
 */
export const HOSTILE_ENVIRONMENT_VALUES: readonly string[] = [
  '\u0000',
  'on\u001b[2J',
  'true\n',
  '\uD800',
  '-1',
  '1e309',
  '0x10',
  'NaN',
  '9'.repeat(400),
  'a'.repeat(1024 * 1024),
  'http://user:hunter2@example.com:99999/',
  // A shell reference, which the environment gives as it is (never expanded).
  `$${'{'}PATH}`,
  '../../../../etc/passwd',
  '*',
  ',,,',
];

/**
 * Reads the configuration with each hostile value in each variable, alone: it must either be
 * taken or refused with a ConfigError whose message names the variable, holds no raw control
 * character, stays short, and never repeats a URL's or a secret's value. Answers the failures
 * (empty when every one passed).
 */
export function findHostileValueFailures(
  variables: readonly { name: string }[],
  load: (env: Environment) => unknown,
): string[] {
  const failures: string[] = [];
  for (const { name } of variables) {
    for (const value of HOSTILE_ENVIRONMENT_VALUES) {
      const label = `${name}=${JSON.stringify(value.slice(0, 40))}`;
      try {
        load({ [name]: value });
      } catch (error) {
        if (!(error instanceof ConfigError)) {
          failures.push(`${label}: ${String(error).slice(0, 200)} (not a ConfigError)`);
          continue;
        }
        const { message } = error;
        // biome-ignore lint/suspicious/noControlCharactersInRegex: what must not be there
        if (/[\u0000-\u0009\u000b-\u001f\u007f]/.test(message))
          failures.push(`${label}: raw control character`);
        if (message.length > 2000) failures.push(`${label}: ${message.length}-character message`);
        // Each problem says what it is about: the variable, a file's key, or the file.
        if (!error.problems.every((problem) => /^[\w./ -]+:/.test(problem))) {
          failures.push(
            `${label}: a problem does not say what it is about: ${message.slice(0, 200)}`,
          );
        }
        if (!message.includes(name) && !message.startsWith('/')) {
          failures.push(`${label}: the message does not name ${name}`);
        }
        const secret = /DATABASE_URL|REDIS_URL|SMTP_URL|SECRET|PASSWORD|_KEY$/.test(name);
        if (secret && value.length > 3 && message.includes(value)) {
          failures.push(`${label}: the value is repeated`);
        }
      }
    }
  }
  return failures;
}

/**
 * `redocly lint` of a service's OpenAPI document with the service's `redocly.yaml` (in
 * `appDir`): the document is what the app answered, written to a temporary file for the linter.
 * Answers redocly's exit status (1 if it could not run).
 */
export function lintOpenApiDocument(
  answer: { statusCode: number; body: string },
  source: { appDir: string; path: string },
): number {
  if (answer.statusCode !== 200) {
    console.error(`GET ${source.path}: ${answer.statusCode}\n${answer.body}`);
    return 1;
  }
  const directory = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
  try {
    const file = join(directory, 'openapi.json');
    writeFileSync(file, answer.body);
    const lint = spawnSync(
      'redocly',
      ['lint', '--config', join(source.appDir, 'redocly.yaml'), file],
      {
        stdio: 'inherit',
        cwd: source.appDir,
        // No telemetry or update check from CI.
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
      },
    );
    return lint.status ?? 1;
  } finally {
    rmSync(directory, { recursive: true, force: true });
  }
}
