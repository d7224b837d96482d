import { defineProject } from 'vitest/config';

// `npm run test:reliability` (CI) and `npm run soak` (SOAK=1): hostile HTTP, slow clients, memory
// bounds, a flood under the UI in a pseudo-terminal. Kept out of `npm test` (see RELIABILITY.md).
export default defineProject({
  test: {
    name: 'webhook-reliability',
    include: ['reliability/**/*.test.{ts,tsx}'],
    // The soak's floods (SOAK=1: 50 000 requests under the UI) take several minutes.
    testTimeout: process.env.SOAK === '1' ? 900_000 : 120_000,
    hookTimeout: 30_000,
    // The checks measure memory and latency: running them side by side would skew each other.
    fileParallelism: false,
  },
});
