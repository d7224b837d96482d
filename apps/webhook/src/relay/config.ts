import { createPrivateKey, type KeyObject, X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import { parseArgs } from 'node:util';
import proxyAddr from '@fastify/proxy-addr';
import { formatSize, parseSize } from '../config/size.js';
import { usageError } from '../errors.js';
import {
  answerHeaderProblem,
  CHANNEL_ID,
  MAX_EVENT_BYTES,
  MAX_RELAY_BODY,
  parseSendUrl,
} from './protocol.js';
import { hashToken } from './secrets.js';
import type { BufferBounds } from './store.js';

/** A token bucket: `perSecond` on average, up to `burst` at once. */
export interface Rate {
  readonly perSecond: number;
  readonly burst: number;
}

export interface RelayLimits {
  /** Bytes of one sender's body; more is answered 413 and not relayed. */
  readonly maxBody: number;
  /** Per channel: events, bytes and age kept for listeners that are away. */
  readonly buffer: BufferBounds;
  /** Bytes every channel's buffer may hold together (in-process store); past it, 503. */
  readonly maxBufferedBytes: number;
  /** Bytes of request bodies being received at once; past it, 503 Retry-After. */
  readonly maxInFlightBytes: number;
  readonly maxChannels: number;
  readonly maxListenersPerChannel: number;
  readonly channelRate: Rate;
  readonly addressRate: Rate;
  /** How long a wait-for-local sender is held for a listener's answer. */
  readonly waitTimeoutMs: number;
  /** A listener whose connection has not taken `listenerBufferBytes` within this is dropped. */
  readonly slowListenerMs: number;
  /** Bytes written to a listener and not yet taken by its connection before the relay waits. */
  readonly listenerBufferBytes: number;
  /** A comment line to every listener this often, so proxies and clients see a live stream. */
  readonly heartbeatMs: number;
  /** A sender's request line and headers must arrive within this. */
  readonly headersTimeoutMs: number;
  /** A sender's whole request must arrive within this (slow senders). */
  readonly requestTimeoutMs: number;
  /** TCP connections open at once; past it a new one is closed without an answer. */
  readonly maxConnections: number;
  /**
   * Listener streams open at once over every channel, below `maxConnections` so that senders and
   * /health always find room; past it a listener gets 503.
   */
  readonly maxStreams: number;
  /**
   * Connections one address may hold open that are not listener streams (idle, or a request under
   * way); past it a new one gets 503 and is closed. Trusted proxies (--trust-proxy) are exempt.
   */
  readonly maxAddressConnections: number;
}

export const DEFAULT_RELAY_LIMITS: RelayLimits = {
  maxBody: 5 * 1024 * 1024,
  buffer: { events: 1000, bytes: 32 * 1024 * 1024, ageMs: 24 * 3600_000 },
  maxBufferedBytes: 512 * 1024 * 1024,
  maxInFlightBytes: 64 * 1024 * 1024,
  maxChannels: 1000,
  maxListenersPerChannel: 16,
  channelRate: { perSecond: 50, burst: 200 },
  addressRate: { perSecond: 100, burst: 400 },
  // GitHub gives up on a delivery after 10 s: answer before it does.
  waitTimeoutMs: 9_000,
  slowListenerMs: 15_000,
  listenerBufferBytes: 1024 * 1024,
  heartbeatMs: 15_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 1024,
  maxStreams: 768,
  maxAddressConnections: 64,
};

export interface RelayServerConfig {
  readonly host: string;
  readonly port: number;
  readonly tls: { readonly cert: Buffer; readonly key: Buffer } | null;
  /** sha256 of WEBHOOK_RELAY_ADMIN_TOKEN: the admin API compares hashes. */
  readonly adminTokenHash: string;
  /** The base URL senders use (`https://relay.example`); null: taken from each admin request. */
  readonly publicUrl: string | null;
  /** Proxies whose X-Forwarded-For names the sender (addresses, CIDR ranges, `loopback`…). */
  readonly trustProxy: readonly string[];
  readonly redisUrl: string | null;
  readonly limits: RelayLimits;
  /** pino level for the relay's JSON log lines on stdout. */
  readonly logLevel: 'info' | 'warn' | 'error' | 'silent' | 'debug';
}

export const DEFAULT_RELAY_PORT = 9090;

export const RELAY_HELP = `Usage: webhook relay serve [--host H] [--port P] [--tls-cert FILE --tls-key FILE] [limits]
       webhook relay create --server URL [--wait-for-local] [--status N] [--header 'Name: value']
                            [--body TEXT] [--json]
       webhook relay rotate --server URL --channel ID|SEND_URL [--json]
       webhook relay delete --server URL --channel ID|SEND_URL

A self-hosted relay: senders on the internet post to https://relay.example/c/<id>/..., and
'webhook --relay https://relay.example/c/<id>' receives every request, byte for byte.

serve options:
      --host <addr>          address to listen on (default 0.0.0.0)
      --port <n>             port (default ${DEFAULT_RELAY_PORT})
      --tls-cert <file>      serve HTTPS with this certificate chain (PEM)…
      --tls-key <file>       …and this key (PEM)
      --public-url <url>     the relay's public base URL, for the send URLs it hands out
      --trust-proxy <list>   proxies (addresses, CIDRs, loopback) whose X-Forwarded-For to believe
      --max-body <size>      bytes of one relayed body (default ${formatSize(DEFAULT_RELAY_LIMITS.maxBody)}, at most ${formatSize(MAX_RELAY_BODY)})
      --buffer-events <n>    events kept per channel (default ${DEFAULT_RELAY_LIMITS.buffer.events})
      --buffer-bytes <size>  bytes kept per channel (default ${formatSize(DEFAULT_RELAY_LIMITS.buffer.bytes)})
      --buffer-age <s>       seconds an event is kept (default ${DEFAULT_RELAY_LIMITS.buffer.ageMs / 1000})
      --max-buffered <size>  bytes kept over all channels (default ${formatSize(DEFAULT_RELAY_LIMITS.maxBufferedBytes)})
      --max-channels <n>     channels on this relay (default ${DEFAULT_RELAY_LIMITS.maxChannels})
      --max-listeners <n>    listeners per channel (default ${DEFAULT_RELAY_LIMITS.maxListenersPerChannel})
      --channel-rate <n>     requests per second per channel, bursts of 4x (default ${DEFAULT_RELAY_LIMITS.channelRate.perSecond})
      --address-rate <n>     requests per second per sender address, bursts of 4x (default ${DEFAULT_RELAY_LIMITS.addressRate.perSecond})
      --wait-timeout <s>     seconds a wait-for-local sender is held (default ${DEFAULT_RELAY_LIMITS.waitTimeoutMs / 1000})
      --max-connections <n>  TCP connections open at once (default ${DEFAULT_RELAY_LIMITS.maxConnections})
      --max-streams <n>      listeners over all channels, below --max-connections (default 3/4 of it: ${DEFAULT_RELAY_LIMITS.maxStreams})
      --max-address-connections <n>
                             connections one address holds besides its listeners (default ${DEFAULT_RELAY_LIMITS.maxAddressConnections})
      --log-level <level>    info, warn, error, debug or silent (default info)

Environment: WEBHOOK_RELAY_ADMIN_TOKEN (required to serve, create, rotate and delete),
REDIS_URL (several relays share channels, buffers and listeners through Redis).
`;

export type RelayCommand =
  | { readonly kind: 'relay-help' }
  | { readonly kind: 'relay-serve'; readonly config: RelayServerConfig }
  | {
      readonly kind: 'relay-create';
      readonly server: string;
      readonly adminToken: string;
      readonly json: boolean;
      readonly waitForLocal: boolean;
      readonly response: {
        readonly status?: number;
        readonly headers?: [string, string][];
        readonly body?: string;
      };
    }
  | {
      readonly kind: 'relay-rotate' | 'relay-delete';
      readonly server: string;
      readonly adminToken: string;
      readonly channel: string;
      readonly json: boolean;
    };

/** The admin token must be long enough that guessing it is hopeless. */
const MIN_ADMIN_TOKEN_LENGTH = 24;

export interface RelayEnvironment {
  readonly variables: Readonly<Record<string, string | undefined>>;
}

/** `webhook relay …`: argv after `relay`. */
export function parseRelayCommand(argv: readonly string[], env: RelayEnvironment): RelayCommand {
  const [action, ...rest] = argv;
  if (action === undefined || action === '--help' || action === '-h' || action === 'help') {
    return { kind: 'relay-help' };
  }
  let values: Record<string, string | boolean | string[] | undefined>;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({
      args: [...rest],
      options: RELAY_OPTIONS,
      strict: true,
      allowPositionals: true,
    }));
  } catch (error) {
    throw usageError(`webhook relay ${action}: ${(error as Error).message}`);
  }
  if (values.help) return { kind: 'relay-help' };
  if (positionals.length > 0) throw usageError(`unexpected argument: ${positionals[0]}`);
  const allowed: Record<string, readonly string[]> = {
    serve: [
      'host',
      'port',
      'tls-cert',
      'tls-key',
      'public-url',
      'trust-proxy',
      'max-body',
      'buffer-events',
      'buffer-bytes',
      'buffer-age',
      'max-buffered',
      'max-channels',
      'max-listeners',
      'channel-rate',
      'address-rate',
      'wait-timeout',
      'max-connections',
      'max-streams',
      'max-address-connections',
      'log-level',
    ],
    create: ['server', 'json', 'wait-for-local', 'status', 'header', 'body'],
    rotate: ['server', 'channel', 'json'],
    delete: ['server', 'channel', 'json'],
  };
  const names = allowed[action];
  if (!names) throw usageError(`unknown relay command: ${action} (serve, create, rotate, delete)`);
  for (const [name, value] of Object.entries(values)) {
    if (value !== undefined && !names.includes(name)) {
      throw usageError(`--${name} does not apply to webhook relay ${action}`);
    }
  }
  const adminToken = readAdminToken(env);
  if (action === 'serve') {
    return { kind: 'relay-serve', config: serveConfig(values, env, hashToken(adminToken)) };
  }
  const server = readServer(values.server as string | undefined);
  const json = Boolean(values.json);
  if (action === 'create') {
    const status = values.status as string | undefined;
    const response: { status?: number; headers?: [string, string][]; body?: string } = {};
    if (status !== undefined) response.status = readInteger('--status', status, 200, 599);
    const headers = values.header as string[] | undefined;
    if (headers) response.headers = headers.map(readHeader);
    if (values.body !== undefined) response.body = values.body as string;
    return {
      kind: 'relay-create',
      server,
      adminToken,
      json,
      waitForLocal: Boolean(values['wait-for-local']),
      response,
    };
  }
  const channelText = values.channel as string | undefined;
  if (!channelText) throw usageError(`webhook relay ${action} needs --channel ID or a send URL`);
  const channel = CHANNEL_ID.test(channelText)
    ? channelText
    : (parseSendUrl(channelText)?.channel ?? null);
  if (!channel)
    throw usageError(`--channel must be a channel id or a send URL (got ${channelText})`);
  return {
    kind: action === 'rotate' ? 'relay-rotate' : 'relay-delete',
    server,
    adminToken,
    channel,
    json,
  };
}

