import { instanceVariant } from './instance-variants.js';

/**
 * Connections whose sessions plan each named statement once, for its first values, and reuse
 * that plan for every later call (`plan_cache_mode = force_generic_plan`), without parallel
 * workers (`max_parallel_workers_per_gather = 0`, as the embedded store always runs).
 *
 * PostgreSQL plans a named statement anew for each call's values five times, then keeps a
 * generic plan only when its estimated cost is no worse than the custom plans'. A list's
 * `LIMIT $n` and `OFFSET $m` have no value in a generic plan, so its estimate assumes a tenth
 * of the table is read, and PostgreSQL goes on planning every call of every list: for a varied
 * list, planning is about a quarter of the statement's time. A caller that knows a statement's
 * best plan does not depend on its values (an exact match and an order served by one index,
 * say) sends it here; a text search whose best plan depends on the pattern's length (one from
 * which no trigram can be drawn) stays on the ordinary connections.
 *
 * A plan made once assumes `LIMIT $n` reads a tenth of the matching rows, which is what makes
 * a parallel plan look cheap: reading them all in two processes and sorting them. With an index
 * in the list's order to hand, PostgreSQL's plan made once for `vendor = $1 ORDER BY id LIMIT
 * $2` read every entry of the vendor in another index that way (5,476 buffers, 11.6 ms at
 * 100,000 devices) instead of the first entries of `(vendor, id)` (6 buffers, 0.1 ms). A page
 * is a few index entries: no list planned once gains from a second process.
 */

const genericPlans = instanceVariant();

/** Registers the instance on `db`'s generic-plan connections (see instance-variants.ts). */
export const registerGenericPlans = genericPlans.register;

/**
 * The instance that runs statements on `db`'s generic-plan connections, or `db` itself inside a
 * transaction (which must stay on its own connection). The embedded store, one session, sets
 * the mode around each statement the instance runs instead (pglite-statements.ts).
 */
export const withGenericPlans = genericPlans.of;
