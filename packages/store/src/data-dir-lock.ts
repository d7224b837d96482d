import { statSync } from 'node:fs';
import { connect, createServer, type Server } from 'node:net';
import { StoreOpenError } from './store.js';

/**
 * One process at a time opens an embedded folder. PGlite takes no lock of its own (PostgreSQL's
 * postmaster.pid check is not there), and two processes on one folder each wrote over the
 * other's files: writes both had acknowledged were lost, without a word.
 *
 * The lock is a Unix socket in Linux's abstract namespace, named after the folder's device and
 * inode (so every path to it, through a symbolic link or a bind mount, names the same lock). The
 * kernel makes it what a lock must be: binding the name is atomic (of two processes starting
 * together exactly one gets it, the other EADDRINUSE), and the name belongs to the open socket,
 * not to a file, so it is released the moment the process ends, however it ends (kill -9, a
 * crash, the machine's OOM killer): nothing stale is left to block the next start, and there is
 * no timeout to wait out or to be overtaken by a busy event loop (lock files refreshed by a timer
 * are stolen when the event loop is held longer than their timeout, which a long statement of
 * PGlite's synchronous WebAssembly does). The holder answers a connection with its pid, for the
 * refusal to name it.
 *
 * Its bounds: the name is per network namespace, so two containers with network namespaces of
 * their own that mount the same folder do not see each other's lock; and it is Linux's. Elsewhere
 * (macOS, Windows) the folder is opened without a lock, as before.
 */
export class DataDirBusyError extends StoreOpenError {
  override readonly name: string = 'DataDirBusyError';
}

export interface DataDirLock {
  release(): Promise<void>;
}

const NO_LOCK: DataDirLock = { release: async () => {} };

/** Takes the lock on `dataDir` (which must exist) or throws DataDirBusyError. */
export async function lockDataDir(dataDir: string): Promise<DataDirLock> {
  if (process.platform !== 'linux') return NO_LOCK;
  const { dev, ino } = statSync(dataDir, { bigint: true });
  const name = `\0netops-store-data-dir/${dev}/${ino}`;
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
    const pid = await holderPid(name);
    throw new DataDirBusyError(
      `DATA_DIR ${dataDir} is open in another process${pid === undefined ? '' : ` (pid ${pid})`}: one process at a time opens the embedded store. Stop that process first (or point DATA_DIR at another folder).`,
    );
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
    socket.on('end', () => {
      const pid = Number.parseInt(text, 10);
      done(Number.isSafeInteger(pid) && pid > 0 ? pid : undefined);
    });
  });
}
