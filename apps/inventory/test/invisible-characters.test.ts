import { v7 as uuidv7 } from 'uuid';
import { describe, expect, it } from 'vitest';
import { apiTokens } from '../src/auth/api-tokens-routes.js';
import type { AnyDatabase } from '../src/db/schema.js';
import { events } from '../src/events/definition.js';
import { matchesSchema } from '../src/http/validation.js';
import { RESOURCES } from '../src/resources/index.js';
import { filterValueSchema } from '../src/resources/lookups.js';
import {
  batchUpdateSchema,
  fullRecordSchema,
  partialRecordSchema,
} from '../src/resources/schemas.js';
import { users } from '../src/users/definition.js';
import { create, unique, useTestApp } from './helpers.js';

/**
 * A value that names a record to a person (a hostname, a location's name) refuses the characters
 * nobody sees: `core1` and `core<U+200B>1` would be two devices that look the same in every list,
 * log, page and export. Free text keeps them, and the filters take them, so a record stored with
 * one before the rule can still be found, read, changed and renamed.
 */
const ctx = useTestApp();

const refusal = (...codePoints: string[]) =>
  `must not contain invisible formatting characters (${codePoints.join(', ')})`;

/** Each with the code point the refusal names. */
const INVISIBLE: ReadonlyArray<[string, string]> = [
  ['\u200b', 'U+200B'], // zero width space
  ['\u202e', 'U+202E'], // right-to-left override
  ['\ufeff', 'U+FEFF'], // zero width no-break space (byte order mark)
  ['\u00ad', 'U+00AD'], // soft hyphen
  ['\u2028', 'U+2028'], // line separator
  ['\u{e0041}', 'U+E0041'], // tag latin capital letter A
  ['\u200d', 'U+200D'], // zero width joiner
  ['\u2066', 'U+2066'], // left-to-right isolate
  ['\u{e0001}', 'U+E0001'], // language tag
];

/** Names people write: accents, other scripts, emoji, a combining accent, a flag. */
const VISIBLE_NAMES = [
  'Zürich-café',
  '東京-コア-1',
  'Ελλάδα',
  'rack-🚀',
  'heart-❤️', // U+FE0F, a variation selector: no format character
  'flag-🇨🇭',
  'cafe\u0301',
  'العربية',
];

const device = () => create(ctx, 'devices', { hostname: unique('dev'), ip: '192.0.2.1' });

/** VLANs created from a CSV file in windows-1252, each character of `csv` one byte. */
const importVlansInWindows1252 = (csv: string) =>
  ctx.as('admin', {
    method: 'POST',
    url: '/vlans',
    headers: { 'content-type': 'text/csv; charset=windows-1252' },
    payload: Buffer.from(csv, 'latin1'),
  });

