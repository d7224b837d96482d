import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'webhook',
    include: ['test/**/*.test.{ts,tsx}'],
    // Test files share their worker's modules (see the root vitest.config.ts).
    isolate: false,
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