const RELAY_OPTIONS = {
  help: { type: 'boolean', short: 'h' },
  host: { type: 'string' },
  port: { type: 'string', short: 'p' },
  'tls-cert': { type: 'string' },
  'tls-key': { type: 'string' },
  'public-url': { type: 'string' },
  'trust-proxy': { type: 'string' },
  'max-body': { type: 'string' },
  'buffer-events': { type: 'string' },
  'buffer-bytes': { type: 'string' },
  'buffer-age': { type: 'string' },
  'max-buffered': { type: 'string' },
  'max-channels': { type: 'string' },
  'max-listeners': { type: 'string' },
  'channel-rate': { type: 'string' },
  'address-rate': { type: 'string' },
  'wait-timeout': { type: 'string' },
  'max-connections': { type: 'string' },
  'max-streams': { type: 'string' },
  'max-address-connections': { type: 'string' },
  'log-level': { type: 'string' },
  server: { type: 'string' },
  channel: { type: 'string' },
  json: { type: 'boolean' },
  'wait-for-local': { type: 'boolean' },
  status: { type: 'string' },
  header: { type: 'string', multiple: true },
  body: { type: 'string' },
} as const;

function readAdminToken(env: RelayEnvironment): string {
  const token = env.variables.WEBHOOK_RELAY_ADMIN_TOKEN ?? '';
  if (token.length < MIN_ADMIN_TOKEN_LENGTH || !/^[\x21-\x7e]+$/.test(token)) {
    throw usageError(
      `WEBHOOK_RELAY_ADMIN_TOKEN must be set to at least ${MIN_ADMIN_TOKEN_LENGTH} printable ` +
        'characters (e.g. openssl rand -base64 32)',
    );
  }
  return token;
}