describe('identifiers refuse invisible formatting characters', () => {
  it.each(INVISIBLE)('POST a hostname with %j names %s', async (character, codePoint) => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: `core${character}1`, ip: '192.0.2.1' },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `body/hostname ${refusal(codePoint)}`,
    });
  });

  it.each([
    ['/locations', { name: 'dc\u200b1' }, 'name'],
    ['/vlans', { vlan_id: 301, name: 'v\u202e301' }, 'name'],
    [
      '/devices',
      { hostname: unique('sn'), ip: '192.0.2.1', serial_number: 'SN\ufeff1' },
      'serial_number',
    ],
    ['/api-tokens', { name: 'ci\u00ad-token', scopes: ['events:read'] }, 'name'],
    ['/webhooks', { name: 'hook\u2060', url: 'https://receiver.example/inventory-hook' }, 'name'],
  ])('POST %s refuses one in %j', async (url, payload, field) => {
    const response = await ctx.as('admin', { method: 'POST', url, payload });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(
      new RegExp(
        `^body/${field} must not contain invisible formatting characters \\(U\\+[0-9A-F]{4,5}\\)$`,
      ),
    );
  });

  it('an interface name, in a create and a PATCH', async () => {
    const parent = await device();
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/interfaces',
      payload: { device_id: parent.id, name: 'eth\u200b0' },
    });
    expect(created.json()).toEqual({ status: 'error', message: `body/name ${refusal('U+200B')}` });
    const eth0 = await create(ctx, 'interfaces', { device_id: parent.id, name: 'eth0' });
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/interfaces/${eth0.id}`,
      payload: { name: 'eth\u{e0041}0' },
    });
    expect(patched.statusCode).toBe(400);
    expect(patched.json()).toEqual({ status: 'error', message: `body/name ${refusal('U+E0041')}` });
  });

  it('PATCH and PUT of a device, naming every invisible character the value holds', async () => {
    const { id } = await device();
    const patch = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${id}`,
      payload: { hostname: '\u202ecore\u200b1\u202e' },
    });
    expect(patch.statusCode).toBe(400);
    expect(patch.json()).toEqual({
      status: 'error',
      message: `body/hostname ${refusal('U+202E', 'U+200B')}`,
    });
    const put = await ctx.as('admin', {
      method: 'PUT',
      url: `/devices/${id}`,
      payload: { hostname: 'core\u20281', ip: '192.0.2.1' },
    });
    expect(put.statusCode).toBe(400);
    expect(put.json()).toEqual({ status: 'error', message: `body/hostname ${refusal('U+2028')}` });
  });

  it('a control character keeps its own words when both are there', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: 'core\u200b1\n', ip: '192.0.2.1' },
    });
    expect(response.json()).toEqual({
      status: 'error',
      message: 'body/hostname must not contain control characters (U+0000 to U+001F, U+007F)',
    });
  });

  it('a bulk create and a batch update name the item, and write nothing', async () => {
    const kept = unique('bulk');
    const bulk = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: [
        { hostname: kept, ip: '192.0.2.1' },
        { hostname: 'bulk\ufeff', ip: '192.0.2.2' },
      ],
    });
    expect(bulk.statusCode).toBe(400);
    expect(bulk.json()).toEqual({
      status: 'error',
      message: `Item 1 (hostname): ${refusal('U+FEFF')}`,
    });
    const found = await ctx.as('admin', { method: 'GET', url: `/devices?hostname=${kept}` });
    expect(found.json().data).toEqual([]);

    const location = await create(ctx, 'locations', { name: unique('loc') });
    const batch = await ctx.as('admin', {
      method: 'PATCH',
      url: '/locations',
      payload: [{ id: location.id, name: 'loc\u00ad1' }],
    });
    expect(batch.statusCode).toBe(400);
    expect(batch.json()).toEqual({
      status: 'error',
      message: `Item 0 (name): ${refusal('U+00AD')}`,
    });
  });

  it('a CSV import names the row, in UTF-8 and in windows-1252 (0xAD is the soft hyphen)', async () => {
    const utf8 = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      headers: { 'content-type': 'text/csv' },
      payload: `hostname,ip\n${unique('csv')},192.0.2.1\ncore\u200b9,192.0.2.2\n`,
    });
    expect(utf8.statusCode, utf8.body).toBe(400);
    expect(utf8.json()).toEqual({
      status: 'error',
      message: `Row 3 (hostname): ${refusal('U+200B')}`,
    });
    const latin = await importVlansInWindows1252('vlan_id,name\n302,soft\xadhyphen\n');
    expect(latin.statusCode, latin.body).toBe(400);
    expect(latin.json()).toEqual({
      status: 'error',
      message: `Row 2 (name): ${refusal('U+00AD')}`,
    });
  });

  it('an emoji joined by U+200D is refused too: the join is invisible where it is not drawn', async () => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      payload: { name: 'desk-👩\u200d💻' },
    });
    expect(response.json()).toEqual({ status: 'error', message: `body/name ${refusal('U+200D')}` });
  });

  it.each(VISIBLE_NAMES)('%j is a name like any other, stored composed (NFC)', async (name) => {
    const location = await create(ctx, 'locations', { name });
    expect(location.name).toBe(name.normalize('NFC'));
    const hostname = `${name}-${unique('h')}`;
    const created = await create(ctx, 'devices', { hostname, ip: '192.0.2.1' });
    expect(created.hostname).toBe(hostname.normalize('NFC'));
  });

  it('free text keeps invisible characters: a description, an address, a model', async () => {
    const parent = await device();
    const described = await create(ctx, 'interfaces', {
      device_id: parent.id,
      name: unique('eth'),
      description: 'uplink\u200bto core \u202eevil\u202c',
    });
    expect(described.description).toBe('uplink\u200bto core \u202eevil\u202c');
    const location = await create(ctx, 'locations', {
      name: unique('loc'),
      address: 'Main\u00adstreet 1\u2028Town',
    });
    expect(location.address).toBe('Main\u00adstreet 1\u2028Town');
    const patched = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${parent.id}`,
      payload: { model: 'ASR\u200b9000' },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    expect(patched.json().model).toBe('ASR\u200b9000');
  });
});

/** The space separators but U+0020, each with the code point the refusal names. */
const LOOK_ALIKE_SPACES: ReadonlyArray<[string, string]> = [
  ['\u00a0', 'U+00A0'], // no-break space
  ['\u1680', 'U+1680'], // ogham space mark
  ['\u2000', 'U+2000'], // en quad
  ['\u2003', 'U+2003'], // em space
  ['\u2009', 'U+2009'], // thin space
  ['\u200a', 'U+200A'], // hair space
  ['\u202f', 'U+202F'], // narrow no-break space
  ['\u205f', 'U+205F'], // medium mathematical space
  ['\u3000', 'U+3000'], // ideographic space
];

describe('identifiers refuse spaces that look like U+0020', () => {
  it.each(LOOK_ALIKE_SPACES)('a location named with %j names %s', async (space, codePoint) => {
    const response = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      payload: { name: `core${space}1` },
    });
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: `body/name must not contain spaces other than U+0020 (${codePoint})`,
    });
  });

  it('the ordinary space is a name like any other', async () => {
    const name = `core 1 ${unique('loc')}`;
    const location = await create(ctx, 'locations', { name });
    expect(location.name).toBe(name);
  });

  it('names both kinds when a value holds both, in a PATCH and a CSV row in windows-1252', async () => {
    const { id } = await device();
    const patch = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${id}`,
      payload: { hostname: 'core\u200b1\u00a0a\u2009b\u00a0' },
    });
    expect(patch.json()).toEqual({
      status: 'error',
      message:
        'body/hostname must not contain invisible formatting characters (U+200B) or spaces other than U+0020 (U+00A0, U+2009)',
    });
    // Byte 0xA0 is the no-break space in windows-1252, as in Latin-1.
    const latin = await importVlansInWindows1252('vlan_id,name\n303,core\xa01\n');
    expect(latin.statusCode, latin.body).toBe(400);
    expect(latin.json()).toEqual({
      status: 'error',
      message: 'Row 2 (name): must not contain spaces other than U+0020 (U+00A0)',
    });
  });

  it('free text keeps them, and a filter finds a name stored with one before the rule', async () => {
    const described = await create(ctx, 'locations', {
      name: unique('loc'),
      address: '12\u00a0rue de la Paix',
    });
    expect(described.address).toBe('12\u00a0rue de la Paix');
    const name = `legacy\u00a0${unique('loc')}`;
    const id = uuidv7();
    await (ctx.store.db as AnyDatabase).insertInto('locations').values({ id, name }).execute();
    const found = await ctx.as('viewer', {
      method: 'GET',
      url: `/locations?name=${encodeURIComponent(name)}`,
    });
    expect(found.statusCode, found.body).toBe(200);
    expect(found.json().data.map((row: { id: string }) => row.id)).toEqual([id]);
  });
});

