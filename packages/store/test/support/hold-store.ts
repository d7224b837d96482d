// A process that opens the embedded store in the folder given as its argument, as a service
// does, says "open" on stdout, and holds it until its standard input closes (or a signal ends
// it); a store that cannot be opened prints its error's message on stderr and exits 1.
import { openStore } from '../../src/index.js';

const dataDir = process.argv[2];
if (dataDir === undefined) throw new Error('usage: hold-store.ts <dataDir>');
try {
  const store = await openStore<unknown>({
    dataDir,
    durable: false,
    autovacuum: { intervalMs: 0 },
  });
  process.stdout.write('open\n');
  process.stdin.resume();
  const close = async () => {
    await store.close();
    process.exit(0);
  };
  process.stdin.on('end', close);
  process.on('SIGTERM', close);
} catch (error) {
  process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
}
