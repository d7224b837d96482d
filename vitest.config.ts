import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each workspace with tests has its own project config.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    globalSetup: ['./vitest.global-setup.ts'],
    // Vitest's default is one worker fewer than the cores: a single worker on a 2-core machine.
    // Most of a test file's time here is spent waiting (on a spawned server, on PostgreSQL, on a
    // browser), so two files side by side keep both cores busy. The reliability suite keeps the
    // default: its latency checks must not share the machine with another file.
    maxWorkers: Math.max(2, availableParallelism() - 1),
  },
});
