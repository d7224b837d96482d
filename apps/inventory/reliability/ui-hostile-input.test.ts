// Hostile values for every parameter of the web interface: list cursors and their trail, the
// return-to address after sign-in, every form field, the column choice, sort and filter
// parameters, the session cookie and the CSRF token. Every answer is a page (HTML) with a clear
// message or a redirect to this interface, never a 500, never a hostile value reflected as
// markup, and nothing stored changes unless the input was a valid one.
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../test/helpers.js';

let ctx: TestContext;
const ORIGIN = 'http://inventory.test';

/** Markup that must never come back as markup. */
const MARKUP = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(2)>',
  "'><svg onload=alert(3)>",
  '</textarea><script>alert(4)</script>',
];
/** Text that is hostile without markup. */
const TEXT = [
  'nul\u0000byte',
  'bell\u0007and\u001bescape',
  'line\r\nX-Injected: yes',
  '\u202Eright-to-left override',
  '\uD800 lone surrogate',
  'emoji 🛰️ and ümlauts',
  'javascript:alert(5)',
  '../../etc/passwd',
  '%00%0d%0a',
  'x'.repeat(5_000),
];
/** Names of Object.prototype's members, as field names and as values. */
const PROTOTYPE_KEYS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty'];
const VALUES = [...MARKUP, ...TEXT, ...PROTOTYPE_KEYS];
/** What a form or URL carries of a text: a lone surrogate is sent as U+FFFD. */
const wellFormed = (text: string) =>
  text.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD');

interface Session {
  cookie: string;
  csrf: string;
}
let admin: Session;
let viewer: Session;
let deviceId: string;
let deviceEtag: string;

async function signIn(username: string): Promise<Session> {
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/ui/login',
    payload: new URLSearchParams({ username, password: TEST_PASSWORD }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  const value = response.cookies.find((cookie) => cookie.name === 'inventory_ui')?.value;
  if (response.statusCode !== 303 || !value) throw new Error(`sign-in: ${response.statusCode}`);
  const cookie = `inventory_ui=${value}`;
  const home = await ctx.app.inject({ method: 'GET', url: '/ui/', headers: { cookie } });
  const csrf = /name="_csrf" value="([^"]+)"/.exec(home.body)?.[1];
  if (!csrf) throw new Error('no CSRF token on the start page');
  return { cookie, csrf };
}

/** A form body as browsers send it; repeated names are repeated fields. */
function formBody(fields: Record<string, string | string[]> | Array<[string, string]>): string {
  const body = new URLSearchParams();
  const entries = Array.isArray(fields) ? fields : Object.entries(fields);
  for (const [name, value] of entries) {
    for (const one of Array.isArray(value) ? value : [value]) body.append(name, one);
  }
  return body.toString();
}

const page = (session: Session | undefined, url: string, headers: Record<string, string> = {}) =>
  ctx.app.inject({
    method: 'GET',
    url,
    headers: { ...(session ? { cookie: session.cookie } : {}), ...headers },
  });

const post = (
  session: Session | undefined,
  url: string,
  fields: Record<string, string | string[]> | Array<[string, string]>,
  headers: Record<string, string> = {},
) =>
  ctx.app.inject({
    method: 'POST',
    url,
    payload: formBody(fields),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(session ? { cookie: session.cookie } : {}),
      ...headers,
    },
  } as InjectOptions);

/**
 * The answer a browser can show: no server error; a page (HTML) or a redirect to this
 * interface; no hostile markup reflected unescaped; a refusal says why in an alert.
 */
