import { describe, expect, it } from 'vitest';
import { ConnectionLease } from '../src/pglite-dialect.js';
import { CheckoutQueue } from '../src/writes-first.js';

/** Enters `queue` and records the order in which callers were let through. */
function enter(queue: CheckoutQueue, order: string[], name: string, write: boolean) {
  return queue.enter(write).then(() => {
    order.push(name);
  });
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('CheckoutQueue (a connection for writes before waiting reads)', () => {
  it('lets callers through at once while connections are free', async () => {
    // As many reads beside writes as there are connections: no limit (see the test below).
    const queue = new CheckoutQueue(3, 3);
    const order: string[] = [];
    await Promise.all([
      enter(queue, order, 'r1', false),
      enter(queue, order, 'w1', true),
      enter(queue, order, 'r2', false),
    ]);
    expect(order).toEqual(['r1', 'w1', 'r2']);
  });

  it('hands a freed connection to a waiting write before reads that waited longer', async () => {
    const queue = new CheckoutQueue(2);
    const order: string[] = [];
    await enter(queue, order, 'r1', false);
    await enter(queue, order, 'r2', false);
    const waiting = [
      enter(queue, order, 'r3', false),
      enter(queue, order, 'r4', false),
      enter(queue, order, 'w1', true),
    ];
    await settle();
    expect(order).toEqual(['r1', 'r2']);
    queue.leave(false);
    await settle();
    expect(order).toEqual(['r1', 'r2', 'w1']);
    queue.leave(false);
    queue.leave(true);
    await Promise.all(waiting);
    // Reads keep their arrival order.
    expect(order).toEqual(['r1', 'r2', 'w1', 'r3', 'r4']);
  });

  it('never gives writes more than half of the connections, so reads are not starved', async () => {
    const queue = new CheckoutQueue(4);
    const order: string[] = [];
    const writes = Array.from({ length: 4 }, (_, i) => enter(queue, order, `w${i + 1}`, true));
    const read = enter(queue, order, 'r1', false);
    await settle();
    // Two writes hold half; the read takes a third connection while two writes wait.
    expect(order).toEqual(['w1', 'w2', 'r1']);
    await read;
    queue.leave(true);
    await settle();
    expect(order).toEqual(['w1', 'w2', 'r1', 'w3']);
    queue.leave(true);
    await Promise.all(writes);
    expect(order).toEqual(['w1', 'w2', 'r1', 'w3', 'w4']);
  });
});

describe('CheckoutQueue, reads beside writes', () => {
  it('starts fewer reads while a write runs, and every read again once writes are done', async () => {
    // The default: a fifth of the connections, here 2 of 10.
    const queue = new CheckoutQueue(10);
    const order: string[] = [];
    await enter(queue, order, 'w1', true);
    const reads = ['r1', 'r2', 'r3', 'r4'].map((name) => enter(queue, order, name, false));
    await settle();
    // Eight connections are free, but only two reads run beside the write.
    expect(order).toEqual(['w1', 'r1', 'r2']);
    queue.leave(true);
    await Promise.all(reads);
    expect(order).toEqual(['w1', 'r1', 'r2', 'r3', 'r4']);

    // A write arriving while four reads run takes its turn at once; they finish, and a new read
    // starts only once fewer than two run.
    await enter(queue, order, 'w2', true);
    const late = enter(queue, order, 'r5', false);
    queue.leave(false);
    queue.leave(false);
    await settle();
    expect(order).toEqual(['w1', 'r1', 'r2', 'r3', 'r4', 'w2']);
    queue.leave(false);
    await late;
    expect(order).toEqual(['w1', 'r1', 'r2', 'r3', 'r4', 'w2', 'r5']);
  });

  it('leaves reads their half of the turns beside a flood of writes, and always one', async () => {
    const queue = new CheckoutQueue(4, 1);
    const order: string[] = [];
    await enter(queue, order, 'w1', true);
    await enter(queue, order, 'r1', false);
    // One read beside one write, although two connections are free.
    const held = enter(queue, order, 'r2', false);
    await settle();
    expect(order).toEqual(['w1', 'r1']);
    // A second write fills the writes' half: a flood, so reads may take the other half again.
    await enter(queue, order, 'w2', true);
    await held;
    expect(order).toEqual(['w1', 'r1', 'w2', 'r2']);
    // Back to one write: the two reads running finish before another starts.
    queue.leave(true);
    const late = enter(queue, order, 'r3', false);
    queue.leave(false);
    await settle();
    expect(order).toEqual(['w1', 'r1', 'w2', 'r2']);
    queue.leave(false);
    await late;
    expect(order).toEqual(['w1', 'r1', 'w2', 'r2', 'r3']);
  });
});

describe("ConnectionLease (the embedded store's one connection)", () => {
  it('serves a write ahead of waiting reads, but never twice in a row while reads wait', async () => {
    const lease = new ConnectionLease();
    const order: string[] = [];
    const take = (name: string, write: boolean) =>
      lease.acquire(write).then(() => {
        order.push(name);
      });
    await take('r1', false);
    const waiting = [
      take('r2', false),
      take('r3', false),
      take('w1', true),
      take('w2', true),
      take('w3', true),
    ];
    for (let turn = 0; turn < waiting.length; turn++) {
      lease.release();
      await settle();
    }
    await Promise.all(waiting);
    expect(order).toEqual(['r1', 'w1', 'r2', 'w2', 'r3', 'w3']);
  });
});

describe('CheckoutQueue, waiting bounded', () => {
  it('gives up after the wait allowed, with the message a pool without a connection gives', async () => {
    const queue = new CheckoutQueue(1);
    await queue.enter(false);
    await expect(queue.enter(true, 30)).rejects.toThrow('timeout exceeded when trying to connect');
    // The caller that gave up left the queue: the freed connection is not handed to it.
    queue.leave(false);
    const order: string[] = [];
    await enter(queue, order, 'r2', false);
    expect(order).toEqual(['r2']);
  });
});
