import type { SignatureScheme } from '../capture/record.js';

/** Header pairs in the order they were written; names may repeat. */
export type HeaderPairs = readonly (readonly [name: string, value: string])[];

/** How a route's (or every) request is signed: what `verify` checks and a re-signed replay writes. */
export interface VerifySpec {
  readonly scheme: SignatureScheme;
  /** The secret, `${VAR}` already expanded. Never printed. */
  readonly secret: string;
  /** Seconds a timestamped signature (stripe, standard-webhooks, slack) may be old or early. */
  readonly toleranceSeconds: number;
  /** hmac-sha256/512 only: the header carrying the signature. */
  readonly header?: string;
  /** hmac-sha256/512 only: how the digest is written (default hex). */
  readonly encoding?: 'hex' | 'base64';
  /** hmac-sha256/512 only: text before the digest in the header, e.g. `sha256=` (default none). */
  readonly prefix?: string;
}

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
  /** null: the next matching route's response, else the default one. */
  readonly response: ResponseSpec | null;
  /** A URL to forward to; false: do not forward; null or absent: as the next matching route, else global. */
  readonly forward?: string | false | null;
  /** The signature to check; false: none; null or absent: as the next matching route, else global. */
  readonly verify?: VerifySpec | false | null;
}

/** The file's `relay:` keys. */
export interface FileRelay {
  /** A send URL, `https://relay.example/c/<id>`. */
  readonly url?: string;
  /** The listen token; better `${WEBHOOK_RELAY_TOKEN}` than the token itself. */
  readonly token?: string;
}

/** Receiving from a channel of a self-hosted relay (`--relay`, the file's `relay:`). */
export interface RelaySettings {
  /** The channel's send URL, normalised (no trailing slash). */
  readonly sendUrl: string;
  /** The listen token (WEBHOOK_RELAY_TOKEN, else the file's relay.token). Never printed. */
  readonly token: string;
  /** Where the id of the last event handled is kept, to resume after a restart. */
  readonly cursorFile: string;
}

/** What a config file may say; everything optional. */
export interface FileConfig {
  readonly port?: number;
  readonly host?: string;
  readonly response?: ResponseSpec;
  /** Where every request is forwarded unless a route says otherwise (`--forward-to` overrides). */
  readonly forward?: string;
  /** The signature every request is checked against unless a route says otherwise. */
  readonly verify?: VerifySpec;
  readonly routes: readonly RouteSpec[];
  readonly relay?: FileRelay;
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

export interface ForwardSettings {
  /** `--forward-to` or the file's `forward`: the target when no route names one; null: none. */
  readonly defaultTarget: string | null;
  /** No complete answer within this many ms is a `timeout` failure. */
  readonly timeoutMs: number;
  /** Answer the original caller with the target's response (`--respond-with-forward`). */
  readonly respondWithForward: boolean;
  /**
   * Forwards to one target at once (`--forward-concurrency`, default 64, also when absent): 1
   * sends them one after another in capture order; more may reach the target out of order.
   */
  readonly concurrency?: number;
}
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
  readonly forward: ForwardSettings;
  /** The file's top-level `verify`, for requests no route's `verify` covers; null: none. */
  readonly verify: VerifySpec | null;
  /** Answer 401 to requests whose signature does not verify (`--reject-invalid`). */
  readonly rejectInvalid: boolean;
  /** Where replays go when no forward target applies (`--replay-to`); null: ask. */
  readonly replayTo: string | null;
  /** `--save FILE.jsonl`: every record appended as it completes; null: none. */
  readonly saveFile: string | null;
  /** `--load FILE.jsonl`: records to start with; null: none. */
  readonly loadFile: string | null;
  /** Also receive what senders post to a relay channel; null: local capture only. */
  readonly relay: RelaySettings | null;
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
export const DEFAULT_FORWARD_TIMEOUT_MS = 10_000;
/** Seconds of clock difference a timestamped signature may have (Stripe's and Svix's default). */
export const DEFAULT_TOLERANCE_SECONDS = 300;

/** The answer when no config file says otherwise. */
export const BUILT_IN_RESPONSE: ResponseSpec = {
  status: 200,
  headers: [['Content-Type', 'application/json']],
  body: '{"status":"ok"}',
};
