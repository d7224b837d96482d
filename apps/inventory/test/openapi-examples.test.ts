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
 * placeholder id), as a user of Swagger UI would. The webhook's example is the exception: its
 * URL must be the reader's own receiver, so the example's never resolves. No example names an
 * address or host someone else owns: only documentation ranges (RFC 5737, RFC 3849) and reserved
 * names (RFC 2606, RFC 6761).
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
      sent.push(path);
      if (path === '/webhooks') {
        // The one example that is refused: its URL names no receiver anyone runs (a reserved
        // name that never resolves), so "Try it out" cannot send the inventory's changes to a
        // third party.
        expect(response.statusCode, response.body).toBe(400);
        expect(response.json().message).toBe('url: the host receiver.example does not resolve');
        continue;
      }
      expect(response.statusCode, `POST ${path} ${JSON.stringify(payload)}: ${response.body}`).toBe(
        201,
      );
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

  it('name only documentation addresses and reserved host names', async () => {
    const document = await ctx.app.inject({ url: '/openapi.json' });
    const text = document.body;
    const ipv4 = [
      ...text.matchAll(/(?<![\d.])(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})(?![\d.])/g),
    ];
    const documentation = /^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$/;
    for (const [address] of ipv4) {
      expect(address, 'an IPv4 address outside the documentation ranges').toMatch(documentation);
    }
    const hosts = [...text.matchAll(/https?:\/\/([^/"\\:\s]+)/g)].map((match) => match[1] ?? '');
    for (const host of hosts) {
      expect(host, 'a host outside the reserved names').toMatch(
        /(^|\.)(example|test|invalid|localhost|example\.com|example\.org|example\.net)$|^(192\.0\.2|198\.51\.100|203\.0\.113)\.\d+$|^127\.0\.0\.1$/,
      );
    }
  });
});
