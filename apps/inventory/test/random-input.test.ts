import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { filterableColumns } from '../src/resources/definition.js';
import { RESOURCES } from '../src/resources/index.js';
import { startTestApp, type TestContext } from './helpers.js';

/**
 * No client input may produce a 500: random bodies, queries and ids against every resource
 * (property-based, fast-check).
 */
let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const RUNS = 60;

describe.each(RESOURCES.map((definition) => [definition.name, definition] as const))(
  '%s never answers 500 to client input',
  (name, definition) => {
    const fieldNames = Object.keys(definition.columns);
    const fieldValue = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(null),
      fc.constantFrom('10.0.0.1', '::1', '2026-01-01T00:00:00Z', 'aa:bb:cc:dd:ee:ff', '10Gbps'),
      // Text PostgreSQL cannot store, and lone surrogates.
      fc.constantFrom('a\u0000b', '\u0000', '\ud800', 'x\udfff'),
      fc.uuid(),
      fc.jsonValue(),
    );
    const record = fc.dictionary(fc.oneof(fc.constantFrom(...fieldNames), fc.string()), fieldValue);

    it('on create, replace and batch bodies', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(record, fc.jsonValue()),
          fc.constantFrom('POST', 'PUT', 'PATCH', 'BATCH_PATCH', 'BATCH_DELETE'),
          fc.uuid(),
          async (body, operation, id) => {
            const batch = operation.startsWith('BATCH_');
            const response = await ctx.as('admin', {
              method: (batch ? operation.slice(6) : operation) as 'POST',
              url: operation === 'POST' || batch ? `/${name}` : `/${name}/${id}`,
              headers: { 'content-type': 'application/json' },
              payload: JSON.stringify(batch && !Array.isArray(body) ? [body] : body),
            });
            expect(response.statusCode, response.body).toBeLessThan(500);
            // A body that happens to be valid creates a record (locations have no status field),
            // so only refusals are held to the error shape.
            if (response.statusCode >= 400) {
              expect(response.json()).toMatchObject({
                status: 'error',
                message: expect.any(String),
              });
            }
          },
        ),
        { numRuns: RUNS },
      );
    });

    it('on list queries and path ids', async () => {
      const keys = [...filterableColumns(definition), 'page', 'limit', 'sortby', 'tags'];
      const queryValue = fc.oneof(fc.string(), fc.constantFrom('a\u0000b', '\u0000', '\ud800'));
      await fc.assert(
        fc.asyncProperty(
          fc.dictionary(fc.oneof(fc.constantFrom(...keys), fc.string()), queryValue, {
            maxKeys: 4,
          }),
          fc.string(),
          async (query, id) => {
            const list = await ctx.as('viewer', {
              method: 'GET',
              url: `/${name}`,
              query,
            });
            expect(list.statusCode, list.body).toBeLessThan(500);
            const one = await ctx.as('viewer', {
              method: 'GET',
              url: `/${name}/${encodeURIComponent(id)}`,
            });
            expect(one.statusCode, one.body).toBeLessThan(500);
          },
        ),
        { numRuns: RUNS },
      );
    });
  },
);
