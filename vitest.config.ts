import { defineConfig } from 'vitest/config';

// One Vitest run covers every workspace; each workspace with tests has its own project config.
export default defineConfig({
  test: {
    projects: ['packages/*', 'apps/*'],
    globalSetup: ['./vitest.global-setup.ts'],
  },
});
