import { type CommandLine, formatUsage, readCommandLine, type Usage } from './cli.js';
import {
  ConfigError,
  describeConfigError,
  type Environment,
  type EnvVariable,
  type LogLevel,
} from './environment.js';
import { describeListenError, findListenProblem } from './listen.js';
import { type LogOutput, type LogOutputOptions, openLogOutput } from './log-output.js';
import type { ListenSettings } from './settings.js';
import { type ClosableServer, installGracefulShutdown } from './shutdown.js';

/**
 * One start-up for every service: the command line (`--help`, or a command of the service's
 * own), the configuration read once with every problem reported together, a port that cannot be
 * had found before the (slow) stores open, the app built, listening, the banner, and graceful
 * shutdown on SIGTERM/SIGINT that closes what the service opened. A refusal to start is plain
 * text on stderr and an exit code: 2 for a command line not understood, 1 for anything else.
 * What differs between services is passed in as a ServiceDefinition.
 */
export interface ServiceDefinition<Config extends ListenSettings> {
  /** What `--help` prints around the variable list. */
  usage: Omit<Usage, 'variables'>;
  /** Every environment variable the service reads: the list `--help` prints whole. */
  variables: readonly EnvVariable[];
  /**
   * Commands run instead of the service when the first argument names one (the inventory's
   * `create-admin`), each answering its exit code.
   */
  commands?: Readonly<Record<string, ServiceCommand>>;
  /** Printed at once, before the configuration and the service's modules load. */
  startingLine?: string;
  /**
   * Reads the configuration from the environment: throws a ConfigError naming every problem, or
   * an Error saying what is wrong (an unreadable file). `defaultLogLevel` is LOG_LEVEL's default.
   */
  configure(env: Environment, defaultLogLevel: LogLevel): Config | Promise<Config>;
  /** Opens the stores and builds the app, without listening. */
  start(config: Config, output: ServiceOutput): Promise<StartedService>;
}

export type ServiceCommand = (
  args: readonly string[],
  env: Environment,
  io: Pick<ServiceIO, 'stdout' | 'stderr'>,
) => Promise<number>;

/** What the service's own code writes: its logs, and lines meant for the person starting it. */
export interface ServiceOutput {
  /** The log destination (pino's stream) and plain printing. */
  readonly output: LogOutput;
  /**
   * A status line: as it is on a terminal, and off one a JSON line in pino's shape, so that a
   * log collector parses every line. (`output.print` writes text as it is, always.)
   */
  note(text: string, level?: number): void;
  /**
   * Ends the service at once for a failure it cannot go on after (its embedded store's
   * PostgreSQL PANICked): `text`, one line, on stderr (and off a terminal as a fatal JSON log
   * line too), the log output flushed within a bounded moment, exit code 1 so that a supervisor
   * restarts it. No graceful shutdown: what it would close is what failed.
   */
  fail(text: string): void;
}

export interface ListeningServer extends ClosableServer {
  listen(options: { host: string; port: number }): Promise<string>;
  readonly server: { address(): unknown };
}

export interface StartedService {
  app: ListeningServer;
  /** Closes what `start` opened (stores, clients); runs after the server has closed. */
  close(): Promise<void>;
  /** Told once listening: the URL Fastify answers and the port bound (PORT=0 picks one). */
  announce(where: { url: string; port: number }): void;
}

/** The process around the service; tests pass their own to run it in-process. */
export interface ServiceIO {
  /** The arguments after the script's name. */
  argv: readonly string[];
  env: Environment;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Where logs go; stdout by default (see openLogOutput). */
  logOutput?: LogOutputOptions;
  /**
   * Ends the process with `code`. The log output has been flushed first, within a bounded
   * moment; text for a person (stdout, stderr) is written synchronously to a pipe or a file.
   */
  exit(code: number): void;
  /** Signals that shut the service down (default SIGTERM and SIGINT). */
  signals?: readonly NodeJS.Signals[];
}

export function processIO(): ServiceIO {
  return {
    argv: process.argv.slice(2),
    env: process.env,
    stdout: (text) => process.stdout.write(text),
    stderr: (text) => process.stderr.write(text),
    exit: (code) => process.exit(code),
  };
}

/** The log output gets this long to drain at exit; a reader that is gone or stuck never holds it. */
const EXIT_FLUSH_MS = 1000;

/**
 * A refusal to start: its message goes to stderr as it is (no stack), and the process exits with
 * `code`. A service's `start` throws one for a failure its message explains in full (the store's
 * StoreOpenError: a data folder another process holds, or one that is not a database).
 */
