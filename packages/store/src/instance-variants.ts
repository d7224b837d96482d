import type { Kysely } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: any database's instance, as Kysely's own helpers take
type AnyKysely = Kysely<any>;

/**
 * A second Kysely instance the store makes beside `db` for one purpose (statements planned once,
 * writes first), found from `db` itself. Keyed by the instance: a copy of it (a plugin added) or
 * a wrapper (a test's) finds none and runs as `db`, which is slower and never wrong. A
 * transaction stays on its own connection, so it is its own variant.
 */
export function instanceVariant() {
  const variants = new WeakMap<object, AnyKysely>();
  return {
    register(db: AnyKysely, variant: AnyKysely): void {
      variants.set(db, variant);
    },
    of<D extends AnyKysely>(db: D): D {
      if (db.isTransaction) return db;
      return (variants.get(db) as D | undefined) ?? db;
    },
  };
}
