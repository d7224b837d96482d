import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RESOURCES } from '../src/resources/index.js';
import { startTestApp, type TestContext } from './helpers.js';

/**
 * CSV: every list answers text/csv and every resource's create and batch update read it, so the OpenAPI
 * document (and the fuzzing suite generated from it) must describe both media types.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
  requestBody?: { content?: Record<string, { schema?: { type?: string } }> };
  responses: Record<string, { content?: Record<string, { schema?: { type?: string } }> }>;
}

describe('OpenAPI document: CSV', () => {
  let paths: Record<string, Record<string, Operation>>;
  beforeAll(async () => {
    const response = await ctx.app.inject({ url: '/openapi.json' });
    paths = response.json<{ paths: typeof paths }>().paths;
  });

  it('describes text/csv beside JSON as the answer of every list', () => {
    const lists = Object.entries(paths).filter(([, item]) =>
      item.get?.parameters?.some((parameter) => parameter.name === 'format'),
    );
    // The five resources, their child lists, users, tokens, events, audit log.
    expect(lists.length).toBeGreaterThanOrEqual(RESOURCES.length + 4);
    for (const [path, item] of lists) {
      const content = item.get?.responses['200']?.content ?? {};
      expect(Object.keys(content), path).toEqual(
        expect.arrayContaining(['application/json', 'text/csv']),
      );
      expect(content['text/csv']?.schema?.type, path).toBe('string');
    }
  });

  it('describes text/csv as a request body of every resource create', () => {
    for (const definition of RESOURCES) {
      const body = paths[`/${definition.name}`]?.post?.requestBody?.content ?? {};
      expect(Object.keys(body), definition.name).toEqual(['application/json', 'text/csv']);
      expect(body['text/csv']?.schema?.type, definition.name).toBe('string');
    }
  });

  it('describes text/csv as a request body of every resource batch update, as changes by id', () => {
    for (const definition of RESOURCES) {
      const body = paths[`/${definition.name}`]?.patch?.requestBody?.content ?? {};
      expect(Object.keys(body), definition.name).toEqual(['application/json', 'text/csv']);
      const schema = body['text/csv']?.schema as { type?: string; description?: string };
      expect(schema?.type, definition.name).toBe('string');
      expect(schema?.description, definition.name).toMatch(/`id` column/);
    }
  });
});
