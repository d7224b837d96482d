import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'service-runtime',
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
  },
});