describe('a record stored with one before the rule stays usable', () => {
  it('is found by filters, read, exported, changed, and renamed', async () => {
    const hostname = `legacy\u200b${unique('core')}`;
    const id = uuidv7();
    await (ctx.store.db as AnyDatabase)
      .insertInto('devices')
      .values({ id, hostname, ip: '192.0.2.7' })
      .execute();

    const exact = await ctx.as('viewer', {
      method: 'GET',
      url: `/devices?hostname=${encodeURIComponent(hostname)}`,
    });
    expect(exact.statusCode, exact.body).toBe(200);
    expect(exact.json().data.map((row: { id: string }) => row.id)).toEqual([id]);
    const contains = await ctx.as('viewer', {
      method: 'GET',
      url: `/devices?hostname__ic=${encodeURIComponent('legacy\u200b')}`,
    });
    expect(contains.statusCode, contains.body).toBe(200);
    expect(contains.json().data.map((row: { id: string }) => row.id)).toContain(id);

    const read = await ctx.as('viewer', { method: 'GET', url: `/devices/${id}` });
    expect(read.json().hostname).toBe(hostname);
    const exported = await ctx.as('viewer', {
      method: 'GET',
      url: `/devices?format=csv&fields=hostname&hostname=${encodeURIComponent(hostname)}`,
    });
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain(hostname);

    // Other fields change as before: only a value written is checked.
    const other = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${id}`,
      payload: { model: 'kept' },
    });
    expect(other.statusCode, other.body).toBe(200);
    expect(other.json().hostname).toBe(hostname);
    const renamed = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${id}`,
      payload: { hostname: hostname.replace('\u200b', '') },
    });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json().hostname).toBe(hostname.replace('\u200b', ''));
  });
});

