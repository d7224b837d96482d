import { defineProject } from 'vitest/config';

export default defineProject({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    name: 'inventory',
    include: ['test/**/*.test.ts'],
    // Test files share their worker's modules (see the root vitest.config.ts).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
