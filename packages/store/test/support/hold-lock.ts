// A process that takes the embedded folder's lock only (no store), of the kind and in the folder
// given as its arguments, says "open" on stdout, and holds it until its standard input closes (or
// a signal ends it); a lock that cannot be had prints its error's message on stderr and exits 1.
import { type LockKind, lockDataDir } from '../../src/data-dir-lock.js';

const [dataDir, kind, folder] = process.argv.slice(2);
if (dataDir === undefined || kind === undefined || folder === undefined) {
  throw new Error('usage: hold-lock.ts <dataDir> <abstract|file> <folder>');
}
try {
  const lock = await lockDataDir(dataDir, kind as LockKind, folder);
  process.stdout.write('open\n');
  process.stdin.resume();
  const release = async () => {
    await lock.release();
    process.exit(0);
  };
  process.stdin.on('end', release);
  process.on('SIGTERM', release);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
