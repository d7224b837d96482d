import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PasswordHasher } from '../../src/auth/passwords.js';
import { create, startTestApp, TEST_HASHING, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, formAsShown, signIn, unescaped, visit } from './inject.js';

/**
 * A list's filter on a record of another list (a device's location) or on an account (the
 * audit log's user) is chosen by name, as the record forms choose one: a select while there are
 * few, a text box with suggestions past the first 100, the name looked up by the server. A name
 * no record has is said in words, never shown as an empty list.
 */

let ctx: TestContext;
let admin: Browser;
/** Locations `floc-000` … `floc-129`, by name. */
const locations = new Map<string, string>();
/** A location the first 100 the API lists do not hold. */
let far: { id: string; name: string };
let farDevice: { id: string };
let nearDevice: { id: string };
/** A link the editor made (the admin made everything else). */
let editorLink: { id: string };
let editorId: string;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
  for (const start of [0, 65]) {
    const answer = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      payload: Array.from({ length: 65 }, (_, offset) => ({
        name: `floc-${String(start + offset).padStart(3, '0')}`,
      })),
    });
    expect(answer.statusCode, answer.body).toBe(201);
    for (const location of answer.json<Array<{ id: string; name: string }>>())
      locations.set(location.name, location.id);
  }
  const first = await ctx.as('admin', { method: 'GET', url: '/locations?limit=100&fields=id' });
  const listed = new Set(first.json<{ data: Array<{ id: string }> }>().data.map((row) => row.id));
  const [name, id] = [...locations].find(([, candidate]) => !listed.has(candidate)) ?? [];
  far = { id: String(id), name: String(name) };
  farDevice = await create(ctx, 'devices', {
    hostname: 'far-away',
    ip: '10.240.0.1',
    location_id: far.id,
  });
  nearDevice = await create(ctx, 'devices', { hostname: 'near-by', ip: '10.240.0.2' });
  const [a, b] = await Promise.all(
    ['eth0', 'eth1'].map((name) => create(ctx, 'interfaces', { device_id: nearDevice.id, name })),
  );
  // Made by the editor: the audit log's entry about it names the editor's account.
  const made = await ctx.as('editor', {
    method: 'POST',
    url: '/links',
    payload: { a_interface_id: a?.id, b_interface_id: b?.id },
  });
  expect(made.statusCode, made.body).toBe(201);
  editorLink = made.json();
  const accounts = await ctx.as('admin', { method: 'GET', url: '/users?username=editor' });
  editorId = accounts.json<{ data: Array<{ id: string }> }>().data[0]?.id ?? '';
});
afterAll(() => ctx?.close());

/** The filter form's markup. */
const filterForm = (page: string) => {
  const start = page.indexOf('class="filter-form"');
  return page.slice(start, page.indexOf('</form>', start));
};
/** The list's rows: the id of each row's record (its checkbox), or its link's target. */
const listed = (page: string) => [...page.matchAll(/name="id" value="([^"]+)"/g)].map((m) => m[1]);

const HOSTILE = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'a'.repeat(10_000),
  'ctl\u0000\u0007\u001b[31m',
  '\u202egnol',
  '%00',
  'x'.repeat(5_000),
];

/**
 * A hostile value's refusal: the filter's name and why, its control characters drawn visibly;
 * an address too long for the server is refused as such before any page reads it (414).
 */
function saysWhy(page: { statusCode: number; body: string }, label: string) {
  if (page.statusCode === 414) {
    expect(page.body).toContain('role="alert">URI too long');
    return;
  }
  // Text of another direction is isolated in the sentence (<bdi>).
  const alert = (/class="alert" role="alert">([\s\S]*?)<\/p>/.exec(page.body)?.[1] ?? '').replace(
    /<\/?bdi>/g,
    '',
  );
  expect(alert).toMatch(new RegExp(`^${label}: no (location|account) is named “`));
  // biome-ignore lint/suspicious/noControlCharactersInRegex: none may reach the sentence
  expect(alert).not.toMatch(/[\u0000-\u001f]/);
  expect(alert.length).toBeLessThan(400);
}

