import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { freePort } from './process-server.js';

const run = promisify(execFile);

/** Where Debian/Ubuntu install PostgreSQL 15's server programs. */
export const POSTGRES_BIN = '/usr/lib/postgresql/15/bin';

/**
 * A PostgreSQL 15 cluster of the test's own, on a free loopback port, so that a check may stop,
 * kill and restart it; the shared server on 5432 is never touched. PostgreSQL refuses to run as
 * root, so when the tests run as root its programs run as the `postgres` user (runuser), in a
 * temporary folder that user owns; the socket lives there too. Trust authentication: any password
 * in a URL is accepted and ignored.
 */
export interface PrivateCluster {
  readonly port: number;
  /** postgres://postgres:<password>@127.0.0.1:<port>/<database>. */
  url(database: string, password?: string): string;
  /** `pg_ctl stop -m <mode>`, waiting until the server is gone. */
  stop(mode: 'smart' | 'fast' | 'immediate'): Promise<void>;
  /** `pg_ctl start`, waiting until it accepts connections. */
  start(): Promise<void>;
  /**
   * SIGSTOP to the server and its backends: connections stay open and nothing answers, as with
   * a hung host or a network partition (no RST, no FIN).
   */
  freeze(): Promise<void>;
  /** SIGCONT to the processes frozen. */
  thaw(): Promise<void>;
  /** Runs SQL through psql as postgres (the database `postgres` unless told). */
  psql(sql: string, database?: string): Promise<string>;
  /** Stops the server if it runs and deletes the folder. */
  destroy(): Promise<void>;
}

/** Why the cluster cannot be made here, or undefined when it can. */
export function privateClusterUnavailable(): string | undefined {
  if (!existsSync(join(POSTGRES_BIN, 'pg_ctl'))) return `no PostgreSQL 15 in ${POSTGRES_BIN}`;
  if (userInfo().uid === 0 && !existsSync('/usr/sbin/runuser') && !existsSync('/sbin/runuser')) {
    return 'running as root without runuser (PostgreSQL refuses root)';
  }
  return undefined;
}

export async function startPrivateCluster(): Promise<PrivateCluster> {
  const asRoot = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), 'inventory-pg-'));
  const dataDir = join(dir, 'data');
  if (asRoot) {
    const { uid, gid } = await postgresIds();
    chownSync(dir, uid, gid);
  }
  const exec = async (program: string, args: string[]) => {
    const command = asRoot ? 'runuser' : join(POSTGRES_BIN, program);
    const argv = asRoot ? ['-u', 'postgres', '--', join(POSTGRES_BIN, program), ...args] : args;
    const { stdout } = await run(command, argv, { cwd: dir, timeout: 60_000 });
    return stdout;
  };
  await exec('initdb', [
    '-D',
    dataDir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '--no-sync',
    '--no-instructions',
    '-E',
    'UTF8',
  ]);
  const port = await freePort();
  // Loopback TCP only, the socket in our folder, a small footprint on a shared machine.
  const serverOptions = [
    `-p ${port}`,
    '-c listen_addresses=127.0.0.1',
    `-c unix_socket_directories=${dir}`,
    '-c shared_buffers=32MB',
    '-c max_connections=50',
  ].join(' ');
  const start = async () => {
    await exec('pg_ctl', [
      '-D',
      dataDir,
      '-l',
      join(dir, 'server.log'),
      '-o',
      serverOptions,
      '-w',
      '-t',
      '60',
      'start',
    ]);
  };
  const stop = async (mode: 'smart' | 'fast' | 'immediate') => {
    await exec('pg_ctl', ['-D', dataDir, '-m', mode, '-w', '-t', '60', 'stop']);
  };
  await start();
  let running = true;
  let frozen: string[] = [];
  const signal = async (name: 'STOP' | 'CONT', pids: string[]) => {
    if (pids.length > 0) await run('kill', [`-${name}`, ...pids]);
  };
  return {
    port,
    url: (database, password) =>
      `postgres://postgres${password ? `:${password}` : ''}@127.0.0.1:${port}/${database}`,
    async stop(mode) {
      await stop(mode);
      running = false;
    },
    async start() {
      await start();
      running = true;
    },
    psql: (sql, database = 'postgres') =>
      exec('psql', ['-h', dir, '-p', String(port), '-U', 'postgres', '-d', database, '-qAtc', sql]),
    async freeze() {
      const postmaster = readFileSync(join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0] ?? '';
      const { stdout } = await run('pgrep', ['-P', postmaster]).catch(() => ({ stdout: '' }));
      frozen = [postmaster, ...stdout.split('\n').filter(Boolean)];
      await signal('STOP', frozen);
    },
    async thaw() {
      await signal('CONT', frozen);
      frozen = [];
    },
    async destroy() {
      await signal('CONT', frozen).catch(() => {});
      if (running) await stop('immediate').catch(() => {});
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function postgresIds(): Promise<{ uid: number; gid: number }> {
  const { stdout } = await run('id', ['postgres']);
  const uid = Number(/uid=(\d+)/.exec(stdout)?.[1]);
  const gid = Number(/gid=(\d+)/.exec(stdout)?.[1]);
  if (!Number.isInteger(uid) || !Number.isInteger(gid)) throw new Error('no postgres user');
  return { uid, gid };
}
