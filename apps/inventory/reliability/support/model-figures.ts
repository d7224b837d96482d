import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** SOAK=1 (`npm run soak`): ten times the cases of the CI run. */
export const SOAK = process.env.SOAK === '1';

/** `ci` in the CI run, `soak` under SOAK=1. */
export const scale = (ci: number, soak: number) => (SOAK ? soak : ci);

/** Which store this run uses, for the figures. */
export const STORE_KIND = process.env.TEST_DATABASE_URL ? 'postgres' : 'embedded';

/** The seed of a property run: FC_SEED to replay one, otherwise new each run (and printed). */
export const runSeed = () => Number(process.env.FC_SEED ?? Date.now() % 2 ** 31);

/**
 * Prints a check's figures as one JSON line (`[inventory-reliability] ...`) and keeps them in
 * $TMPDIR/inventory-reliability/<name>-<store>.json, where RELIABILITY.md's tables come from.
 */
export function report(name: string, figures: Record<string, unknown>): void {
  const record = {
    check: name,
    store: STORE_KIND,
    soak: SOAK,
    at: new Date().toISOString(),
    ...figures,
  };
  console.log(`[inventory-reliability] ${JSON.stringify(record)}`);
  const folder = join(tmpdir(), 'inventory-reliability');
  mkdirSync(folder, { recursive: true });
  writeFileSync(
    join(folder, `${name}-${STORE_KIND}${SOAK ? '-soak' : ''}.json`),
    JSON.stringify(record, null, 2),
  );
}
