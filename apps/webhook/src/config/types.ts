/** Header pairs in the order they were written; names may repeat. */
export type HeaderPairs = readonly (readonly [name: string, value: string])[];

export interface ResponseSpec {
  readonly status: number;
  readonly headers: HeaderPairs;
  readonly body: string;
}

export interface RouteSpec {
  /** As written: exact, or a prefix when it ends in `/*`. */
  readonly path: string;
  /** Upper-cased; null matches every method. */
  readonly method: string | null;
  readonly response: ResponseSpec;
}

/** What a config file may say; everything optional. */
export interface FileConfig {
  readonly port?: number;
  readonly host?: string;
  readonly response?: ResponseSpec;
  readonly routes: readonly RouteSpec[];
}

export interface Limits {
  /** Bytes of one body kept; the rest is read and dropped. */
  readonly maxBody: number;
  /** Records kept; the oldest go first. */
  readonly maxRequests: number;
  /** Bytes of bodies kept over all records; the oldest go first. */
  readonly maxMemory: number;
}

/**
 * How long the server waits for slow clients (a slowloris holding connections with headers or
 * a body sent a byte at a time). Fixed, not flags: see the README's "Capture and limits".
 */
export interface ServerTimeouts {
  /** Request line and headers must arrive within this (ms); else 408 and the connection closes. */
  readonly headersMs: number;
  /** The whole request, body included (ms); else 408. */
  readonly requestMs: number;
  /** An idle kept-alive connection is closed after this (ms). */
  readonly keepAliveMs: number;
  /** How often Node checks the two above (ms): a timeout fires at most this late. */
  readonly checkIntervalMs: number;
}

export type OutputMode = 'tui' | 'lines' | 'json';

/** Everything the CLI needs, read and validated once at start-up. */
export interface AppConfig {
  readonly host: string;
  readonly port: number;
  /** The config file used, or null when none was found. */
  readonly configFile: string | null;
  readonly defaultResponse: ResponseSpec;
  readonly routes: readonly RouteSpec[];
  readonly limits: Limits;
  readonly timeouts: ServerTimeouts;
  readonly output: OutputMode;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 9080;
export const DEFAULT_LIMITS: Limits = {
  maxBody: 10 * 1024 * 1024,
  maxRequests: 1000,
  maxMemory: 256 * 1024 * 1024,
};
export const DEFAULT_TIMEOUTS: ServerTimeouts = {
  // A webhook sender writes its headers in one go; 15 s is generous even over a tunnel, and ends a
  // slowloris connection four times sooner than Node's 60 s.
  headersMs: 15_000,
  // Time for --max-body's 10 MiB at about 100 KiB/s; Node's 300 s would let a trickling upload
  // hold a connection (and its partial body) for five minutes.
  requestMs: 120_000,
  // Node's default: longer than most clients' reuse window, short enough to free idle sockets.
  keepAliveMs: 5_000,
  // Node checks every 30 s by default, which would let a slow client run 30 s over.
  checkIntervalMs: 1_000,
};
/** The answer when no config file says otherwise. */
export const BUILT_IN_RESPONSE: ResponseSpec = {
  status: 200,
  headers: [['Content-Type', 'application/json']],
  body: '{"status":"ok"}',
};
