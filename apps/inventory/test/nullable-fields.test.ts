import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { apiTokens } from '../src/auth/api-tokens-routes.js';
import { events } from '../src/events/definition.js';
import { RESOURCES } from '../src/resources/index.js';
import { partialRecordSchema } from '../src/resources/schemas.js';
import { users } from '../src/users/definition.js';
import { create, createAccount, unique, useTestApp } from './helpers.js';

/**
 * `null` clears an optional field, and only a field that can be cleared: the API document, the
 * validation and the database agree on which fields may be null. A field the database keeps NOT
 * NULL with a default (a device's or link's status, an account's role and inactive_status) is
 * declared `notNull` on its column, so null is refused by the request's validation with a 400
 * naming the field, never by a constraint.
 */
const ctx = useTestApp();

const DEFINITIONS = [...RESOURCES, users, apiTokens, events];

/** Whether the schema of a field accepts null (a union with a null member). */
const acceptsNull = (schema: unknown) => JSON.stringify(schema).includes('"type":"null"');

describe('null is accepted exactly where the database takes it', () => {
  it('every writable field accepts null in the schema if and only if its column is nullable', async () => {
    const columns = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
      SELECT table_name, column_name, is_nullable FROM information_schema.columns
      WHERE table_schema = current_schema()`.execute(ctx.store.db);
    const nullable = new Map(
      columns.rows.map((row) => [
        `${row.table_name}.${row.column_name}`,
        row.is_nullable === 'YES',
      ]),
    );
    const disagreements: string[] = [];
    for (const definition of DEFINITIONS) {
      const schema = partialRecordSchema(definition) as { properties: Record<string, unknown> };
      for (const [field, fieldSchema] of Object.entries(schema.properties)) {
        const stored = nullable.get(`${definition.table}.${field}`);
        if (stored === undefined) continue; // not a column (a password, tag changes)
        if (acceptsNull(fieldSchema) !== stored) {
          disagreements.push(
            `${definition.name}.${field}: schema ${acceptsNull(fieldSchema) ? 'nullable' : 'not nullable'}, column ${stored ? 'nullable' : 'NOT NULL'}`,
          );
        }
      }
    }
    expect(disagreements).toEqual([]);
  });

  it('null for a field with a default is a 400 naming the field, and nothing changes', async () => {
    const device = await create(ctx, 'devices', {
      hostname: unique('null'),
      ip: '192.0.2.1',
      status: 'maintenance',
    });
    for (const [method, url, payload] of [
      ['PATCH', `/devices/${device.id}`, { status: null }],
      ['PUT', `/devices/${device.id}`, { hostname: unique('null'), ip: '192.0.2.1', status: null }],
      ['POST', '/devices', { hostname: unique('null'), ip: '192.0.2.1', status: null }],
      ['PATCH', '/devices', [{ id: device.id, status: null }]],
    ] as const) {
      const response = await ctx.as('admin', { method, url, payload });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(/status/);
      expect(response.json<{ message: string }>().message).not.toMatch(/must not be null/);
    }
    const stored = await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` });
    expect(stored.json<{ status: string }>().status).toBe('maintenance');

    const user = await createAccount(ctx, 'null');
    for (const field of ['role', 'inactive_status']) {
      const response = await ctx.as('admin', {
        method: 'PUT',
        url: `/users/${user.id}`,
        payload: { [field]: null },
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json<{ message: string }>().message).toMatch(field);
    }
  });

  it('null still clears an optional field without a default', async () => {
    const device = await create(ctx, 'devices', {
      hostname: unique('clear'),
      ip: '192.0.2.1',
      vendor: 'Cisco',
    });
    const cleared = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { vendor: null },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json<{ vendor: unknown }>().vendor).toBeNull();
  });
});
