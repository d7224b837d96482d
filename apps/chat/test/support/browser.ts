import { existsSync } from 'node:fs';

/** Debian's chromium, which playwright-core drives (`.ci/run` installs it). */
export const CHROMIUM = '/usr/bin/chromium';

/**
 * Whether the browser tests run: without chromium (a machine that never ran `.ci/run`) they are
 * skipped, and say so, so that `npm test` passes on a fresh clone with nothing installed by hand;
 * CI sets NETOPS_REQUIRE_CHROMIUM so that there they fail instead.
 */
export function browserTestsRun(what: string): boolean {
  const run = existsSync(CHROMIUM) || process.env.NETOPS_REQUIRE_CHROMIUM === '1';
  if (!run) console.warn(`${CHROMIUM} is missing: skipping ${what}`);
  return run;
}
