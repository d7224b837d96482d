import { Session } from 'node:inspector/promises';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { startTestApp, type TestContext } from './helpers.js';

/**
 * A page of records is JSON text PostgreSQL writes (resources/pages.ts); the server puts it
 * between its envelope and sends it. Joined to the envelope as one string first, the page was
 * copied into a new string on V8's heap, as large as the page, before being encoded: a third of
 * what a request for 100 devices allocated, and of the young collections that followed. This
 * pins that the answer is written without that copy, by sampling the heap's allocations during
 * one request, those collected since included.
 */

interface SamplingProfile {
  head: ProfileNode;
  samples: { size: number; nodeId: number }[];
}
interface ProfileNode {
  id: number;
  callFrame: { functionName: string };
  children: ProfileNode[];
}

/** Each sampled allocation with the names of the functions on its stack. */
function allocations(profile: SamplingProfile) {
  const stacks = new Map<number, string[]>();
  const walk = (node: ProfileNode, stack: string[]) => {
    const here = [...stack, node.callFrame.functionName];
    stacks.set(node.id, here);
    for (const child of node.children) walk(child, here);
  };
  walk(profile.head, []);
  return profile.samples.map((sample) => ({
    size: sample.size,
    stack: stacks.get(sample.nodeId) ?? [],
  }));
}

let ctx: TestContext;

beforeAll(async () => {
  // Every request reads its page: a reused page would allocate nothing to look at.
  ctx = await startTestApp({ listCache: false });
  const devices = Array.from({ length: 100 }, (_, index) => ({
    id: uuidv7(),
    hostname: `page-allocation-${String(index).padStart(3, '0')}`,
    ip: '192.0.2.10',
    // Wide records, some of them not ASCII, so the page is far larger than anything else a
    // request allocates.
    model: `${index % 2 === 0 ? 'Ünïcode ✓ 🛰 ' : ''}${'m'.repeat(200)}`,
    os: 'o'.repeat(200),
  }));
  await (ctx.store.db as AnyDatabase).insertInto('devices').values(devices).execute();
});
afterAll(() => ctx?.close());

describe('a page of records', () => {
  it('is answered without a copy of its JSON text on the heap', async () => {
    const get = () => ctx.as('viewer', { method: 'GET', url: '/devices?limit=100' });
    // Statements compiled and validators built before the measured request.
    const first = await get();
    expect(first.statusCode).toBe(200);
    const pageBytes = first.rawPayload.length;
    expect(pageBytes).toBeGreaterThan(40_000);

    const session = new Session();
    session.connect();
    try {
      await session.post('HeapProfiler.enable');
      await session.post('HeapProfiler.startSampling', {
        samplingInterval: 1024,
        includeObjectsCollectedByMajorGC: true,
        includeObjectsCollectedByMinorGC: true,
      });
      const measured = await get();
      // The protocol's samples, which Node's typings of the profile leave out.
      const { profile } = (await session.post('HeapProfiler.stopSampling')) as unknown as {
        profile: SamplingProfile;
      };
      expect(measured.statusCode).toBe(200);
      expect(measured.rawPayload.equals(first.rawPayload)).toBe(true);

      // Strings of half the page or more: the page as the database driver decoded it, and the
      // answer as `inject` decodes it for the test once it is sent.
      const large = allocations(profile).filter((sample) => sample.size >= pageBytes / 2);
      // The sampling sees allocations as large as the page (else this test could not fail) ...
      expect(large.length).toBeGreaterThan(0);
      // ... and none of them was made while the answer was written, before it was handed over.
      const whileAnswering = large.filter(
        ({ stack }) => stack.includes('sendListPage') && !stack.includes('Reply.send'),
      );
      expect(whileAnswering).toEqual([]);
    } finally {
      await session.post('HeapProfiler.disable').catch(() => {});
      session.disconnect();
    }
  });

  it('keeps every byte of its text, whatever the characters', async () => {
    const response = await ctx.as('viewer', { method: 'GET', url: '/devices?limit=100' });
    expect(response.headers['content-length']).toBe(String(response.rawPayload.length));
    const { data } = response.json<{ data: { model: string }[] }>();
    expect(data).toHaveLength(100);
    expect(data.filter((device) => device.model.startsWith('Ünïcode ✓ 🛰 '))).toHaveLength(50);
  });
});