export class StartRefusal extends Error {
  constructor(
    message: string,
    readonly code = 1,
  ) {
    super(message);
  }
}

/**
 * Runs the service: answers its exit code when it ended without serving (help, a command, a
 * refusal), or undefined once it is listening (it then ends on a signal, through `io.exit`).
 */
export async function runService<Config extends ListenSettings>(
  definition: ServiceDefinition<Config>,
  io: ServiceIO = processIO(),
): Promise<number | undefined> {
  let output: LogOutput | undefined;
  try {
    const ended = await startService(definition, io, (opened) => {
      output = opened;
    });
    if (ended !== undefined) io.exit(ended);
    return ended;
  } catch (error) {
    const refusal =
      error instanceof StartRefusal
        ? error
        : new StartRefusal(
            `Start-up failed: ${error instanceof Error ? error.stack : String(error)}`,
            1,
          );
    await output?.flush(EXIT_FLUSH_MS);
    io.stderr(`${refusal.message}\n`);
    io.exit(refusal.code);
    return refusal.code;
  }
}

async function startService<Config extends ListenSettings>(
  definition: ServiceDefinition<Config>,
  io: ServiceIO,
  opened: (output: LogOutput) => void,
): Promise<number | undefined> {
  const [first, ...rest] = io.argv;
  const command = first === undefined ? undefined : definition.commands?.[first];
  if (command !== undefined) return command(rest, io.env, io);

  const commandLine: CommandLine = readCommandLine(io.argv);
  if (commandLine.action === 'help') {
    io.stdout(formatUsage({ ...definition.usage, variables: usageLines(definition.variables) }));
    return 0;
  }
  if (commandLine.action === 'refuse') throw new StartRefusal(commandLine.message, 2);

  const output = await openLogOutput(io.logOutput);
  opened(output);
  if (definition.startingLine !== undefined) output.print(definition.startingLine);
  // Quiet on a terminal: warnings and errors, not a line per request (LOG_LEVEL=info shows them).
  const config = await configure(definition, io.env, output.pretty ? 'warn' : 'info');
  // A busy port is found before the store is opened, not after a first start's seconds.
  const portProblem = await findListenProblem(config.host, config.port);
  if (portProblem !== undefined) throw new StartRefusal(portProblem, 1);

  // Off a terminal every line is JSON (a log collector parses them all), in pino's shape.
  const note = (text: string, level = 30) =>
    output.print(output.pretty ? text : JSON.stringify({ level, time: Date.now(), msg: text }));
  let failed = false;
  const fail = (text: string) => {
    if (failed) return;
    failed = true;
    if (!output.pretty) output.print(JSON.stringify({ level: 60, time: Date.now(), msg: text }));
    io.stderr(`${text}\n`);
    void output.flush(EXIT_FLUSH_MS).then(() => io.exit(1));
  };
  const service = await definition.start(config, { output, note, fail });
  // SIGTERM/SIGINT: stop accepting, finish in-flight requests, close what the service opened,
  // within a deadline; the log output gets a bounded moment to drain, so a reader that is gone
  // or stuck never holds the exit.
  const uninstall = installGracefulShutdown(service.app, {
    onClose: () => service.close(),
    exit: (code) => void output.flush(EXIT_FLUSH_MS).then(() => io.exit(code)),
    ...(io.signals ? { signals: io.signals } : {}),
  });
  let url: string;
  try {
    url = await service.app.listen({ host: config.host, port: config.port });
  } catch (error) {
    const message = describeListenError(error, config.host, config.port);
    if (message === undefined) throw error;
    uninstall();
    await service.app.close();
    await service.close();
    throw new StartRefusal(message, 1);
  }
  const address = service.app.server.address();
  const port =
    typeof address === 'object' && address !== null && 'port' in address
      ? Number(address.port)
      : config.port;
  service.announce({ url, port });
  return undefined;
}

async function configure<Config extends ListenSettings>(
  definition: ServiceDefinition<Config>,
  env: Environment,
  defaultLogLevel: LogLevel,
): Promise<Config> {
  try {
    return await definition.configure(env, defaultLogLevel);
  } catch (error) {
    // A ConfigError names every problem; anything else (an unreadable secret file) says what.
    if (error instanceof ConfigError) throw new StartRefusal(describeConfigError(error), 1);
    if (error instanceof Error) throw new StartRefusal(`configuration error: ${error.message}`, 1);
    throw error;
  }
}

function usageLines(variables: readonly EnvVariable[]): Array<readonly [string, string]> {
  return variables.map(({ name, help }) => [name, help] as const);
}