function expectSafe(response: LightMyRequestResponse, what: string) {
  expect(response.statusCode, `${what}: ${response.body.slice(0, 300)}`).toBeLessThan(500);
  if (response.statusCode >= 300 && response.statusCode < 400) {
    const target = new URL(String(response.headers.location), ORIGIN);
    expect(target.origin, what).toBe(ORIGIN);
    expect(target.pathname.startsWith('/ui/'), `${what} -> ${target.pathname}`).toBe(true);
    return;
  }
  if (response.statusCode === 200 && /^text\/csv/.test(String(response.headers['content-type'])))
    return;
  // A path parameter over the router's limit is refused before any route is chosen, by the
  // service's URL check, in the API's error shape (the interface's pages never get to see it).
  if (
    /^application\/json/.test(String(response.headers['content-type'])) &&
    /path parameter too long/.test(response.body)
  ) {
    expect(response.json(), what).toMatchObject({ status: 'error' });
    return;
  }
  expect(
    String(response.headers['content-type']),
    `${what}: ${response.body.slice(0, 200)}`,
  ).toMatch(/^text\/html/);
  for (const markup of MARKUP) expect(response.body, what).not.toContain(markup);
  expect(response.body, what).not.toMatch(/<(script|img|svg)[^>]*\balert\(/i);
  // A refusal says why: an alert, or the message beside the field it is about.
  if (response.statusCode >= 400)
    expect(response.body, what).toMatch(/role="alert"|aria-invalid="true"/);
}

/** A fingerprint of everything stored that a hostile request must not change. */
async function storedState(): Promise<string> {
  const tables = [
    'locations',
    'devices',
    'interfaces',
    'vlans',
    'links',
    'users',
    'api_tokens',
    'webhooks',
  ];
  const parts: string[] = [];
  for (const table of tables) {
    const { rows } = await sql<{ digest: string | null; n: string }>`
      SELECT md5(string_agg(t::text, ',' ORDER BY t::text)) AS digest, count(*) AS n
      FROM ${sql.table(table)} t`.execute(ctx.store.db);
    parts.push(`${table}:${rows[0]?.n}:${rows[0]?.digest}`);
  }
  return parts.join(' ');
}

beforeAll(async () => {
  ctx = await startTestApp();
  const location = await create(ctx, 'locations', { name: 'Hostile DC', city: 'Lyon' });
  const devices = Array.from({ length: 30 }, (_, index) => ({
    hostname: `hostile-${String(index).padStart(2, '0')}`,
    ip: `10.9.0.${index + 1}`,
    vendor: 'Cisco',
    status: 'active',
    location_id: location.id,
  }));
  const created = await ctx.as('admin', { method: 'POST', url: '/devices', payload: devices });
  expect(created.statusCode).toBe(201);
  deviceId = created.json<Array<{ id: string }>>()[0]?.id as string;
  const read = await ctx.as('admin', { method: 'GET', url: `/devices/${deviceId}` });
  deviceEtag = String(read.headers.etag);
  admin = await signIn('admin');
  viewer = await signIn('viewer');
});
afterAll(async () => {
  await ctx?.close();
});

describe('list parameters', () => {
  it('answers forged, truncated and huge cursors and trails with a page', async () => {
    const first = await ctx.as('admin', { method: 'GET', url: '/devices?limit=25' });
    const real = String(first.json().meta.next_cursor);
    const before = await storedState();
    const cursors = [
      real.slice(0, -3),
      real.slice(0, 10),
      `${real}AAAA`,
      Buffer.from('{"r":"forged","k":["x"]}').toString('base64url'),
      'A'.repeat(4_000),
      'A'.repeat(60_000),
      ...VALUES,
    ];
    for (const cursor of cursors) {
      const url = `/ui/devices?limit=25&${new URLSearchParams({ cursor, trail: cursor })}`;
      const response = await page(admin, url);
      expectSafe(response, `cursor ${cursor.slice(0, 40)}`);
      const csv = await page(admin, url.replace('/ui/devices?', '/ui/devices/export.csv?'));
      expectSafe(csv, `export with cursor ${cursor.slice(0, 40)}`);
    }
    // A trail of many entries, hostile ones among them, keeps the page working.
    const trail = [...VALUES, ...Array.from({ length: 5_000 }, () => real)].join(',');
    expectSafe(
      await page(admin, `/ui/devices?${new URLSearchParams({ cursor: real, trail })}`),
      'long trail',
    );
    expect(await storedState()).toBe(before);
  });

  it('answers hostile sort, filter, lookup, tag, search and page-size parameters with a page', async () => {
    const before = await storedState();
    const queries: Array<Record<string, string>> = [];
    for (const value of VALUES) {
      queries.push(
        { sortby: value },
        { sortby: `${value}:asc` },
        { sortby: `hostname:${value}` },
        { hostname: value },
        { hostname: value, hostname__op: value },
        { hostname__ic: value },
        { ip: value },
        { ip__in: `${value},${value}` },
        { location_id: value },
        { location_id__in: `"${value}", ${value},"${value.replaceAll('"', '""')}"` },
        { location_id__in: `"${value}` },
        { tags: value },
        { q: value },
        { limit: value },
        { [value]: value },
        { [`${value}__op`]: 'ic', [value]: 'x' },
      );
    }
    queries.push(
      { limit: '-1' },
      { limit: '1e9' },
      { limit: '100000' },
      { tags: Array.from({ length: 2_000 }, (_, n) => `t${n}`).join(',') },
      { ip__in: Array.from({ length: 5_000 }, (_, n) => `10.0.${n >> 8}.${n & 255}`).join(',') },
      { q: 'q'.repeat(50_000) },
      // Quoted names of "is one of": many, a quote never closed, quotes doubled without end.
      { location_id__in: Array.from({ length: 5_000 }, (_, n) => `"a, ${n}"`).join(',') },
      { location_id__in: `"${'a,'.repeat(20_000)}` },
      { location_id__in: '"'.repeat(50_000) },
    );
    for (const query of queries) {
      const search = new URLSearchParams(query).toString();
      const what = search.slice(0, 80);
      expectSafe(await page(admin, `/ui/devices?${search}`), `list ${what}`);
      expectSafe(await page(admin, `/ui/devices/export.csv?${search}`), `export ${what}`);
    }
    for (const value of VALUES) {
      expectSafe(
        await page(admin, `/ui/search?${new URLSearchParams({ q: value })}`),
        `search ${value.slice(0, 30)}`,
      );
    }
    // Repeated parameters (arrays where one value is expected).
    expectSafe(
      await page(admin, '/ui/devices?sortby=hostname:asc&sortby=ip:desc&limit=25&limit=50&q=a&q=b'),
      'repeated parameters',
    );
    expect(await storedState()).toBe(before);
  });

  it('answers hostile resource names and record ids with a page', async () => {
    const paths = [
      ...PROTOTYPE_KEYS.map((key) => `/ui/${key}`),
      ...PROTOTYPE_KEYS.map((key) => `/ui/devices/${key}`),
      ...PROTOTYPE_KEYS.map((key) => `/ui/${key}/${deviceId}`),
      `/ui/devices/${deviceId.toUpperCase()}`,
      `/ui/devices/${deviceId}x`,
      `/ui/devices/${encodeURIComponent(MARKUP[0] as string)}`,
      `/ui/${encodeURIComponent(MARKUP[1] as string)}`,
      `/ui/devices/${deviceId}/${encodeURIComponent(MARKUP[0] as string)}`,
      '/ui/devices/00000000-0000-0000-0000-000000000000',
      '/ui/devices/00000000-0000-0000-0000-000000000000/edit',
      '/ui/users',
      '/ui/static/..%2F..%2Fpackage.json',
      `/ui/static/${'a'.repeat(5_000)}`,
    ];
    for (const path of paths) expectSafe(await page(admin, path), path);
  });
});

describe('the return-to address after sign-in', () => {
  const OFF_SITE = [
    '//evil.example/',
    '/\\evil.example/',
    '\\\\evil.example',
    'https://evil.example/',
    'http:evil.example',
    'javascript:alert(1)',
    'data:text/html,<script>alert(1)</script>',
    '%2F%2Fevil.example',
    '/%2F/evil.example',
    '/%5Cevil.example',
    '/ui//evil.example',
    '/ui/\\evil.example',
    '/ui/%0d%0aLocation:%20https://evil.example',
    '/ui/\r\nLocation: https://evil.example',
    '/ui/\t/evil.example',
    ' //evil.example',
    '\u0000//evil.example',
    '/ui/../../evil',
    '/ui/%2e%2e/%2e%2e/evil',
    '/ui/.%2E/evil',
    '///evil.example',
    'https:\\\\evil.example',
    `/ui/${'a'.repeat(10_000)}`,
    ...VALUES,
  ];

  it('goes back only to a path of this interface, whatever `next` says', async () => {
    for (const next of OFF_SITE) {
      const what = `next ${JSON.stringify(next.slice(0, 50))}`;
      const form = await page(undefined, `/ui/login?${new URLSearchParams({ next })}`);
      expectSafe(form, `${what} (form)`);
      // The form keeps a safe address, or the content check (markup) or the URL limit refuses it.
      if (form.statusCode === 200) {
        const kept = /name="next" value="([^"]*)"/.exec(form.body)?.[1] ?? '';
        expect(kept.startsWith('/ui/') && !kept.startsWith('/ui//'), `${what} kept ${kept}`).toBe(
          true,
        );
      } else expect([400, 414], what).toContain(form.statusCode);
      const signedIn = await post(undefined, '/ui/login', {
        username: 'viewer',
        password: TEST_PASSWORD,
        next,
      });
      // Signed in and sent to this interface; or, markup in the form, refused by the content check.
      expect([303, 400], what).toContain(signedIn.statusCode);
      expectSafe(signedIn, what);
      const location = String(signedIn.headers.location);
      expect(location.startsWith('//') || location.includes('\\'), `${what} -> ${location}`).toBe(
        false,
      );
    }
  });

  it('refuses hostile credentials with the sign-in page', async () => {
    const before = await storedState();
    for (const value of [...VALUES, 'u'.repeat(60_000)]) {
      for (const fields of [
        { username: value, password: value },
        { username: 'admin', password: value },
        { username: [value, value], password: TEST_PASSWORD },
        { [value]: value, username: value },
      ]) {
        const response = await post(undefined, '/ui/login', fields);
        expectSafe(response, `credentials ${value.slice(0, 30)}`);
        expect(response.cookies.some((cookie) => cookie.name === 'inventory_ui')).toBe(false);
      }
    }
    expect(await storedState()).toBe(before);
  });
});

