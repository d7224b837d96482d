import { resolve } from 'node:path';
import {
  type EnvironmentReader,
  type EnvVariable,
  LOG_LEVELS,
  type LogLevel,
} from './environment.js';

/**
 * The settings every service reads the same way, declared and read once here: where it listens,
 * how much it logs, and where it keeps its data. Each service puts these declarations in its own
 * variable list (what `--help` prints) and reads them with these functions.
 */
export interface ListenSettings {
  host: string;
  /** 0 picks a free port. */
  port: number;
  logLevel: LogLevel;
}

export function listenVariables(defaultPort: number): EnvVariable[] {
  return [
    { name: 'PORT', help: `TCP port (default ${defaultPort}; 0 picks a free one)` },
    { name: 'HOST', help: 'address to listen on (default 127.0.0.1)' },
    {
      name: 'LOG_LEVEL',
      help: 'fatal, error, warn, info, debug, trace, silent (default: warn on a terminal, info otherwise)',
    },
  ];
}

export function readListenSettings(
  vars: EnvironmentReader,
  defaultPort: number,
  /** LOG_LEVEL when unset: runService passes `warn` when stdout is a terminal (quiet by default). */
  defaultLogLevel: LogLevel = 'info',
): ListenSettings {
  return {
    host: vars.read(
      'HOST',
      (text) => {
        if (text === undefined) return '127.0.0.1';
        // An address (IPv4, IPv6 with its zone) or a host name; anything else would reach the
        // listener, the banner and the URLs built from it.
        if (!/^[A-Za-z0-9._:%-]{1,253}$/.test(text)) {
          throw new Error(`must be an IP address or a host name, not ${JSON.stringify(text)}`);
        }
        return text;
      },
      '127.0.0.1',
    ),
    port: vars.integer('PORT', defaultPort, 0, 65_535),
    logLevel: vars.oneOf('LOG_LEVEL', LOG_LEVELS, defaultLogLevel),
  };
}

export interface StoreSettings {
  /** postgres:// URL, `memory://`, or undefined for the embedded store in `dataDir`. */
  databaseUrl: string | undefined;
  /** Absolute. */
  dataDir: string;
  /** EMBEDDED_DURABILITY: flush each commit of the embedded store before answering (default on). */
  embeddedDurability: boolean;
}

export function storeVariables(
  defaultDataDir: string,
  dataDirHolds = 'the embedded store',
): {
  databaseUrl: EnvVariable;
  dataDir: EnvVariable;
  embeddedDurability: EnvVariable;
} {
  return {
    databaseUrl: {
      name: 'DATABASE_URL',
      help: 'postgres://… for PostgreSQL, memory:// for a throwaway store; unset: embedded store in DATA_DIR',
    },
    dataDir: { name: 'DATA_DIR', help: `folder of ${dataDirHolds} (default ./${defaultDataDir})` },
    embeddedDurability: {
      name: 'EMBEDDED_DURABILITY',
      help: 'on (default): each write is on disk before its answer; off: throwaway data only',
    },
  };
}

/** What DATABASE_URL may be: PostgreSQL, or the throwaway in-memory store. */
const DATABASE_URL = /^(postgres(ql)?:\/\/.|memory:\/\/$)/;

export function readStoreSettings(
  vars: EnvironmentReader,
  defaultDataDir: string,
  /** DATA_DIR, when relative, is taken from here. */
  cwd = process.cwd(),
): StoreSettings {
  return {
    databaseUrl: vars.read(
      'DATABASE_URL',
      (text) => {
        if (text !== undefined && !DATABASE_URL.test(text)) {
          // The URL may hold a password: only its scheme is repeated.
          const scheme = /^[A-Za-z][A-Za-z0-9+.-]{0,30}:/.exec(text)?.[0] ?? 'this value';
          throw new Error(
            `must be a postgres:// (or postgresql://) URL or memory://, not ${scheme}`,
          );
        }
        return text;
      },
      undefined,
    ),
    dataDir: resolve(cwd, vars.text('DATA_DIR') ?? defaultDataDir),
    embeddedDurability: vars.onOff('EMBEDDED_DURABILITY', true),
  };
}
