import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { usageError } from '../errors.js';
import { CREDENTIALS_PROBLEM, QUERY_PROBLEM } from '../forward/url.js';
import { parseRelayCommand, type RelayCommand } from '../relay/config.js';
import { blockedPort, parseSendUrl } from '../relay/protocol.js';
import { loadConfigFile, type Variables } from './file.js';
import { formatSize, parseSize } from './size.js';
import type { FileConfig, RelaySettings } from './types.js';
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
       webhook replay --from FILE.jsonl (--id N | --all) --to URL [--resign] [-c FILE] [--save FILE]
       webhook export --from FILE.jsonl (--har OUT.har | --curl) [--id N]
       webhook relay serve|create|rotate|delete …   (see webhook relay --help)

Catches every HTTP request on a local port and shows it live in a terminal UI.

Options:
  -p, --port <n>          port to listen on (default ${DEFAULT_PORT}; 0 picks a free one)
      --host <addr>       address to listen on (default ${DEFAULT_HOST})
  -c, --config <file>     YAML config file (default ./config.yaml, ./config.yml,
                          then $XDG_CONFIG_HOME/webhook/config.yaml)
      --max-body <size>   bytes of one body kept (default ${formatSize(DEFAULT_LIMITS.maxBody)})
      --max-requests <n>  requests kept, oldest dropped first (default ${DEFAULT_LIMITS.maxRequests})
      --max-memory <size> bytes held by records and requests in flight, oldest records
                          dropped first (default ${formatSize(DEFAULT_LIMITS.maxMemory)})
      --no-tui            print one line per request instead of the UI
      --json              print one JSON object per request (implies --no-tui)
      --forward-to <url>  also send every request to this URL (routes may name their own)
      --forward-timeout <s>  seconds a forward target has to answer (default ${DEFAULT_FORWARD_TIMEOUT_MS / 1000})
      --respond-with-forward answer callers with the forward target's response
      --forward-concurrency <n>  forwards sent to one target at once, 1 to 64 (default 64:
                          they may reach it out of order; 1: one after another, in capture order)
      --reject-invalid    answer 401 to requests whose signature does not verify
      --replay-to <url>   where r replays in the UI when no forward target applies
      --relay <send-url>  also receive what senders post to this relay channel (token in
                          WEBHOOK_RELAY_TOKEN or relay.token in the config file)
      --save <file>       append every record to this JSON Lines file
      --load <file>       start with the records of a file written by --save or --json
  -h, --help              show this help
  -v, --version           show the version

