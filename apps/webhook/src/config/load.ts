import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { usageError } from '../errors.js';
import { loadConfigFile } from './file.js';
import { formatSize, parseSize } from './size.js';
import {
  type AppConfig,
  BUILT_IN_RESPONSE,
  DEFAULT_FORWARD_TIMEOUT_MS,
  DEFAULT_HOST,
  DEFAULT_LIMITS,
  DEFAULT_PORT,
  DEFAULT_TIMEOUTS,
  type Limits,
  type OutputMode,
} from './types.js';

export const HELP = `Usage: webhook [options]

Catches every HTTP request on a local port and shows it live in a terminal UI.

Options:
  -p, --port <n>          port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
      --host <addr>       address to listen on (default ${DEFAULT_HOST})
  -c, --config <file>     YAML config file (default ./config.yaml, ./config.yml,
                          then $XDG_CONFIG_HOME/webhook/config.yaml)
      --max-body <size>   bytes of one body kept (default ${formatSize(DEFAULT_LIMITS.maxBody)})
      --max-requests <n>  requests kept, oldest dropped first (default ${DEFAULT_LIMITS.maxRequests})
      --max-memory <size> bytes of bodies kept, oldest dropped first (default ${formatSize(DEFAULT_LIMITS.maxMemory)})
      --no-tui            print one line per request instead of the UI
      --json              print one JSON object per request (implies --no-tui)
  -h, --help              show this help
  -v, --version           show the version

Sizes take binary units: 512k, 10MiB, 1g.
Keys in the UI: Up/k Down/j select, Enter expands the body, PgUp/PgDn scroll, c clears, q quits.
`;

/** The bits of the environment the CLI depends on, passed in so nothing else reads process.env. */
export interface Environment {
  readonly cwd: string;
  readonly home: string;
  readonly xdgConfigHome: string | undefined;
  /** Whether stdin and stdout are both terminals, which the UI needs. */
  readonly interactive: boolean;
}

export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly config: AppConfig };

export function parseCommand(argv: readonly string[], env: Environment): Command {
  let values: ReturnType<typeof parseFlags>['values'];
  try {
    ({ values } = parseFlags(argv));
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };

  const limits = readLimits(values);
  const configFile = findConfigFile(values.config, env);
  const file = configFile
    ? loadConfigFile(resolve(env.cwd, configFile), configFile)
    : { routes: [] };
  const output: OutputMode = values.json
    ? 'json'
    : values['no-tui'] || !env.interactive
      ? 'lines'
      : 'tui';
  if (values.host !== undefined && values.host.trim() === '') {
    throw usageError('--host must not be empty');
  }
  return {
    kind: 'run',
    config: {
      host: values.host ?? file.host ?? DEFAULT_HOST,
      port: values.port === undefined ? (file.port ?? DEFAULT_PORT) : readPort(values.port),
      configFile,
      defaultResponse: file.response ?? BUILT_IN_RESPONSE,
      routes: file.routes,
      limits,
      timeouts: DEFAULT_TIMEOUTS,
      output,
      forward: {
        defaultTarget: file.forward ?? null,
        timeoutMs: DEFAULT_FORWARD_TIMEOUT_MS,
        respondWithForward: false,
      },
      verify: file.verify ?? null,
      rejectInvalid: false,
      replayTo: null,
      saveFile: null,
      loadFile: null,
    },
  };
}

function parseFlags(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: false,
    options: {
      port: { type: 'string', short: 'p' },
      host: { type: 'string' },
      config: { type: 'string', short: 'c' },
      'max-body': { type: 'string' },
      'max-requests': { type: 'string' },
      'max-memory': { type: 'string' },
      'no-tui': { type: 'boolean' },
      json: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
      version: { type: 'boolean', short: 'v' },
    },
  });
}

function readPort(text: string): number {
  const port = Number(text);
  if (!/^\d+$/.test(text) || port > 65535) {
    throw usageError(`--port must be an integer from 0 to 65535 (got ${text})`);
  }
  return port;
}

function readLimits(values: Record<string, string | boolean | undefined>): Limits {
  const size = (flag: 'max-body' | 'max-memory', fallback: number): number => {
    const text = values[flag];
    if (typeof text !== 'string') return fallback;
    const bytes = parseSize(text);
    if (bytes === null || bytes < 1) {
      throw usageError(`--${flag} must be a size such as 512k or 10MiB (got ${text})`);
    }
    return bytes;
  };
  const maxBody = size('max-body', DEFAULT_LIMITS.maxBody);
  const maxMemory = size('max-memory', DEFAULT_LIMITS.maxMemory);
  const requestsText = values['max-requests'];
  let maxRequests = DEFAULT_LIMITS.maxRequests;
  if (typeof requestsText === 'string') {
    maxRequests = Number(requestsText);
    if (!/^\d+$/.test(requestsText) || maxRequests < 1 || !Number.isSafeInteger(maxRequests)) {
      throw usageError(`--max-requests must be a positive integer (got ${requestsText})`);
    }
  }
  if (maxBody > maxMemory) {
    // Otherwise one full-size body could push every other record, and itself, out of the store.
    throw usageError(
      `--max-body (${formatSize(maxBody)}) must not exceed --max-memory (${formatSize(maxMemory)})`,
    );
  }
  return { maxBody, maxRequests, maxMemory };
}

/**
 * `--config` if given (it must exist), else the first default location that exists. Returns the
 * path as the user would write it (relative to the working directory when it is there).
 */
export function findConfigFile(flag: string | undefined, env: Environment): string | null {
  if (flag !== undefined) {
    if (!existsSync(resolve(env.cwd, flag))) throw usageError(`config file not found: ${flag}`);
    return flag;
  }
  const configHome = env.xdgConfigHome || join(env.home, '.config');
  const candidates = ['config.yaml', 'config.yml', join(configHome, 'webhook', 'config.yaml')];
  return candidates.find((candidate) => existsSync(resolve(env.cwd, candidate))) ?? null;
}
