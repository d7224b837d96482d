import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiTokens } from '../src/auth/api-tokens-routes.js';
import { events } from '../src/events/definition.js';
import type { ResourceDefinition } from '../src/resources/definition.js';
import { RESOURCES } from '../src/resources/index.js';
import { users } from '../src/users/definition.js';
import { create, deviceWithInterfaces, startTestApp, type TestContext } from './helpers.js';

/**
 * Every request body example of the OpenAPI document works when sent, as Swagger UI's "Try it
 * out" sends it: each create's example creates a record. The one thing a reader fills in is
 * the id of an existing record where the example names one (a required reference holds the
 * placeholder id), as a user of Swagger UI would.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

interface Operation {
  requestBody?: { content?: Record<string, { example?: Record<string, unknown> }> };
}

const PLACEHOLDER_ID = '00000000-0000-4000-8000-000000000000';
const DEFINITIONS: readonly ResourceDefinition[] = [...RESOURCES, events, users, apiTokens];

describe('OpenAPI document examples', () => {
  it('create a record with every documented create example', async () => {
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json<{
      paths: Record<string, Record<string, Operation>>;
    }>();
    const { device, interfaces } = await deviceWithInterfaces(ctx, 2);
    const location = await create(ctx, 'locations', { name: 'examples-site' });
    /** Existing records, per resource, a reference field takes in turn. */
    const existing: Record<string, string[]> = {
      devices: [device.id],
      interfaces: interfaces.map((item) => item.id),
      locations: [location.id],
    };

    const sent: string[] = [];
    for (const [path, item] of Object.entries(document.paths)) {
      const example = item.post?.requestBody?.content?.['application/json']?.example;
      if (!example) continue;
      const definition = DEFINITIONS.find((candidate) => `/${candidate.name}` === path);
      const taken: Record<string, number> = {};
      const payload = Object.fromEntries(
        Object.entries(example).map(([field, value]) => {
          if (value !== PLACEHOLDER_ID) return [field, value];
          const resource = definition?.columns[field]?.references ?? '';
          const index = taken[resource] ?? 0;
          taken[resource] = index + 1;
          return [field, existing[resource]?.[index] ?? value];
        }),
      );
      const response = await ctx.as('admin', { method: 'POST', url: path, payload });
      expect(response.statusCode, `POST ${path} ${JSON.stringify(payload)}: ${response.body}`).toBe(
        201,
      );
      sent.push(path);
    }
    // Swagger UI's "Try it out" on POST /devices, and every other create with a body.
    expect(sent).toEqual(
      expect.arrayContaining([
        '/devices',
        '/locations',
        '/interfaces',
        '/vlans',
        '/links',
        '/webhooks',
        '/events',
        '/users',
        '/api-tokens',
      ]),
    );
  });
});
