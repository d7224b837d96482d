import { mkdirSync, rmdirSync, statSync, unlinkSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { StoreOpenError } from './store.js';

/**
 * One process at a time opens an embedded folder. PGlite takes no lock of its own (PostgreSQL's
 * postmaster.pid check is not there), and two processes on one folder each wrote over the
 * other's files: writes both had acknowledged were lost, without a word.
 *
 * The lock is a listening local socket named after the folder's device and inode (so every path
 * to it, through a symbolic link or a bind mount, names the same lock). The holder answers a
 * connection with its pid, for the refusal to name it. Where it lives depends on the system:
 *
 * - Linux: a Unix socket in the abstract namespace. The kernel makes it what a lock must be:
 *   binding the name is atomic (of two processes starting together exactly one gets it, the
 *   other EADDRINUSE), and the name belongs to the open socket, not to a file, so it is released
 *   the moment the process ends, however it ends (kill -9, a crash, the OOM killer): nothing
 *   stale is left, and there is no timeout to wait out or to be overtaken by a busy event loop
 *   (lock files refreshed by a timer are stolen when the event loop is held longer than their
 *   timeout, which a long statement of PGlite's synchronous WebAssembly does). Its bound: the
 *   name is per network namespace, so two containers with network namespaces of their own that
 *   mount the same folder do not see each other's lock.
 * - Windows: a named pipe, which has the same two properties.
 * - macOS and the other Unix systems: a Unix socket file in the temporary folder. Binding it is
 *   atomic too, but a process that is killed leaves the file behind. A file nobody listens on
 *   (connecting is refused) is stale and taken over, by one process at a time: the takeover is
 *   done holding a directory beside the file, whose creation is atomic, and the file is looked at
 *   again under it, so a process that found the file stale cannot remove the socket of one that
 *   has taken it over meanwhile. Its bound: the temporary folder is per user on macOS, so two
 *   accounts opening one folder do not see each other's lock.
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

/** How the lock is held: `abstract` on Linux, `pipe` on Windows, `file` elsewhere. */
export type LockKind = 'abstract' | 'pipe' | 'file';

export function lockKindOf(platform: NodeJS.Platform): LockKind {
  if (platform === 'linux') return 'abstract';
  if (platform === 'win32') return 'pipe';
  return 'file';
}

/** A takeover directory this old was left by a process that ended during its takeover. */
const TAKEOVER_ABANDONED_MS = 10_000;
/** How long to wait for another process's takeover before saying the lock cannot be had. */
const TAKEOVER_WAIT_MS = 15_000;
const TAKEOVER_POLL_MS = 25;

/**
 * Takes the lock on `dataDir` (which must exist) or throws DataDirBusyError. `kind` is this
 * system's (lockKindOf), and `folder` where a `file` lock is made; both are given by the tests.
 */
export async function lockDataDir(
  dataDir: string,
  kind: LockKind = lockKindOf(process.platform),
  folder: string = tmpdir(),
): Promise<DataDirLock> {
  const { dev, ino } = statSync(dataDir, { bigint: true });
  const id = `netops-store-data-dir-${dev}-${ino}`;
  if (kind === 'abstract') return takeName(dataDir, `\0${id}`);
  if (kind === 'pipe') return takeName(dataDir, `\\\\.\\pipe\\${id}`);
  const path = join(folder, `${id}.sock`);
  // A Unix socket's path has at most 103 bytes on macOS (107 elsewhere).
  return takeFile(dataDir, Buffer.byteLength(path) <= 103 ? path : join('/tmp', `${id}.sock`));
}

function busy(dataDir: string, pid: number | undefined): DataDirBusyError {
  return new DataDirBusyError(
    `DATA_DIR ${dataDir} is open in another process${pid === undefined ? '' : ` (pid ${pid})`}: one process at a time opens the embedded store. Stop that process first (or point DATA_DIR at another folder).`,
  );
}

/** A name that goes with its socket: listening on it is the lock. */
async function takeName(dataDir: string, name: string): Promise<DataDirLock> {
  for (let attempt = 1; ; attempt += 1) {
    const taken = await listenOn(name);
    if (taken !== 'in use') return taken;
    const holder = await probe(name);
    if (holder.state === 'listening') throw busy(dataDir, holder.pid);
    // Released between the two: the name is free again.
    if (attempt === NAME_ATTEMPTS) throw busy(dataDir, undefined);
  }
}
const NAME_ATTEMPTS = 3;

/**
 * A socket file: listening on it is the lock, and a file nobody listens on is taken over, one
 * process at a time (see the class comment).
 */
async function takeFile(dataDir: string, path: string): Promise<DataDirLock> {
  const takeover = `${path}.takeover`;
  const deadline = Date.now() + TAKEOVER_WAIT_MS;
  for (;;) {
    const taken = await listenOn(path);
    if (taken !== 'in use') return taken;
    const holder = await probe(path);
    if (holder.state === 'listening') throw busy(dataDir, holder.pid);
    if (holder.state === 'stale') {
      if (tryMakeDirectory(takeover)) {
        try {
          // Under the takeover directory nobody else removes the file: look again, since a
          // process may have taken it over between the probe above and the directory.
          const again = await probe(path);
          if (again.state === 'listening') throw busy(dataDir, again.pid);
          if (again.state === 'stale') removeStale(dataDir, path);
        } finally {
          rmdirSync(takeover);
        }
        continue;
      }
      clearAbandoned(takeover);
    }
    if (Date.now() > deadline) {
      throw new StoreOpenError(
        `DATA_DIR ${dataDir}: its lock ${path} could not be taken within ${TAKEOVER_WAIT_MS / 1000} s (${takeover} is held by another process starting). Start again; if this repeats, remove ${takeover}.`,
      );
    }
    await sleep(TAKEOVER_POLL_MS);
  }
}

/** Listens on `name` and holds it, or says it is in use; any other failure is thrown. */
async function listenOn(name: string): Promise<DataDirLock | 'in use'> {
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
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return 'in use';
    throw error;
  }
  // The lock never keeps the process alive by itself; it ends with the process or release().
  // Closing a Unix socket server removes its file.
  server.unref();
  return { release: () => closeServer(server) };
}