/** An http(s) base URL given with `flag` (`--server`, `--public-url`), named in its messages. */
function readServer(text: string | undefined, flag = '--server'): string {
  if (!text) throw usageError(`needs ${flag} URL (the relay, e.g. https://relay.example)`);
  // What the URL parser would percent-encode or drop silently: a send URL built on it would then
  // not be what was typed (or put an escape sequence on every terminal that prints it).
  if (!/^[\x21-\x7e]+$/.test(text)) {
    throw usageError(`${flag} must be printable ASCII without spaces (got ${text})`);
  }
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw usageError(`${flag} must be an http:// or https:// URL (got ${text})`);
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || /[?#]/.test(text)) {
    throw usageError(`${flag} must be an http:// or https:// URL without query (got ${text})`);
  }
  // `--relay` refuses a send URL with credentials; the admin calls would send them to the relay.
  if (url.username || url.password) {
    throw usageError(`${flag} must not hold a user name or password (got ${url.host}…)`);
  }
  return text.replace(/\/+$/, '');
}

/**
 * The certificate chain and key, checked as the HTTPS server will use them: a file that is not
 * PEM, or a key that is not the certificate's, is a usage error naming the flag (it was a crash
 * with a stack trace once the server started).
 */
function readTls(
  cert: Buffer,
  certFile: string,
  key: Buffer,
  keyFile: string,
): { cert: Buffer; key: Buffer } {
  let certificate: X509Certificate;
  try {
    certificate = new X509Certificate(cert);
  } catch {
    throw usageError(`--tls-cert ${certFile}: not a PEM certificate (-----BEGIN CERTIFICATE-----)`);
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(key);
  } catch {
    throw usageError(`--tls-key ${keyFile}: not a PEM private key without a passphrase`);
  }
  if (!certificate.checkPrivateKey(privateKey)) {
    throw usageError(`--tls-key ${keyFile}: is not the key of the certificate in ${certFile}`);
  }
  try {
    createSecureContext({ cert, key });
  } catch (error) {
    throw usageError(`--tls-cert ${certFile}: cannot be used (${(error as Error).message})`);
  }
  return { cert, key };
}

