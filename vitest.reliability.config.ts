import { defineConfig } from 'vitest/config';

// `npm run test:reliability` (CI) and `npm run soak` (SOAK=1: more cases, longer floods; not in
// CI): fuzzing, fault injection and attack tests, kept apart from the unit and HTTP suites. Each
// app declares its own project in apps/<app>/vitest.reliability.config.ts.
export default defineConfig({
  test: {
    projects: ['apps/*/vitest.reliability.config.ts'],
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