describe('the session cookie and the CSRF token', () => {
  it('sends a forged, truncated, huge or hostile session cookie to sign-in', async () => {
    const real = admin.cookie.slice('inventory_ui='.length);
    const before = await storedState();
    const cookies = [
      real.slice(0, -1),
      `${real}A`,
      `${real.slice(0, -1)}${real.endsWith('A') ? 'B' : 'A'}`,
      'A'.repeat(43),
      'A'.repeat(8_000),
      '',
      ...VALUES.map((value) => encodeURIComponent(wellFormed(value))),
    ];
    for (const value of cookies) {
      const session = { cookie: `inventory_ui=${value}`, csrf: admin.csrf };
      const what = `cookie ${value.slice(0, 40)}`;
      const list = await page(session, '/ui/devices');
      expect(list.statusCode, what).toBe(303);
      expect(String(list.headers.location)).toMatch(/^\/ui\/login\?next=/);
      const write = await post(session, `/ui/devices/${deviceId}/delete`, {
        _csrf: admin.csrf,
        _etag: deviceEtag,
      });
      expect(write.statusCode, what).toBe(303);
      expectSafe(write, what);
    }
    // Two cookies of the same name: never the admin's session by accident of order.
    const doubled = await page(
      { cookie: `inventory_ui=${'A'.repeat(43)}; inventory_ui=${real}`, csrf: '' },
      '/ui/devices',
    );
    expectSafe(doubled, 'two session cookies');
    expect(await storedState()).toBe(before);
  });

  it('refuses a missing, forged, truncated, repeated or another user’s CSRF token', async () => {
    const before = await storedState();
    const tokens: Array<string | string[] | undefined> = [
      undefined,
      '',
      admin.csrf.slice(0, -1),
      `${admin.csrf}A`,
      'A'.repeat(admin.csrf.length),
      'A'.repeat(10_000),
      viewer.csrf,
      [viewer.csrf, admin.csrf],
      [admin.csrf, viewer.csrf],
      ...VALUES,
    ];
    const forms: Array<[string, Record<string, string>]> = [
      [`/ui/devices/${deviceId}/delete`, { _etag: deviceEtag }],
      [`/ui/devices/${deviceId}/edit`, { hostname: 'stolen', _base_hostname: 'hostile-00' }],
      ['/ui/devices/new', { hostname: 'planted', ip: '192.0.2.200' }],
      ['/ui/devices/bulk-delete', { id: deviceId }],
      ['/ui/devices/bulk-edit', { id: deviceId, field: 'vendor', value: 'Evil' }],
      ['/ui/devices/columns', { columns: 'hostname' }],
      ['/ui/devices/import', { csv: 'hostname,ip\nplanted,192.0.2.201\n', step: 'import' }],
      [
        '/ui/admin/users',
        { username: 'planted', email: 'p@example.test', password: 'pw-12345678' },
      ],
      ['/ui/admin/tokens', { name: 'planted', scopes: 'events:write' }],
      ['/ui/logout', {}],
    ];
    for (const token of tokens) {
      for (const [url, fields] of forms) {
        const body: Record<string, string | string[]> = { ...fields };
        if (token !== undefined) body._csrf = token;
        const response = await post(admin, url, body);
        const what = `${url} with _csrf ${JSON.stringify(token)?.slice(0, 40)}`;
        // 403 naming the CSRF token; 400 when the content check refuses the markup first.
        expect([400, 403], what).toContain(response.statusCode);
        expectSafe(response, what);
        if (response.statusCode === 403) expect(response.body).toContain('CSRF');
      }
    }
    // The admin's session still works: a refused token ends nothing.
    expect((await page(admin, '/ui/devices')).statusCode).toBe(200);
    expect(await storedState()).toBe(before);
  });
});

