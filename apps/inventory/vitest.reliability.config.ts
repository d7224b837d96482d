import { defineProject } from 'vitest/config';

// The inventory's reliability checks: OpenAPI-driven fuzzing, the authorization matrix, batch atomicity
// under injected failures, database outages, SIGKILL of the embedded store and hostile clients,
// run by `npm run test:reliability` (CI) and, with SOAK=1 (more cases, longer floods), `npm run soak`.
export default defineProject({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    name: 'inventory-reliability',
    include: ['reliability/**/*.test.ts'],
    testTimeout: 180_000,
    hookTimeout: 90_000,
  },
});
