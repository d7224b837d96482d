import { defineProject } from 'vitest/config';

// The chat reliability checks: fault injection, concurrency, token attacks and fuzzing, run by
// `npm run test:reliability` (CI) and, with SOAK=1 (more cases, bigger bursts), `npm run soak`.
export default defineProject({
  resolve: { conditions: ['development'] },
  ssr: { resolve: { conditions: ['development'] } },
  test: {
    name: 'chat-reliability',
    include: ['reliability/**/*.test.{ts,tsx}'],
    testTimeout: 120_000,
    hookTimeout: 60_000,
  },
});
