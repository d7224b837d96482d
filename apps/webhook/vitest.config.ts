import { defineProject } from 'vitest/config';

export default defineProject({
  test: {
    name: 'webhook',
    include: ['test/**/*.test.{ts,tsx}'],
    testTimeout: 20_000,
    hookTimeout: 20_000,
  },
});