describe('a reference filter past the first 100 records', () => {
  it('is a text box suggesting the records by name, not a select of the first 100', () =>
    visit(ctx.app, admin, '/ui/devices').then((page) => {
      const form = filterForm(page.body);
      expect(form).toMatch(
        /<input type="text" id="filter-location_id" name="location_id"[^>]*list="filter-location_id-choices"/,
      );
      expect(form).toContain('<datalist id="filter-location_id-choices">');
      expect(form).toContain('<option value="floc-000"></option>');
      expect(form).not.toMatch(/<select id="filter-location_id"/);
    }));

  it('takes any record by its name, the box showing the name', async () => {
    const page = await visit(ctx.app, admin, `/ui/devices?location_id=${far.name}`);
    expect(page.statusCode).toBe(200);
    expect(listed(page.body)).toEqual([farDevice.id]);
    expect(filterForm(page.body)).toMatch(
      new RegExp(`id="filter-location_id" name="location_id"[^>]*value="${far.name}"`),
    );
    // Applied again as the form shows it: the same rows.
    const again = await visit(
      ctx.app,
      admin,
      `/ui/devices?${formAsShown(page.body, '/ui/devices')}`,
    );
    expect(listed(again.body)).toEqual([farDevice.id]);
  });

  it('shows a filter given by id (a link) by the record’s name', async () => {
    const page = await visit(ctx.app, admin, `/ui/devices?location_id=${far.id}`);
    expect(listed(page.body)).toEqual([farDevice.id]);
    expect(filterForm(page.body)).toMatch(
      new RegExp(`id="filter-location_id" name="location_id"[^>]*value="${far.name}"`),
    );
  });

  it('takes names for "is not" and "is one of"', async () => {
    const not = await visit(
      ctx.app,
      admin,
      `/ui/devices?location_id=${far.name}&location_id__op=n&hostname__isw=far`,
    );
    expect(listed(not.body)).toEqual([]);
    const oneOf = await visit(
      ctx.app,
      admin,
      `/ui/devices?location_id=floc-000,${far.name}&location_id__op=in`,
    );
    expect(listed(oneOf.body)).toEqual([farDevice.id]);
  });

  it('takes a name holding a comma or a quote for "is one of" in double quotes, and shows it so', async () => {
    const berlin = await create(ctx, 'locations', { name: 'Berlin, DC2' });
    const hall = await create(ctx, 'locations', { name: 'Hall "B", R&D' });
    const annex = await create(ctx, 'locations', { name: 'Annex "North"' });
    // A device in each of them.
    const inThem = await Promise.all(
      [berlin, hall, annex].map((location, at) =>
        create(ctx, 'devices', {
          hostname: `in-quoted-${at}`,
          ip: `10.240.0.${3 + at}`,
          location_id: location.id,
        }),
      ),
    );
    const expected = [...inThem.map((device) => device.id), farDevice.id].sort();
    // A quote inside a name given without quotes is the name's, as before quotes were read.
    const typed = `"Berlin, DC2", "Hall ""B"", R&D" ,Annex "North",${far.name}`;
    const shown = `"Berlin, DC2", "Hall ""B"", R&D", "Annex ""North""", ${far.name}`;
    const byName = await visit(
      ctx.app,
      admin,
      `/ui/devices?${new URLSearchParams({ location_id: typed, location_id__op: 'in' })}`,
    );
    expect(byName.statusCode).toBe(200);
    expect(byName.body).not.toContain('role="alert"');
    expect(listed(byName.body).sort()).toEqual(expected);
    // Given by ids (a link), the box shows the names as they are typed.
    const byId = await visit(
      ctx.app,
      admin,
      `/ui/devices?location_id__in=${berlin.id},${hall.id},${annex.id},${far.id}`,
    );
    expect(listed(byId.body).sort()).toEqual(expected);
    for (const page of [byName, byId]) {
      const box = /id="filter-location_id" name="location_id"[^>]*value="([^"]*)"/.exec(
        filterForm(page.body),
      )?.[1];
      expect(box).toContain('&quot;Berlin, DC2&quot;');
      expect(box).toContain('R&amp;D');
      expect(unescaped(box ?? '')).toBe(shown);
      // Applied again as the form shows it: the same rows.
      const again = await visit(
        ctx.app,
        admin,
        `/ui/devices?${formAsShown(page.body, '/ui/devices')}`,
      );
      expect(again.body).not.toContain('role="alert"');
      expect(listed(again.body).sort()).toEqual(expected);
    }
    // Unquoted, the comma separates two names neither of which is a location's.
    const unquoted = await visit(
      ctx.app,
      admin,
      `/ui/devices?${new URLSearchParams({ location_id__in: 'Berlin, DC2' })}`,
    );
    expect(unquoted.body).toContain('Location: no location is named “Berlin”.');
    // A quote never closed is read as before, at every comma, and named in words.
    const unclosed = await visit(
      ctx.app,
      admin,
      `/ui/devices?${new URLSearchParams({ location_id__in: '"Berlin, DC2' })}`,
    );
    expect(unclosed.statusCode).toBe(200);
    expect(unclosed.body).toContain('Location: no location is named “&quot;Berlin”.');
    expect(listed(unclosed.body)).toEqual([]);
  });

  it('says a name no record has in words, instead of an empty list', async () => {
    const page = await visit(ctx.app, admin, '/ui/devices?location_id=floc-nowhere');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      'class="alert" role="alert">Location: no location is named “floc-nowhere”.',
    );
    expect(page.body).not.toContain('No devices match these filters');
    expect(listed(page.body)).toEqual([]);
    // The text is kept in the box to be corrected.
    expect(filterForm(page.body)).toMatch(/name="location_id"[^>]*value="floc-nowhere"/);
  });

  it('refuses hostile text in words, escaped, never a server error', async () => {
    for (const value of HOSTILE) {
      const page = await visit(
        ctx.app,
        admin,
        `/ui/devices?${new URLSearchParams({ location_id: value })}`,
      );
      expect(page.statusCode, value.slice(0, 20)).toBeLessThan(500);
      saysWhy(page, 'Location');
      expect(page.body).not.toContain('<script>alert');
      expect(page.body).not.toContain('<img src=x');
      expect(listed(page.body)).toEqual([]);
    }
    const exported = await visit(ctx.app, admin, '/ui/devices/export.csv?location_id=<b>x</b>');
    expect(exported.statusCode).toBe(400);
    expect(exported.body).not.toContain('<b>x</b>');
  });

  it('exports the rows of a filter given by name', async () => {
    const exported = await visit(ctx.app, admin, `/ui/devices/export.csv?location_id=${far.name}`);
    expect(exported.statusCode).toBe(200);
    expect(exported.body).toContain('far-away');
    expect(exported.body).not.toContain('near-by');
  });
});

