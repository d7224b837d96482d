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
    // Each project sets `isolate: false`: a worker runs its test files one after another in one
    // module graph, instead of loading Fastify, PGlite's WebAssembly and the app's modules again
    // for every file. That halved the inventory's tests (237 s to 122 s on this 2-core machine).
    // The price is a rule for every test: leave the process as found (close servers and stores,
    // restore timers and environment variables), and never rely on a process-wide cache being
    // cold (the service compiles each statement's shape once per process). The reliability
    // suite stays isolated: its latency and memory checks measure a process of their own.
  },
});
