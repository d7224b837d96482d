import { instanceVariant } from './instance-variants.js';

/** A caller waiting in a CheckoutQueue; `admit` hands it the turn. */
interface Waiter {
  admit(): void;
}

/**
 * Reads that may start while some writes are in the database (fewer than their half of the
 * turns), unless the store is told otherwise: a fifth of the turns, at least one (2 of 10).
 */
export function defaultReadsBesideWrites(size: number): number {
  return Math.max(1, Math.floor(size / 5));
}

/**
 * Writes ahead of reads in the queue for a pool's connections.
 *
 * Under load every request waits for a connection, and a write waited behind every list that
 * arrived before it: a PATCH whose statement takes a few milliseconds answered after hundreds,
 * most of them in the pool's queue. A write is short and its user waits on it (a form saved,
 * an automation's change), while the lists ahead of it are many. So a write takes the next free
 * connection before any waiting read, up to half of the pool: a flood of writes (an import, a
 * script) never holds every connection, and reads keep the other half.
 *
 * Its turn is not all a write waits for: once in the database it shares the server's cores with
 * every statement running beside it, and ten statements on two cores run each at a fifth of its
 * speed. So while some writes run, reads start only while fewer than `readsBesideWrites` reads
 * run; the reads already running finish, and without writes reads take every turn again. Writes
 * that hold their whole half of the turns are a flood, bounded already: reads then keep the
 * other half, as before. Reads always keep at least one turn.
 */
export class CheckoutQueue {
  readonly #size: number;
  readonly #writeShare: number;
  readonly #readsBesideWrites: number;
  #inUse = 0;
  #writesInUse = 0;
  readonly #waiting = { write: [] as Waiter[], read: [] as Waiter[] };

  constructor(size: number, readsBesideWrites = defaultReadsBesideWrites(size)) {
    this.#size = Math.max(1, size);
    this.#writeShare = Math.max(1, Math.floor(this.#size / 2));
    this.#readsBesideWrites = Math.max(1, readsBesideWrites);
  }

  /**
   * Resolves when the caller may take a connection; it calls `leave` once it gives it back.
   * After `timeoutMs` of waiting (0: no limit) it fails with `pg`'s own message for a pool that
   * had no connection in time, which the services answer 503 to, and leaves the queue.
   */
  async enter(write: boolean, timeoutMs = 0): Promise<void> {
    const queue = this.#waiting[write ? 'write' : 'read'];
    if (queue.length === 0 && this.#canStart(write)) {
      this.#take(write);
      // A write that fills the writes' half lets the reads held back take the other half.
      if (write && this.#writesInUse === this.#writeShare) this.#dispatch();
      return;
    }
    // The slot is taken for the caller when it is handed over (#dispatch).
    await new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        admit: () => {
          clearTimeout(timer);
          resolve();
        },
      };
      const timer =
        timeoutMs > 0
          ? setTimeout(() => {
              queue.splice(queue.indexOf(waiter), 1);
              reject(new Error('timeout exceeded when trying to connect'));
            }, timeoutMs)
          : undefined;
      queue.push(waiter);
    });
  }

  leave(write: boolean): void {
    this.#inUse -= 1;
    if (write) this.#writesInUse -= 1;
    this.#dispatch();
  }

  #canStart(write: boolean): boolean {
    if (this.#inUse >= this.#size) return false;
    if (write) return this.#writesInUse < this.#writeShare;
    // Writes holding their whole share are a flood (an import), which is limited already: reads
    // keep the other half then, so that browsing during an import is not slowed as well.
    const someWrites = this.#writesInUse > 0 && this.#writesInUse < this.#writeShare;
    return !someWrites || this.#inUse - this.#writesInUse < this.#readsBesideWrites;
  }

  #take(write: boolean): void {
    this.#inUse += 1;
    if (write) this.#writesInUse += 1;
  }

  #dispatch(): void {
    for (;;) {
      const write = this.#waiting.write.length > 0 && this.#canStart(true);
      if (!write && !(this.#waiting.read.length > 0 && this.#canStart(false))) return;
      this.#take(write);
      this.#waiting[write ? 'write' : 'read'].shift()?.admit();
    }
  }
}

const writesFirstVariant = instanceVariant();

/** Registers the writes-first instance made beside `db` (see instance-variants.ts). */
export const registerWritesFirst = writesFirstVariant.register;

/**
 * The instance whose statements wait for a connection ahead of `db`'s reads (on the embedded
 * store, for its one connection: see pglite-dialect.ts), or `db` itself inside a transaction
 * (which holds its connection already) or for an instance the store did not make.
 */
export const writesFirst = writesFirstVariant.of;