/**
 * The admin's page at `url`, and the API calls it made to look a location up by name
 * (`/locations?name=…`), counted by watching the in-process requests the interface makes.
 */
async function visitCountingLookups(url: string) {
  const app = ctx.app as unknown as { inject: (options: unknown) => Promise<unknown> };
  const original = app.inject;
  let calls = 0;
  app.inject = function (this: unknown, options: unknown) {
    const target = (options as { url?: unknown } | undefined)?.url;
    if (typeof target === 'string' && /^\/locations\?.*\bname(__ie)?=/.test(target)) calls += 1;
    return original.call(this, options);
  } as typeof original;
  try {
    const page = await visit(ctx.app, admin, url);
    return { page, calls };
  } finally {
    app.inject = original;
  }
}

describe('names looked up for a page', () => {
  const names = (count: number, prefix = 'nowhere') =>
    Array.from({ length: count }, (_, at) => `${prefix}-${at}`);

  it('are not looked up for a filter given more than once: the API says why', async () => {
    const query = names(200)
      .map((name) => `location_id=${name}`)
      .join('&');
    for (const url of [`/ui/devices?${query}`, `/ui/devices/export.csv?${query}`]) {
      const { page, calls } = await visitCountingLookups(url);
      expect(calls, url).toBe(0);
      expect(page.statusCode, url).toBeLessThan(500);
      expect(page.body, url).toContain('Duplicate query parameter');
    }
  });

  it('are each looked up once however often they are given', async () => {
    const repeated = Array.from({ length: 100 }, () => far.name).join(',');
    const { page, calls } = await visitCountingLookups(
      `/ui/devices?location_id__in=${repeated}&location_id=${far.name}`,
    );
    expect(page.statusCode).toBe(200);
    expect(listed(page.body)).toEqual([farDevice.id]);
    expect(calls).toBeLessThanOrEqual(3);
  });

  it('are at most 100 in all, past which the page says so instead of looking up more', async () => {
    const query = [
      `location_id__in=${names(100, 'a').join(',')}`,
      `location_id__n=${names(1, 'b').join(',')}`,
      `location_id=${names(1, 'c').join(',')}`,
    ].join('&');
    for (const url of [`/ui/devices?${query}`, `/ui/devices/export.csv?${query}`]) {
      const { page, calls } = await visitCountingLookups(url);
      expect(calls, url).toBe(0);
      expect(page.statusCode, url).toBeLessThan(500);
      expect(page.body, url).toContain(
        'The filters name more than 100 records by name; name fewer, or choose them by id.',
      );
    }
  });
});

