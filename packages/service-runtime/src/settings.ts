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
  /** EMBEDDED_SHARED_BUFFERS, in megabytes; undefined: the store's default. */
  embeddedSharedBuffersMb: number | undefined;
}

/**
 * What EMBEDDED_SHARED_BUFFERS may be: 16 MB is the smallest size measured (single reads of the
 * inventory were 11 % slower than at 32 MB); PGlite (PostgreSQL compiled to 32-bit WebAssembly)
 * answered at 1 GB and fails to start at 2 GB.
 */
const EMBEDDED_SHARED_BUFFERS_MB = { min: 16, max: 1024 } as const;

/** `128MB`, `1GB`: a number of megabytes or gigabytes, PostgreSQL's way (any letter case). */
function parseEmbeddedSharedBuffers(text: string): number {
  const match = /^(\d{1,7})\s*(MB|GB)$/i.exec(text);
  const megabytes = match
    ? Number(match[1]) * ((match[2] as string).toUpperCase() === 'GB' ? 1024 : 1)
    : Number.NaN;
  const { min, max } = EMBEDDED_SHARED_BUFFERS_MB;
  if (!(megabytes >= min && megabytes <= max)) {
    throw new Error(
      `must be a size from ${min}MB to ${max / 1024}GB, such as 128MB, not ${JSON.stringify(text)}`,
    );
  }
  return megabytes;
}

export function storeVariables(
  defaultDataDir: string,
  dataDirHolds = 'the embedded store',
): {
  databaseUrl: EnvVariable;
  dataDir: EnvVariable;
  embeddedDurability: EnvVariable;
  embeddedSharedBuffers: EnvVariable;
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
    embeddedSharedBuffers: {
      name: 'EMBEDDED_SHARED_BUFFERS',
      help: 'memory the embedded store keeps pages in, 16MB to 1GB (default 32MB), e.g. 128MB',
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
    embeddedSharedBuffersMb: vars.read(
      'EMBEDDED_SHARED_BUFFERS',
      (text) => (text === undefined ? undefined : parseEmbeddedSharedBuffers(text)),
      undefined,
    ),
  };
}
