import { sql } from 'kysely';
import type { AnyDatabase } from '../db/schema.js';

/**
 * Budgets of account actions (reset e-mails, attempts at names already taken), counted in the
 * database (`account_throttle`, migration 010) so that every instance sharing it shares them: a
 * client spreading its requests over instances gets no more.
 */
export interface Budget {
  /** What is counted, e.g. `reset-mail:account`. */
  kind: string;
  /** How many within the window. */
  limit: number;
  windowSeconds: number;
}

export interface Charge {
  budget: Budget;
  /** What it is counted against: an account id, a client address. */
  subject: string;
}

export type SpendOutcome = { allowed: true } | { allowed: false; retryAfterSeconds: number };

/**
 * Spends one unit of every charge, or none if any budget is spent (then says when the first
 * unit comes back). Charges on one subject are serialised by a transaction-level advisory lock
 * (taken in a fixed order, so two spenders never wait on each other in a cycle), so concurrent
 * requests on any number of instances never overspend. Rows past their window are deleted here.
 */
export async function spendBudgets(
  db: AnyDatabase,
  charges: readonly Charge[],
): Promise<SpendOutcome> {
  const ordered = [...charges].sort((a, b) =>
    keyOf(a) < keyOf(b) ? -1 : keyOf(a) > keyOf(b) ? 1 : 0,
  );
  return db.transaction().execute(async (trx) => {
    for (const charge of ordered) {
      await sql`SELECT pg_advisory_xact_lock(hashtextextended(${keyOf(charge)}, 0))`.execute(trx);
    }
    let retryAfterSeconds = 0;
    for (const { budget, subject } of ordered) {
      const since = sql<Date>`now() - make_interval(secs => ${budget.windowSeconds})`;
      await trx
        .deleteFrom('account_throttle')
        .where('kind', '=', budget.kind)
        .where('created_at', '<=', since)
        .execute();
      const used = await trx
        .selectFrom('account_throttle')
        .select([
          sql<number>`count(*)::int`.as('count'),
          sql<
            number | null
          >`ceil(extract(epoch FROM min(created_at) + make_interval(secs => ${budget.windowSeconds}) - now()))::int`.as(
            'wait',
          ),
        ])
        .where('kind', '=', budget.kind)
        .where('subject', '=', subject)
        .executeTakeFirstOrThrow();
      if (used.count >= budget.limit) {
        retryAfterSeconds = Math.max(retryAfterSeconds, used.wait ?? budget.windowSeconds, 1);
      }
    }
    if (retryAfterSeconds > 0) return { allowed: false as const, retryAfterSeconds };
    await trx
      .insertInto('account_throttle')
      .values(ordered.map(({ budget, subject }) => ({ kind: budget.kind, subject })))
      .execute();
    return { allowed: true as const };
  });
}

const keyOf = (charge: Charge) => `${charge.budget.kind}:${charge.subject}`;
