import fastJson from 'fast-json-stringify';
import { describe, expect, it } from 'vitest';
import { serializerCompiler, wireSchema } from '../src/http/serialization.js';
import { devices } from '../src/resources/definitions/devices.js';
import { pageSchema, recordSchema } from '../src/resources/schemas.js';

const serializerFor = (schema: unknown) =>
  serializerCompiler({ schema, method: 'GET', url: '/', httpStatus: '200' }) as (
    data: unknown,
  ) => string;

const device = {
  id: '0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b',
  hostname: 'core-1',
  ip: '192.0.2.1',
  vendor: null,
  model: 'MX480',
  os: null,
  os_version: null,
  status: 'maintenance',
  role: null,
  serial_number: null,
  rack_position: 'R1-U2',
  location_id: null,
  tags: ['core'],
  last_seen: new Date('2026-01-02T03:04:05.678Z'),
  created_at: new Date('2026-01-01T00:00:00.000Z'),
  updated_at: new Date('2026-01-01T00:00:01.500Z'),
};

describe('response serialisation (src/http/serialization.ts)', () => {
  it('writes nullable fields and enumerations without anyOf', () => {
    const wire = JSON.stringify(wireSchema(recordSchema(devices)));
    expect(JSON.stringify(recordSchema(devices))).toContain('anyOf');
    expect(wire).not.toContain('anyOf');
  });

  it('keeps only the formats that change how a value is written', () => {
    const wire = JSON.stringify(wireSchema(recordSchema(devices)));
    expect(JSON.stringify(recordSchema(devices))).toContain('"format":"ip"');
    expect(wire).not.toContain('"format":"ip"');
    expect(wire).toContain('"format":"date-time"');
  });

  it('writes a record and a page exactly as the route schema does', () => {
    const page = {
      meta: { current_page: 1, limit: 2, total_pages: 1, total_count: 2, next_cursor: null },
    };
    const body = {
      ...page,
      data: [device, { ...device, vendor: 'Cisco', last_seen: null, status: 'active' }],
    };
    // Fastify's own serialiser (told of the custom format, which it would warn about).
    const original = fastJson(pageSchema(devices) as Parameters<typeof fastJson>[0], {
      ajv: { formats: { ip: true } },
    });
    expect(serializerFor(pageSchema(devices))(body)).toBe(original(body));
    expect(JSON.parse(serializerFor(recordSchema(devices))(device))).toMatchObject({
      vendor: null,
      status: 'maintenance',
      last_seen: '2026-01-02T03:04:05.678Z',
      // Columns that are not in the schema are not written.
    });
    expect(serializerFor(recordSchema(devices))({ ...device, secret: 'x' })).not.toContain(
      'secret',
    );
  });
});