function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => server.close(() => resolve()));
}

type Probe =
  /** Someone listens: the holder, with the pid it answered (none within a second). */
  | { state: 'listening'; pid: number | undefined }
  /** A socket file nobody listens on: left by a process that ended without closing it. */
  | { state: 'stale' }
  /** Nothing there any more: it was released meanwhile. */
  | { state: 'gone' };

/**
 * Who holds `name`. A connection the system accepts is a live holder, even one whose event loop
 * is busy and does not answer; one it refuses is a socket file nobody listens on.
 */
function probe(name: string): Promise<Probe> {
  return new Promise((resolve) => {
    let text = '';
    let connected = false;
    const socket = connect(name);
    const done = (result: Probe) => {
      socket.destroy();
      resolve(result);
    };
    const answered = () => {
      const pid = Number.parseInt(text, 10);
      done({ state: 'listening', pid: Number.isSafeInteger(pid) && pid > 0 ? pid : undefined });
    };
    socket.on('connect', () => {
      connected = true;
    });
    socket.setTimeout(1000, answered);
    socket.on('data', (chunk: Buffer) => {
      text += chunk.toString();
    });
    socket.on('end', answered);
    socket.on('error', (error: NodeJS.ErrnoException) => {
      if (connected) return answered();
      if (error.code === 'ECONNREFUSED') return done({ state: 'stale' });
      if (error.code === 'ENOENT') return done({ state: 'gone' });
      // Not ours to connect to (another account's socket, EACCES): held, by whom is not known.
      done({ state: 'listening', pid: undefined });
    });
  });
}

function tryMakeDirectory(path: string): boolean {
  try {
    mkdirSync(path);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
}

function removeStale(dataDir: string, path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return;
    throw new StoreOpenError(
      `DATA_DIR ${dataDir}: its lock ${path} was left by a process that ended and cannot be removed (${code}): remove it, then start again.`,
    );
  }
}

/** Removes a takeover directory left by a process that ended during its takeover. */
function clearAbandoned(takeover: string): void {
  try {
    if (Date.now() - statSync(takeover).mtimeMs > TAKEOVER_ABANDONED_MS) rmdirSync(takeover);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