Sizes take binary units: 512k, 10MiB, 1g.
Keys in the UI: Up/k Down/j select, Enter expands the body, PgUp/PgDn scroll, v body view,
/ filter, n/N next/previous match, r replay, e edit and replay, x copy as curl, X export HAR,
y copy the relay send URL, c clear, q quit.
`;

/** The bits of the environment the CLI depends on, passed in so nothing else reads process.env. */
export interface Environment {
  /** For `${VAR}` in the config file (secrets). */
  readonly variables?: Variables;
  readonly cwd: string;
  readonly home: string;
  readonly xdgConfigHome: string | undefined;
  /** Whether stdin and stdout are both terminals, which the UI needs. */
  readonly interactive: boolean;
}

/** `webhook replay`: records from a file sent again. */
export interface ReplayCommand {
  readonly kind: 'replay';
  readonly from: string;
  /** Seqs as in the file; null: all. */
  readonly ids: readonly number[] | null;
  readonly to: string;
  readonly resign: boolean;
  readonly saveFile: string | null;
  /** The routes, verify schemes and limits of the config (for --resign and timeouts). */
  readonly config: AppConfig;
}

/** `webhook export`: records from a file as HAR or curl commands. */
export interface ExportCommand {
  readonly kind: 'export';
  readonly from: string;
  readonly ids: readonly number[] | null;
  /** A path, or `-` for stdout. */
  readonly har: string | null;
  readonly curl: boolean;
  readonly maxLineBytes: number;
}

export type Command =
  | { readonly kind: 'help' }
  | { readonly kind: 'version' }
  | { readonly kind: 'run'; readonly config: AppConfig }
  | ReplayCommand
  | ExportCommand
  | RelayCommand;

export function parseCommand(argv: readonly string[], env: Environment): Command {
  // The relay's commands have options of their own (see relay/config.ts).
  if (argv[0] === 'relay')
    return parseRelayCommand(argv.slice(1), { variables: env.variables ?? {} });
  let values: ReturnType<typeof parseFlags>['values'];
  let positionals: string[];
  try {
    ({ values, positionals } = parseFlags(argv));
  } catch (error) {
    throw usageError((error as Error).message);
  }
  if (values.help) return { kind: 'help' };
  if (values.version) return { kind: 'version' };
  const [subcommand, extra] = positionals;
  if (
    extra !== undefined ||
    (subcommand !== undefined && !['replay', 'export'].includes(subcommand))
  ) {
    throw usageError(`unexpected argument: ${extra ?? subcommand}`);
  }
  const only = (allowed: readonly string[], what: string) => {
    for (const [name, value] of Object.entries(values)) {
      if (value !== undefined && !allowed.includes(name)) {
        throw usageError(`--${name} does not apply to ${what}`);
      }
    }
  };
  if (subcommand === 'export') {
    only(['from', 'id', 'all', 'har', 'curl', 'max-body'], 'webhook export');
    if (!values.from) throw usageError('webhook export needs --from FILE.jsonl');
    if (!values.har && !values.curl) throw usageError('webhook export needs --har FILE or --curl');
    return {
      kind: 'export',
      from: values.from,
      ids: readIds(values.id),
      har: values.har ?? null,
      curl: Boolean(values.curl),
      maxLineBytes: maxLineBytes(readLimits(values).maxBody),
    };
  }
  if (subcommand === 'replay') {
    only(
      ['from', 'id', 'all', 'to', 'resign', 'config', 'save', 'max-body', 'forward-timeout'],
      'webhook replay',
    );
    if (!values.from) throw usageError('webhook replay needs --from FILE.jsonl');
    if (!values.to) throw usageError('webhook replay needs --to URL');
    if ((values.id === undefined) === !values.all) {
      throw usageError('webhook replay needs either --id N (repeatable) or --all');
    }
    const config = runConfig(values, env);
    if (values.resign && !config.verify && !config.routes.some((route) => route.verify)) {
      throw usageError('--resign needs a verify scheme and secret in the config file');
    }
    return {
      kind: 'replay',
      from: values.from,
      ids: values.all ? null : readIds(values.id),
      to: readUrl('--to', values.to),
      resign: Boolean(values.resign),
      saveFile: values.save ?? null,
      config,
    };
  }
  return { kind: 'run', config: runConfig(values, env, true) };
}

/** Bytes of one line of a saved file: a record's body (base64) and headers, with room. */
export function maxLineBytes(maxBody: number): number {
  return Math.ceil(maxBody * 1.4) + 4 * 1024 * 1024;
}

function readIds(ids: string[] | undefined): number[] | null {
  if (ids === undefined) return null;
  return ids.map((id) => {
    if (!/^\d{1,15}$/.test(id) || Number(id) < 1) {
      throw usageError(`--id must be a record's seq, a positive integer (got ${id})`);
    }
    return Number(id);
  });
}

function readUrl(flag: string, text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${flag} must be an http:// or https:// URL (got ${text})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw usageError(`${flag} must be an http:// or https:// URL (got ${text})`);
  }
  if (url.username || url.password) throw usageError(`${flag} ${CREDENTIALS_PROBLEM}`);
  if (url.search || url.hash) {
    throw usageError(`${flag} ${QUERY_PROBLEM}`);
  }
  return text;
}

function runConfig(
  values: ReturnType<typeof parseFlags>['values'],
  env: Environment,
  /** Capturing (not replaying): the relay applies. */
  capturing = false,
): AppConfig {
  const limits = readLimits(values);
  const configFile = findConfigFile(values.config, env);
  const file = configFile
    ? loadConfigFile(resolve(env.cwd, configFile), configFile, env.variables)
    : { routes: [] };
  const output: OutputMode = values.json
    ? 'json'
    : values['no-tui'] || !env.interactive
      ? 'lines'
      : 'tui';
  if (values.host !== undefined && values.host.trim() === '') {
    throw usageError('--host must not be empty');
  }
  const defaultTarget = values['forward-to']
    ? readUrl('--forward-to', values['forward-to'])
    : (file.forward ?? null);
  const forwards = defaultTarget !== null || file.routes.some((route) => route.forward);
  if (values['respond-with-forward'] && !forwards) {
    throw usageError('--respond-with-forward needs --forward-to or a route with forward');
  }
  if (values['reject-invalid'] && !file.verify && !file.routes.some((route) => route.verify)) {
    throw usageError('--reject-invalid needs a verify scheme and secret in the config file');
  }
  if (values.save !== undefined && values.save.trim() === '')
    throw usageError('--save needs a file');
  if (values.load !== undefined && values.load.trim() === '')
    throw usageError('--load needs a file');
  return {
    host: values.host ?? file.host ?? DEFAULT_HOST,
    port: values.port === undefined ? (file.port ?? DEFAULT_PORT) : readPort(values.port),
    configFile,
    defaultResponse: file.response ?? BUILT_IN_RESPONSE,
    routes: file.routes,
    limits,
    timeouts: DEFAULT_TIMEOUTS,
    output,
    forward: {
      defaultTarget,
      timeoutMs: readSeconds('--forward-timeout', values['forward-timeout']),
      respondWithForward: Boolean(values['respond-with-forward']),
      concurrency: readForwardConcurrency(values['forward-concurrency']),
    },
    verify: file.verify ?? null,
    rejectInvalid: Boolean(values['reject-invalid']),
    replayTo: values['replay-to'] ? readUrl('--replay-to', values['replay-to']) : null,
    saveFile: values.save ?? null,
    loadFile: values.load ?? null,
    relay: capturing ? relaySettings(values.relay, file.relay, env) : null,
  };
}