describe('the declarations and the API document', () => {
  const definitions = [...RESOURCES, users, apiTokens, events];
  const identifiers = definitions.flatMap((definition) =>
    Object.entries(definition.columns)
      .filter(([, column]) => column.identifier)
      .map(([name, column]) => ({ definition, name, column })),
  );

  it('the name-like columns are declared identifiers', () => {
    expect(identifiers.map(({ definition, name }) => `${definition.name}.${name}`).sort()).toEqual(
      [
        'api-tokens.name',
        'devices.hostname',
        'devices.serial_number',
        'interfaces.name',
        'locations.name',
        'vlans.name',
        'webhooks.name',
      ].sort(),
    );
  });

  it('every identifier refuses each invisible character in every written schema, and is no multiline text', () => {
    for (const { definition, name, column } of identifiers) {
      expect(column.multiline, `${definition.name}.${name}`).toBeFalsy();
      const batch = batchUpdateSchema(definition) as {
        items: { properties: Record<string, object> };
      };
      const schemas = [
        (fullRecordSchema(definition) as { properties: Record<string, object> }).properties[name],
        (partialRecordSchema(definition) as { properties: Record<string, object> }).properties[
          name
        ],
        batch.items.properties[name],
      ];
      for (const schema of schemas) {
        expect(schema, `${definition.name}.${name}`).toBeDefined();
        expect(matchesSchema(schema as object, 'core1')).toBe(true);
        for (const [character, codePoint] of [...INVISIBLE, ...LOOK_ALIKE_SPACES]) {
          expect(
            matchesSchema(schema as object, `core${character}1`),
            `${definition.name}.${name} with ${codePoint}`,
          ).toBe(false);
        }
      }
      // A filter finds what is stored, whatever it holds.
      expect(matchesSchema(filterValueSchema(column), 'core\u200b1'), name).toBe(true);
    }
  });

  it('says the rule as a pattern on the written fields, not on the answers', async () => {
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json();
    const create =
      document.paths['/devices'].post.requestBody.content['application/json'].schema.anyOf[0];
    const pattern: string = create.properties.hostname.pattern;
    expect(pattern).toBeDefined();
    const written = new RegExp(pattern, 'u');
    expect(written.test('core1')).toBe(true);
    expect(written.test('東京-🚀')).toBe(true);
    for (const [character] of [...INVISIBLE, ...LOOK_ALIKE_SPACES]) {
      expect(written.test(`core${character}1`)).toBe(false);
    }
    expect(written.test('core 1')).toBe(true);
    const model =
      document.paths['/devices/{id}'].patch.requestBody.content['application/json'].schema
        .properties.model;
    expect(new RegExp(model.anyOf[0].pattern, 'u').test('x\u200by')).toBe(true);
  });
});
