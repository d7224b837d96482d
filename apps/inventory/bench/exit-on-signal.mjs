/**
 * Preloaded into the server only when the benchmark profiles it: Node writes a `--cpu-prof`
 * profile on a normal exit, not when a signal kills the process, so SIGTERM becomes an exit.
 */
process.once('SIGTERM', () => process.exit(0));