function readHeader(text: string): [string, string] {
  const colon = text.indexOf(':');
  const name = colon > 0 ? text.slice(0, colon).trim() : '';
  // Sent as the bytes typed, as curl does: a command line is UTF-8, a header value is bytes (one
  // character U+0000–U+00FF per byte here, as the relay API takes it).
  const typed = colon > 0 ? text.slice(colon + 1).trim() : '';
  const value = Buffer.from(typed, 'utf8').toString('latin1');
  if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(name)) {
    throw usageError(`--header must be 'Name: value' (got ${text})`);
  }
  // As the relay checks it: a header it would refuse is refused here, before anything is sent.
  const problem = answerHeaderProblem(name, value);
  if (problem) throw usageError(`--header ${problem}`);
  return [name, value];
}

function readInteger(flag: string, text: string, min: number, max: number): number {
  if (!/^\d{1,12}$/.test(text) || Number(text) < min || Number(text) > max) {
    throw usageError(`${flag} must be an integer from ${min} to ${max} (got ${text})`);
  }
  return Number(text);
}

function readBytes(flag: string, text: string | undefined, fallback: number, min = 1): number {
  if (text === undefined) return fallback;
  const bytes = parseSize(text);
  if (bytes === null || bytes < min)
    throw usageError(`${flag} must be a size such as 5MiB (got ${text})`);
  return bytes;
}

/**
 * `--max-body`: at most what every client takes as one event. A larger body was taken from its
 * sender (200) and then refused by every listener.
 */
function readMaxBody(text: string | undefined, fallback: number): number {
  const bytes = readBytes('--max-body', text, fallback);
  if (bytes > MAX_RELAY_BODY) {
    throw usageError(
      `--max-body must be at most ${formatSize(MAX_RELAY_BODY)} (got ${text}): a relayed body ` +
        `travels in base64, a third longer, and with its headers must fit the ${formatSize(MAX_EVENT_BYTES)} ` +
        'event a client accepts',
    );
  }
  return bytes;
}

/**
 * The connection budget: listeners (streams held for hours) get at most --max-streams of
 * --max-connections, so what is left always takes senders and /health.
 */
