/**
 * Runs once before `npm test` and `npm run test:reliability`: one line saying which store the
 * suites run on, so that a green run on the embedded store alone is not mistaken for a full one.
 */
export default function announceSkippedVariants(): void {
  const unset = ['TEST_DATABASE_URL', 'TEST_REDIS_URL'].filter((name) => !process.env[name]);
  if (unset.length === 0) return;
  const what = [
    unset.includes('TEST_DATABASE_URL') ? 'PostgreSQL' : undefined,
    unset.includes('TEST_REDIS_URL') ? 'Redis' : undefined,
  ]
    .filter(Boolean)
    .join(' and ');
  console.log(
    `${what} tests skipped: ${unset.join(' and ')} ${unset.length > 1 ? 'are' : 'is'} unset; the suites run on the embedded store ` +
      '(set TEST_DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres TEST_REDIS_URL=redis://127.0.0.1:6379 to run them).',
  );
}