/**
 * The most forwards to one target at once, and the default: the forward queue's whole
 * concurrency. One at a time keeps capture order but, under a flood, falls behind the capture and
 * fills the queue (the benchmark's 12,000 requests: 1,795 forwarded, the rest queue-full).
 */
export const MAX_FORWARD_CONCURRENCY = 64;

function readForwardConcurrency(text: string | undefined): number {
  if (text === undefined) return MAX_FORWARD_CONCURRENCY;
  const count = Number(text);
  if (!/^\d+$/.test(text) || count < 1 || count > MAX_FORWARD_CONCURRENCY) {
    throw usageError(
      `--forward-concurrency must be a whole number from 1 to ${MAX_FORWARD_CONCURRENCY} (got ${text})`,
    );
  }
  return count;
}

function readSeconds(flag: string, text: string | undefined): number {
  if (text === undefined) return DEFAULT_FORWARD_TIMEOUT_MS;
  const seconds = Number(text);
  // The range the message states: 0.0001 was taken as 1 ms.
  if (!/^\d+(\.\d+)?$/.test(text) || seconds < 0.001 || seconds > 3600) {
    throw usageError(`${flag} must be a number of seconds from 0.001 to 3600 (got ${text})`);
  }
  return Math.round(seconds * 1000);
}

function parseFlags(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    strict: true,
    allowPositionals: true,
    options: {
      'forward-to': { type: 'string' },
      'forward-timeout': { type: 'string' },
      'respond-with-forward': { type: 'boolean' },
      'forward-concurrency': { type: 'string' },
      'reject-invalid': { type: 'boolean' },
      'replay-to': { type: 'string' },
      relay: { type: 'string' },
      save: { type: 'string' },
      load: { type: 'string' },
      from: { type: 'string' },
      id: { type: 'string', multiple: true },
      all: { type: 'boolean' },
      to: { type: 'string' },
      resign: { type: 'boolean' },
      har: { type: 'string' },
      curl: { type: 'boolean' },
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

function readLimits(values: Record<string, unknown>): Limits {
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
 * `--relay URL` (else the file's relay.url) with the token from WEBHOOK_RELAY_TOKEN (else the
 * file's relay.token): never a flag, so it stays out of shell history and `ps`.
 */
function relaySettings(
  flag: string | undefined,
  file: FileConfig['relay'],
  env: Environment,
): RelaySettings | null {
  const text = flag ?? file?.url;
  if (text === undefined) return null;
  const sendUrl = parseSendUrl(text);
  if (!sendUrl)
    throw usageError(`--relay must be a relay send URL, https://host/c/<id> (got ${text})`);
  const port = blockedPort(sendUrl);
  if (port !== null) {
    throw usageError(
      `--relay: port ${port} is one HTTP clients refuse to connect to (the Fetch standard's ` +
        'bad ports); run the relay on another port',
    );
  }
  const token = env.variables?.WEBHOOK_RELAY_TOKEN || file?.token;
  if (!token) {
    throw usageError(
      '--relay needs the listen token in WEBHOOK_RELAY_TOKEN or relay.token in the config file',
    );
  }
  if (!/^[\x21-\x7e]{1,512}$/.test(token))
    throw usageError('the relay listen token has characters a token never has');
  const stateHome = env.variables?.XDG_STATE_HOME || join(env.home, '.local', 'state');
  return {
    sendUrl: sendUrl.href,
    token,
    cursorFile: join(stateHome, 'webhook', 'relay', `${sendUrl.channel}.cursor`),
  };
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