function connectionLimits(
  int: (name: string, fallback: number, min: number, max: number) => number,
) {
  const d = DEFAULT_RELAY_LIMITS;
  const maxConnections = int('max-connections', d.maxConnections, 2, 1_000_000);
  const maxStreams = int('max-streams', Math.floor((maxConnections * 3) / 4), 1, 1_000_000);
  if (maxStreams >= maxConnections) {
    throw usageError(
      `--max-streams must be below --max-connections (got ${maxStreams} of ${maxConnections}): ` +
        'what is left is for senders and /health',
    );
  }
  const maxAddressConnections = int(
    'max-address-connections',
    d.maxAddressConnections,
    1,
    1_000_000,
  );
  return { maxConnections, maxStreams, maxAddressConnections };
}

function serveConfig(
  values: Record<string, string | boolean | string[] | undefined>,
  env: RelayEnvironment,
  adminTokenHash: string,
): RelayServerConfig {
  const text = (name: string) => values[name] as string | undefined;
  const int = (name: string, fallback: number, min: number, max: number) => {
    const value = text(name);
    return value === undefined ? fallback : readInteger(`--${name}`, value, min, max);
  };
  const d = DEFAULT_RELAY_LIMITS;
  const channelRate = int('channel-rate', d.channelRate.perSecond, 1, 100_000);
  const addressRate = int('address-rate', d.addressRate.perSecond, 1, 100_000);
  const limits: RelayLimits = {
    ...d,
    maxBody: readMaxBody(text('max-body'), d.maxBody),
    buffer: {
      events: int('buffer-events', d.buffer.events, 1, 1_000_000),
      bytes: readBytes('--buffer-bytes', text('buffer-bytes'), d.buffer.bytes),
      ageMs: int('buffer-age', d.buffer.ageMs / 1000, 1, 30 * 86_400) * 1000,
    },
    maxBufferedBytes: readBytes('--max-buffered', text('max-buffered'), d.maxBufferedBytes),
    maxChannels: int('max-channels', d.maxChannels, 1, 10_000_000),
    maxListenersPerChannel: int('max-listeners', d.maxListenersPerChannel, 1, 10_000),
    channelRate: { perSecond: channelRate, burst: channelRate * 4 },
    addressRate: { perSecond: addressRate, burst: addressRate * 4 },
    waitTimeoutMs: int('wait-timeout', d.waitTimeoutMs / 1000, 1, 600) * 1000,
    ...connectionLimits(int),
  };
  // Base64 makes a body a third longer on the wire; one event must fit a channel's buffer.
  if (Math.ceil(limits.maxBody * 1.34) + 64 * 1024 > limits.buffer.bytes) {
    throw usageError(
      '--buffer-bytes must hold at least one event of --max-body (1.34 x, plus headers)',
    );
  }
  if (limits.buffer.bytes > limits.maxBufferedBytes) {
    throw usageError('--max-buffered must be at least --buffer-bytes');
  }
  const certFile = text('tls-cert');
  const keyFile = text('tls-key');
  if (Boolean(certFile) !== Boolean(keyFile))
    throw usageError('--tls-cert and --tls-key go together');
  const read = (flag: string, file: string) => {
    try {
      return readFileSync(file);
    } catch (error) {
      throw usageError(
        `${flag} ${file}: cannot be read (${(error as NodeJS.ErrnoException).code})`,
      );
    }
  };
  const publicUrl = text('public-url');
  if (publicUrl !== undefined) readServer(publicUrl, '--public-url');
  const trustProxy = (text('trust-proxy') ?? '')
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean);
  try {
    proxyAddr.compile(trustProxy);
  } catch (error) {
    throw usageError(`--trust-proxy: ${(error as Error).message}`);
  }
  const logLevel = text('log-level') ?? 'info';
  if (!['info', 'warn', 'error', 'silent', 'debug'].includes(logLevel)) {
    throw usageError(`--log-level must be info, warn, error, debug or silent (got ${logLevel})`);
  }
  const redisUrl = env.variables.REDIS_URL || null;
  if (redisUrl && !/^rediss?:\/\//.test(redisUrl)) {
    throw usageError('REDIS_URL must be a redis:// or rediss:// URL');
  }
  return {
    host: text('host') ?? '0.0.0.0',
    port: int('port', DEFAULT_RELAY_PORT, 0, 65535),
    tls:
      certFile && keyFile
        ? readTls(read('--tls-cert', certFile), certFile, read('--tls-key', keyFile), keyFile)
        : null,
    adminTokenHash,
    publicUrl: publicUrl ? publicUrl.replace(/\/+$/, '') : null,
    trustProxy,
    redisUrl,
    limits,
    logLevel: logLevel as RelayServerConfig['logLevel'],
  };
}
