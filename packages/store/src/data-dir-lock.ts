import {
  closeSync,
  constants,
  ftruncateSync,
  openSync,
  readFileSync,
  statSync,
  writeSync,
} from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { StoreOpenError } from './store.js';

/**
 * One process at a time opens an embedded folder. PGlite takes no lock of its own (PostgreSQL's
 * postmaster.pid check is not there), and two processes on one folder each wrote over the
 * other's files: writes both had acknowledged were lost, without a word.
 *
 * Every kind of lock here is one the operating system releases the moment the process ends,
 * however it ends (kill -9, a crash, the OOM killer): nothing stale is left to block the next
 * start, and there is no timeout to wait out or to be overtaken by a busy event loop (lock files
 * refreshed by a timer are stolen when the event loop is held longer than their timeout, which a
 * long statement of PGlite's synchronous WebAssembly does). Taking it is atomic: of two processes
 * starting together exactly one gets it.
 *
 * - Linux: a Unix socket in the abstract namespace, named after the folder's device and inode
 *   (so every path to it, through a symbolic link or a bind mount, names the same lock). The name
 *   belongs to the open socket, not to a file. The holder answers a connection with its pid, for
 *   the refusal to name it. Its bound: the name is per network namespace, so two containers with
 *   network namespaces of their own that mount the same folder do not see each other's lock.
 * - Windows: a named pipe of the same name, which behaves alike.
 * - macOS and the BSDs: the file `.lock` in the folder, opened with the system's exclusive file
 *   lock (`O_EXLOCK`, flock(2)'s lock taken by open(2) itself, without waiting: `O_NONBLOCK`).
 *   Being in the folder, it is the same lock for every account and environment; the holder writes
 *   its pid into it. The file stays when the lock is released: removing it would let a process
 *   that opened it just before lock the removed file while another locks a new one.
 *
 * These two were written from the systems' documentation and have not been run by this project's
 * tests, which run on Linux. So that a mistake there cannot keep the store from opening, a lock
 * either of them cannot take for a reason other than another process holding it is skipped with
 * a warning, and the folder is opened as it was before there was a lock. On other systems there
 * is none.
 *
 * No library served: the file locks of npm packages are either refreshed by a timer (stolen while
 * PGlite holds the event loop, see above) or native addons, which a fresh `npm install` on macOS
 * or Windows would have to compile.
 */
export class DataDirBusyError extends StoreOpenError {
  override readonly name: string = 'DataDirBusyError';
}

export interface DataDirLock {
  release(): Promise<void>;
}

const NO_LOCK: DataDirLock = { release: async () => {} };

/** How a system's lock is held (see the class comment). */
export type LockKind = 'abstract' | 'pipe' | 'flock' | 'none';

export function lockKindOf(platform: NodeJS.Platform): LockKind {
  if (platform === 'linux') return 'abstract';
  if (platform === 'win32') return 'pipe';
  if (platform === 'darwin' || platform === 'freebsd' || platform === 'openbsd') return 'flock';
  return 'none';
}

/**
 * The Linux lock's name. Kept as the first release that locked named it, so that a process of
 * that release and one of this release refuse each other (a new instance started before the old
 * one has stopped, on the same folder).
 */
export const abstractLockName = (dev: bigint, ino: bigint) =>
  `\0netops-store-data-dir/${dev}/${ino}`;

/** The file in the folder that macOS and the BSDs lock. */
export const LOCK_FILE = '.lock';

/** `O_EXLOCK` of macOS and the BSDs, which Node's constants do not name; the same on each. */
const O_EXLOCK = 0x20;

/** Takes the lock on `dataDir` (which must exist) or throws DataDirBusyError. */
export async function lockDataDir(
  dataDir: string,
  kind: LockKind = lockKindOf(process.platform),
): Promise<DataDirLock> {
  if (kind === 'none') return NO_LOCK;
  if (kind === 'flock') return lockFile(dataDir);
  const { dev, ino } = statSync(dataDir, { bigint: true });
  if (kind === 'abstract') return lockName(dataDir, abstractLockName(dev, ino));
  try {
    return await lockName(dataDir, `\\\\.\\pipe\\netops-store-data-dir-${dev}-${ino}`);
  } catch (error) {
    if (error instanceof DataDirBusyError) throw error;
    return skipped(dataDir, error);
  }
}

function busy(dataDir: string, pid: number | undefined): DataDirBusyError {
  return new DataDirBusyError(
    `DATA_DIR ${dataDir} is open in another process${pid === undefined ? '' : ` (pid ${pid})`}: one process at a time opens the embedded store. Stop that process first (or point DATA_DIR at another folder).`,
  );
}

/** An untried kind's failure: said once on stderr, the folder opened without a lock. */
function skipped(dataDir: string, error: unknown): DataDirLock {
  process.emitWarning(
    `DATA_DIR ${dataDir}: its lock could not be taken (${error instanceof Error ? error.message : String(error)}), so it is opened without one: make sure no other process opens it.`,
  );
  return NO_LOCK;
}

const pidOf = (text: string) => {
  const pid = Number.parseInt(text, 10);
  return Number.isSafeInteger(pid) && pid > 0 ? pid : undefined;
};

/** A name that goes with its socket: listening on it is the lock. */
async function lockName(dataDir: string, name: string): Promise<DataDirLock> {
  const server = createServer((socket) => {
    socket.on('error', () => {});
    socket.end(`${process.pid}\n`);
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(name, () => {
        server.off('error', reject);
        resolve();
      });
    });
  } catch (error) {
    server.close();
    if ((error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    throw busy(dataDir, await holderPid(name));
  }
  // The lock never keeps the process alive by itself; it ends with the process or release().
  server.unref();
  return { release: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

/** The pid the holder of `name` answers, or undefined if it does not within a second. */
function holderPid(name: string): Promise<number | undefined> {
  return new Promise((resolve) => {
    let text = '';
    const socket = connect(name);
    const done = (pid: number | undefined) => {
      socket.destroy();
      resolve(pid);
    };
    socket.setTimeout(1000, () => done(undefined));
    socket.on('error', () => done(undefined));
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('end', () => done(pidOf(text)));
  });
}

/** The folder's lock file, locked as it is opened (macOS and the BSDs). */
function lockFile(dataDir: string): DataDirLock {
  const path = join(dataDir, LOCK_FILE);
  let fd: number;
  try {
    fd = openSync(
      path,
      constants.O_RDWR | constants.O_CREAT | constants.O_NONBLOCK | O_EXLOCK,
      0o644,
    );
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'EAGAIN' || code === 'EWOULDBLOCK') throw busy(dataDir, holderPidIn(path));
    return skipped(dataDir, error);
  }
  try {
    ftruncateSync(fd, 0);
    writeSync(fd, `${process.pid}\n`, 0);
  } catch {
    // The pid only names the holder in another process's refusal; the lock is held without it.
  }
  let open = true;
  return {
    release: async () => {
      // Once: a second close could close another file that was given the same descriptor.
      if (open) closeSync(fd);
      open = false;
    },
  };
}

function holderPidIn(path: string): number | undefined {
  try {
    return pidOf(readFileSync(path, 'utf8'));
  } catch {
    return undefined;
  }
}
