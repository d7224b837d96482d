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
  readonly output: OutputMode;
}

export const DEFAULT_HOST = '127.0.0.1';
export const DEFAULT_PORT = 9080;
export const DEFAULT_LIMITS: Limits = {
  maxBody: 10 * 1024 * 1024,
  maxRequests: 1000,
  maxMemory: 256 * 1024 * 1024,
};
/** The answer when no config file says otherwise. */
export const BUILT_IN_RESPONSE: ResponseSpec = {
  status: 200,
  headers: [['Content-Type', 'application/json']],
  body: '{"status":"ok"}',
};