describe('the audit log’s user filter', () => {
  it('offers the accounts by username, sending their ids', async () => {
    const page = await visit(ctx.app, admin, '/ui/audit-logs');
    const form = filterForm(page.body);
    expect(form).toMatch(/<select id="filter-user_id" name="user_id">/);
    expect(form).toContain(`<option value="${editorId}">editor</option>`);
    const chosen = formAsShown(page.body, '/ui/audit-logs');
    chosen.set('user_id', editorId);
    const filtered = await visit(ctx.app, admin, `/ui/audit-logs?${chosen}`);
    expect(filtered.body).toContain(`/ui/links/${editorLink.id}`);
    expect(filtered.body).not.toContain(`/ui/devices/${farDevice.id}`);
    expect(filterForm(filtered.body)).toContain(
      `<option value="${editorId}" selected>editor</option>`,
    );
  });

  it('takes a username typed in the address, in any letter case', async () => {
    const page = await visit(ctx.app, admin, '/ui/audit-logs?user_id=Editor');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`/ui/links/${editorLink.id}`);
    expect(page.body).not.toContain(`/ui/devices/${farDevice.id}`);
  });

  it('says an unknown username in words, not as a log without changes', async () => {
    const page = await visit(ctx.app, admin, '/ui/audit-logs?user_id=nobody-here');
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(
      'class="alert" role="alert">User: no account is named “nobody-here”.',
    );
    expect(page.body).not.toContain('No audit log entries match these filters');
    expect(page.body).not.toContain('<table class="list">');
  });

  it('refuses hostile usernames in words, escaped, never a server error', async () => {
    for (const value of HOSTILE) {
      const page = await visit(
        ctx.app,
        admin,
        `/ui/audit-logs?${new URLSearchParams({ user_id: value })}`,
      );
      expect(page.statusCode, value.slice(0, 20)).toBeLessThan(500);
      saysWhy(page, 'User');
      expect(page.body).not.toContain('<script>alert');
      expect(page.body).not.toContain('<img src=x');
      expect(page.body).not.toContain('<table class="list">');
    }
  });

  it('is a text box suggesting usernames once there are more than 100 accounts', async () => {
    const hash = await new PasswordHasher(TEST_HASHING).hash(TEST_PASSWORD);
    await ctx.store.db
      .insertInto('users')
      .values(
        Array.from({ length: 110 }, (_, index) => {
          const username = `acct-${String(index).padStart(3, '0')}`;
          return {
            id: uuidv7(),
            username,
            email: `${username}@example.test`,
            role: 'viewer',
            password_hash: hash,
          };
        }),
      )
      .execute();
    const page = await visit(ctx.app, admin, '/ui/audit-logs');
    const form = filterForm(page.body);
    expect(form).toMatch(
      /<input type="text" id="filter-user_id" name="user_id"[^>]*list="filter-user_id-choices"/,
    );
    expect(form).toContain('<option value="acct-000"></option>');
    const typed = await visit(ctx.app, admin, '/ui/audit-logs?user_id=editor');
    expect(typed.body).toContain(`/ui/links/${editorLink.id}`);
    expect(typed.body).not.toContain(`/ui/devices/${farDevice.id}`);
    expect(filterForm(typed.body)).toMatch(/name="user_id"[^>]*value="editor"/);
    const byId = await visit(ctx.app, admin, `/ui/audit-logs?user_id=${editorId}`);
    expect(filterForm(byId.body)).toMatch(/name="user_id"[^>]*value="editor"/);
  });
});