describe('form fields', () => {
  it('refuses hostile values in every form field, keeping what was stored', async () => {
    const before = await storedState();
    const device = await ctx.as('admin', { method: 'GET', url: `/devices/${deviceId}` });
    const etag = String(device.headers.etag);
    const fieldNames = [
      'hostname',
      'ip',
      'vendor',
      'model',
      'status',
      'location_id',
      'tags',
      'serial_number',
    ];
    for (const value of VALUES) {
      const what = JSON.stringify(value.slice(0, 30));
      for (const field of fieldNames) {
        // Create, with one hostile field beside valid ones.
        const created = await post(admin, '/ui/devices/new', {
          _csrf: admin.csrf,
          hostname: `made-${field}`,
          ip: '192.0.2.50',
          [field]: value,
        });
        expectSafe(created, `create ${field}=${what}`);
        if (created.statusCode === 303) {
          // Accepted (a plain text value the API allows): stored exactly as typed, then removed.
          const id = String(created.headers.location).split('/').pop() as string;
          const stored = (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).json();
          expect(field === 'tags' ? stored.tags : stored[field], `create ${field}=${what}`).toEqual(
            field === 'tags'
              ? wellFormed(value)
                  .split(/[\s,]+/)
                  .filter(Boolean)
              : wellFormed(value),
          );
          await ctx.as('admin', { method: 'DELETE', url: `/devices/${id}` });
        }
      }
      // Edit, with hostile values for the ETag and the "as opened" values.
      const edit = await post(admin, `/ui/devices/${deviceId}/edit`, {
        _csrf: admin.csrf,
        _etag: value,
        _base_hostname: value,
        hostname: 'hostile-00',
        ip: value,
      });
      expectSafe(edit, `edit ip=${what}`);
      expect(edit.statusCode, `edit ip=${what}`).not.toBe(303);
      // Bulk edit: a hostile field name, value, id and ETag.
      for (const fields of [
        { field: value, value: 'x', id: deviceId, etag },
        { field: 'vendor', value: 'x', id: value, etag },
        { field: 'vendor', value: 'x', id: deviceId, etag: value },
        { field: 'ip', value, id: deviceId, etag },
      ]) {
        const bulk = await post(admin, '/ui/devices/bulk-edit', { _csrf: admin.csrf, ...fields });
        expectSafe(bulk, `bulk edit ${JSON.stringify(fields).slice(0, 60)}`);
      }
      expectSafe(
        await post(admin, '/ui/devices/bulk', { _csrf: admin.csrf, id: value, action: value }),
        `bulk selection ${what}`,
      );
      expectSafe(
        await post(admin, '/ui/devices/bulk-delete', { _csrf: admin.csrf, id: [value, value] }),
        `bulk delete ${what}`,
      );
      expectSafe(
        await post(admin, `/ui/devices/${deviceId}/delete`, { _csrf: admin.csrf, _etag: value }),
        `delete with etag ${what}`,
      );
      // Admin forms.
      expectSafe(
        await post(admin, '/ui/admin/users', {
          _csrf: admin.csrf,
          username: value,
          email: value,
          password: value,
          role: value,
        }),
        `new user ${what}`,
      );
      expectSafe(
        await post(admin, `/ui/admin/users/${deviceId}`, { _csrf: admin.csrf, role: value }),
        `user change ${what}`,
      );
      expectSafe(
        await post(admin, `/ui/admin/tokens/${encodeURIComponent(wellFormed(value))}/revoke`, {
          _csrf: admin.csrf,
        }),
        `token revoke ${what}`,
      );
      expectSafe(
        await post(admin, `/ui/webhooks/${deviceId}/redeliver`, {
          _csrf: admin.csrf,
          delivery_id: value,
        }),
        `redeliver ${what}`,
      );
    }
    expect(await storedState()).toBe(before);
  });

  it('takes prototype keys as field names for nothing', async () => {
    const before = await storedState();
    for (const key of PROTOTYPE_KEYS) {
      for (const url of ['/ui/devices/new', `/ui/devices/${deviceId}/edit`]) {
        const response = await post(admin, url, [
          ['_csrf', admin.csrf],
          [key, 'polluted'],
          [`${key}[polluted]`, 'yes'],
          [`_base_${key}`, 'x'],
          ['hostname', ''],
        ]);
        expectSafe(response, `${url} ${key}`);
      }
      expectSafe(
        await post(admin, '/ui/devices/bulk-edit', [
          ['_csrf', admin.csrf],
          ['id', deviceId],
          ['field', key],
          ['value', 'polluted'],
        ]),
        `bulk edit field ${key}`,
      );
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(await storedState()).toBe(before);
  });

  it('refuses hostile CSV imports before writing anything', async () => {
    const before = await storedState();
    const csvs = [
      '__proto__,hostname\npolluted,x\n',
      'constructor,ip\nx,192.0.2.1\n',
      `hostname,ip\n${MARKUP[0]},192.0.2.2\n${MARKUP[1]},not-an-ip\n`,
      'hostname,ip\n"unterminated,192.0.2.3\n',
      'hostname,ip\nnul\u0000byte,192.0.2.4\n',
      `hostname,ip\n${'h'.repeat(5_000)},192.0.2.5\n`,
      `hostname,ip\n${Array.from({ length: 1_200 }, (_, n) => `bulk-${n},10.1.${n >> 8}.${n & 255}`).join('\n')}\n`,
      '\uFEFF',
      '',
      ',,,\n,,,\n',
      // Ids: an update's rows, each hostile in its own way.
      "id,hostname\n' OR 1=1 --,x\n",
      'id,hostname\n00000000-0000-4000-8000-000000000000,x\n',
      `id,hostname\n${'0'.repeat(5_000)},x\n`,
      'id,__proto__\n00000000-0000-4000-8000-000000000000,x\n',
      'id,etag\n00000000-0000-4000-8000-000000000000,"W/""1"""\n',
      'id,id\n00000000-0000-4000-8000-000000000000,00000000-0000-4000-8000-000000000000\n',
      `id,add_tags\n00000000-0000-4000-8000-000000000000,"${Array.from({ length: 2_000 }, (_, n) => `t${n}`).join(',')}"\n`,
    ];
    /** What the rows of a CSV with ids do, as chosen: the two values and what a forger sends. */
    const idRowsChoices = [
      undefined,
      'update',
      'create',
      ['update', 'create'],
      MARKUP[0],
      '__proto__',
    ];
    for (const csv of csvs) {
      for (const step of ['preview', 'import']) {
        for (const id_rows of csv.startsWith('id,') ? idRowsChoices : [undefined]) {
          const response = await post(admin, '/ui/devices/import', {
            _csrf: admin.csrf,
            csv,
            step,
            ...(id_rows === undefined ? {} : { id_rows }),
          });
          expectSafe(
            response,
            `import ${step} ${String(id_rows)} ${JSON.stringify(csv.slice(0, 40))}`,
          );
        }
      }
    }
    expect(await storedState()).toBe(before);
  });

  it('keeps only declared columns from a column choice', async () => {
    const choices = [
      [...PROTOTYPE_KEYS],
      ['password', 'password_hash', 'id', 'secret'],
      [...MARKUP],
      Array.from({ length: 2_000 }, (_, n) => `column${n}`),
      ['hostname', '__proto__', 'hostname', 'ip', 'x'.repeat(5_000)],
    ];
    for (const columns of choices) {
      const response = await post(admin, '/ui/devices/columns', { _csrf: admin.csrf, columns });
      expectSafe(response, `columns ${columns.slice(0, 3).join(',')}`);
      const { rows } = await sql<{ columns: string[] }>`SELECT c.columns FROM ui_list_columns c
        JOIN users u ON u.id = c.user_id WHERE u.username = 'admin' AND c.resource = 'devices'`.execute(
        ctx.store.db,
      );
      for (const name of rows[0]?.columns ?? []) expect(['hostname', 'ip']).toContain(name);
      expectSafe(await page(admin, '/ui/devices'), 'list after a column choice');
    }
  });

  it('refuses a body over the form limit with a page', async () => {
    const before = await storedState();
    const response = await post(admin, '/ui/devices/new', {
      _csrf: admin.csrf,
      hostname: 'h'.repeat(70 * 1024),
    });
    expect(response.statusCode).toBe(413);
    expectSafe(response, 'oversized form');
    expect(await storedState()).toBe(before);
  });
});
