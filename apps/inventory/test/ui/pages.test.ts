import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, csrfOf, formAsShown, post, signIn, visit } from './inject.js';

/**
 * What a signed-in user sees when the interface refuses their input, asks them to sign in again
 * or cannot find a page: the whole page (header, search box, menu), their input kept, the
 * refusal beside what it is about.
 */

let ctx: TestContext;
let admin: Browser;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
});
afterAll(() => ctx?.close());

/** The layout of a signed-in user's page: the header's search box and the left-hand menu. */
const expectFullLayout = (page: string, what: string) => {
  expect(page, what).toContain('id="global-search"');
  expect(page, what).toContain('aria-label="Main"');
  expect(page, what).toContain('action="/ui/logout"');
};

describe('input holding markup or an entity', () => {
  it('is shown beside its field by the edit form, with every typed value kept', async () => {
    const device = await create(ctx, 'devices', { hostname: 'markup-edit', ip: '192.0.2.10' });
    const edit = await visit(ctx.app, admin, `/ui/devices/${device.id}/edit`);
    const form = formAsShown(edit.body, `/ui/devices/${device.id}/edit`);
    form.set('model', 'C9300-48P <rev B>');
    form.set('serial_number', 'SN-kept-1');
    const saved = await post(ctx.app, admin, `/ui/devices/${device.id}/edit`, form);
    expect(saved.statusCode).toBe(400);
    expectFullLayout(saved.body, 'refused edit');
    expect(saved.body).toContain('value="C9300-48P &lt;rev B&gt;"');
    expect(saved.body).toContain('value="SN-kept-1"');
    expect(saved.body).toMatch(/id="field-model-error">[^<]*HTML or script content/);
    // Nothing was written: the API refused it.
    const stored = await ctx.as('admin', { method: 'GET', url: `/devices/${device.id}` });
    expect(stored.json().model ?? null).toBeNull();
  });

  it('is a problem of its row and field in an import preview, the CSV kept', async () => {
    const csv = 'name,vlan_id\nplain,101\n<b>bold</b>,102\n';
    const importPage = await visit(ctx.app, admin, '/ui/vlans/import');
    const preview = await post(ctx.app, admin, '/ui/vlans/import', {
      _csrf: csrfOf(importPage.body),
      csv,
      step: 'preview',
    });
    expectFullLayout(preview.body, 'import preview');
    expect(preview.body).toContain('&lt;b&gt;bold&lt;/b&gt;');
    expect(preview.body).toMatch(/Row 3 \(name\): [^<]*HTML or script content/);
    expect(preview.body).toContain('1 of 2 rows have errors');
  });

  it('is named by the line of the file it is on, blank lines counted, as the API names it', async () => {
    const csv = 'name,vlan_id\n\nplain,103\n\n<b>bold</b>,104\n';
    const importPage = await visit(ctx.app, admin, '/ui/vlans/import');
    const preview = await post(ctx.app, admin, '/ui/vlans/import', {
      _csrf: csrfOf(importPage.body),
      csv,
      step: 'preview',
    });
    expect(preview.body).toMatch(/Row 5 \(name\): [^<]*HTML or script content/);
  });

  it('in a search or a list filter gets an in-page message, the input kept', async () => {
    for (const [url, kept] of [
      ['/ui/search?q=%3Cnone%3E', 'value="&lt;none&gt;"'],
      ['/ui/search?q=a%26amp', 'value="a&amp;amp"'],
      ['/ui/devices?q=%3Cnone%3E', 'value="&lt;none&gt;"'],
      ['/ui/devices?hostname=x&hostname=y', 'id="filter-hostname" name="hostname" value="x"'],
      ['/ui/devices?q=a&q=b', 'id="filter-q" name="q" value="a"'],
    ] as const) {
      const page = await visit(ctx.app, admin, url);
      expectFullLayout(page.body, url);
      expect(page.body, url).toContain(kept);
      expect(page.body, url).toMatch(/class="alert" role="alert">[^<]+/);
    }
  });
});

describe('the site’s icon', () => {
  it('is named by every page and served from the interface, so no browser asks for /favicon.ico', async () => {
    for (const url of ['/ui/login', '/ui/']) {
      const page = await visit(ctx.app, admin, url);
      const href = /<link rel="icon" href="([^"]+)"/.exec(page.body)?.[1];
      expect(href, url).toMatch(/^\/ui\/static\/favicon\.svg\?v=/);
      const icon = await ctx.app.inject({ method: 'GET', url: href ?? '' });
      expect(icon.statusCode).toBe(200);
      expect(icon.headers['content-type']).toBe('image/svg+xml');
      expect(icon.body).toContain('<svg');
    }
  });
});

describe('a signed-in user’s missing page', () => {
  it('has the whole layout', async () => {
    const missing = await visit(ctx.app, admin, '/ui/nothing/at/all/here');
    expect(missing.statusCode).toBe(404);
    expectFullLayout(missing.body, 'missing page');
  });
});

describe('every page is kept out of caches', () => {
  it('an error page, a missing page and every other page answer Cache-Control: no-store', async () => {
    // Each holds the user's data and the session's CSRF token (in the sign-out form).
    const answers = {
      'refused form (error page)': await post(ctx.app, admin, '/ui/devices/bulk', {
        _csrf: 'stale',
        id: 'x',
      }),
      'unknown record (error page)': await visit(
        ctx.app,
        admin,
        '/ui/devices/01900000-0000-7000-8000-000000000000',
      ),
      'unknown resource': await visit(ctx.app, admin, '/ui/nothing-here'),
      'no page': await visit(ctx.app, admin, '/ui/nothing/at/all/here'),
      'start page': await visit(ctx.app, admin, '/ui/'),
      list: await visit(ctx.app, admin, '/ui/devices'),
      search: await visit(ctx.app, admin, '/ui/search?q=a'),
      'sign-in page': await ctx.app.inject({ method: 'GET', url: '/ui/login' }),
    };
    for (const [what, answer] of Object.entries(answers)) {
      expect(answer.headers['content-type'], what).toMatch(/^text\/html/);
      expect(answer.headers['cache-control'], `${what} (${answer.statusCode})`).toBe('no-store');
    }
    expect(answers['refused form (error page)'].statusCode).toBe(403);
    expectFullLayout(answers['refused form (error page)'].body, 'error page');
  });
});

describe('adding a user', () => {
  const addUser = async (fields: Record<string, string>) => {
    const users = await visit(ctx.app, admin, '/ui/admin/users');
    expect(users.body).toMatch(/id="new-password-hint">At least 8 characters/);
    return post(ctx.app, admin, '/ui/admin/users', { _csrf: csrfOf(users.body), ...fields });
  };

  it('keeps what was typed (never the password) and names the refused field', async () => {
    const taken = await addUser({
      username: 'admin',
      email: 'second-admin@example.com',
      password: 'long-enough-password',
      role: 'editor',
    });
    expect(taken.statusCode).toBe(409);
    expectFullLayout(taken.body, 'duplicate username');
    expect(taken.body).toContain('id="new-username" name="username" required value="admin"');
    expect(taken.body).toContain('value="second-admin@example.com"');
    expect(taken.body).toContain('<option selected>editor</option>');
    expect(taken.body).not.toContain('long-enough-password');
    expect(taken.body).toMatch(/id="new-username-error">Username already exists/);

    const short = await addUser({
      username: 'short-password',
      email: 'short@example.com',
      password: 'short',
      role: 'viewer',
    });
    expect(short.statusCode).toBe(400);
    expect(short.body).toContain('value="short-password"');
    expect(short.body).not.toContain('body/password');
    expect(short.body).toMatch(/id="new-password-error">[^<]*at least 8 characters/);
  });
});

describe('a form posted after the session ended', () => {
  const endedSession = async () => {
    const browser = await signIn(ctx.app, 'admin', TEST_PASSWORD);
    const start = await visit(ctx.app, browser, '/ui/');
    const out = await post(ctx.app, browser, '/ui/logout', { _csrf: csrfOf(start.body) });
    expect(out.statusCode).toBe(303);
    return browser;
  };
  const nextOf = (location: unknown) =>
    new URL(String(location), 'http://localhost').searchParams.get('next');

  it('asks for sign-in and comes back to a page, never to a POST-only address', async () => {
    const browser = await endedSession();
    // The selection's page is a GET page (without a selection it leads to the list).
    const bulk = await post(ctx.app, browser, '/ui/devices/bulk', { _csrf: 'x', id: 'y' });
    expect(bulk.statusCode).toBe(303);
    expect(nextOf(bulk.headers.location)).toBe('/ui/devices/bulk');
    const fromList = await ctx.app.inject({
      method: 'POST',
      url: '/ui/devices/bulk',
      payload: 'id=y',
      headers: {
        cookie: browser.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        referer: 'http://localhost/ui/devices?hostname=core',
      },
    });
    expect(nextOf(fromList.headers.location)).toBe('/ui/devices?hostname=core');
    // Behind a proxy that ends TLS the request is http and the page was https: the page is
    // found by its host and path; another site's page is not.
    for (const [referer, next] of [
      ['https://localhost/ui/devices?hostname=edge', '/ui/devices?hostname=edge'],
      ['https://evil.example/ui/devices?hostname=edge', '/ui/devices/bulk'],
    ]) {
      const behindProxy = await ctx.app.inject({
        method: 'POST',
        url: '/ui/devices/bulk',
        payload: 'id=y',
        headers: {
          cookie: browser.cookie,
          'content-type': 'application/x-www-form-urlencoded',
          referer,
        },
      });
      expect(nextOf(behindProxy.headers.location), referer).toBe(next);
    }
    // The bulk page is a GET of its selection: signing in again comes back to it.
    const fromBulkPage = await ctx.app.inject({
      method: 'POST',
      url: '/ui/devices/bulk-edit',
      payload: 'id=y',
      headers: {
        cookie: browser.cookie,
        'content-type': 'application/x-www-form-urlencoded',
        referer: 'http://localhost/ui/devices/bulk?action=edit&id=y',
      },
    });
    expect(nextOf(fromBulkPage.headers.location)).toBe('/ui/devices/bulk?action=edit&id=y');
    // A POST-only address is never come back to: the nearest page above it is.
    const fromDelete = await post(ctx.app, browser, '/ui/devices/bulk-delete', { id: 'y' });
    expect(nextOf(fromDelete.headers.location)).toBe('/ui/devices');
    const users = await post(ctx.app, browser, '/ui/admin/users/not-an-id', { role: 'viewer' });
    expect(nextOf(users.headers.location)).toBe('/ui/admin/users');
  });

  it('Sign out of an ended session lands on the sign-in page', async () => {
    const browser = await endedSession();
    const out = await post(ctx.app, browser, '/ui/logout', { _csrf: 'stale' });
    expect(out.statusCode).toBe(303);
    expect(out.headers.location).toBe('/ui/login');
  });
});

describe('a list’s first column', () => {
  it('names a referenced record, links to the row and is cut at 120 characters', async () => {
    const hostname = `h${'x'.repeat(230)}.example`;
    const device = await create(ctx, 'devices', { hostname, ip: '192.0.2.20' });
    const port = await create(ctx, 'interfaces', { device_id: device.id, name: 'first-col-eth0' });
    const interfaces = await visit(ctx.app, admin, '/ui/interfaces?name=first-col-eth0');
    expect(interfaces.body).toContain(
      `<td><a href="/ui/interfaces/${port.id}">${hostname.slice(0, 120)}…</a></td>`,
    );
    const devices = await visit(ctx.app, admin, `/ui/devices?hostname=${hostname}`);
    expect(devices.body).toContain(
      `<td><a href="/ui/devices/${device.id}">${hostname.slice(0, 120)}…</a></td>`,
    );
    expect(devices.body).not.toContain(`>${hostname}<`);
  });
});

describe('an address the router cannot read', () => {
  it('is answered in the error shape with the security headers: the pages’ under /ui/', async () => {
    const list = await visit(ctx.app, admin, '/ui/devices');
    for (const [url, policy] of [
      ['/ui/devices/%E0%A4%A', list.headers['content-security-policy']],
      [
        '/devices/%E0%A4%A',
        "default-src 'none';base-uri 'none';form-action 'none';frame-ancestors 'none'",
      ],
    ] as const) {
      const response = await ctx.app.inject({ method: 'GET', url });
      expect(response.statusCode, url).toBe(400);
      expect(response.json(), url).toEqual({ status: 'error', message: 'Malformed URL' });
      expect(response.headers['content-security-policy'], url).toBe(policy);
      expect(response.headers['x-frame-options'], url).toBe('DENY');
      expect(response.headers['x-content-type-options'], url).toBe('nosniff');
      expect(response.headers['x-request-id'], url).toBeTruthy();
    }
  });
});

describe('a record’s pages', () => {
  it('name a referenced record in the change history and the record in the edit breadcrumb', async () => {
    const first = await create(ctx, 'locations', { name: 'history-site-a' });
    const second = await create(ctx, 'locations', { name: 'history-site-b' });
    const device = await create(ctx, 'devices', {
      hostname: 'history-device',
      ip: '192.0.2.30',
      location_id: first.id,
    });
    const moved = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${device.id}`,
      payload: { location_id: second.id },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const page = await visit(ctx.app, admin, `/ui/devices/${device.id}`);
    const history = page.body.slice(page.body.indexOf('id="history-heading"'));
    expect(history).toContain(`<del><a href="/ui/locations/${first.id}">history-site-a</a></del>`);
    expect(history).toContain(`<ins><a href="/ui/locations/${second.id}">history-site-b</a></ins>`);
    const edit = await visit(ctx.app, admin, `/ui/devices/${device.id}/edit`);
    expect(edit.body).toContain(`<li><a href="/ui/devices/${device.id}">history-device</a></li>`);
  });

  it('read the names a history refers to in one API call per referenced resource', async () => {
    /** The API calls (each counted by RATE_LIMIT_MAX) an object page makes, by path. */
    const apiCallsOf = async (url: string) => {
      const inject = vi.spyOn(ctx.app, 'inject');
      try {
        const page = await visit(ctx.app, admin, url);
        expect(page.statusCode).toBe(200);
        return {
          page: page.body,
          paths: inject.mock.calls
            .map((call) => String(((call as unknown[])[0] as { url?: string }).url))
            .filter((path) => !path.startsWith('/ui/')),
        };
      } finally {
        inject.mockRestore();
      }
    };
    const sites = [];
    for (let index = 0; index < 6; index++) {
      sites.push(await create(ctx, 'locations', { name: `calls-site-${index}` }));
    }
    const device = await create(ctx, 'devices', {
      hostname: 'calls-device',
      ip: '192.0.2.31',
      location_id: sites[0]?.id,
    });
    const before = await apiCallsOf(`/ui/devices/${device.id}`);
    for (const site of sites.slice(1)) {
      const moved = await ctx.as('admin', {
        method: 'PATCH',
        url: `/devices/${device.id}`,
        payload: { location_id: site.id },
      });
      expect(moved.statusCode, moved.body).toBe(200);
    }
    const after = await apiCallsOf(`/ui/devices/${device.id}`);
    // Five moves name six locations: every one by name, for no more calls than before.
    for (const site of sites)
      expect(after.page).toContain(`>calls-site-${sites.indexOf(site)}</a>`);
    const locationCalls = after.paths.filter((path) => path.startsWith('/locations'));
    expect(
      locationCalls.every((path) => path.startsWith('/locations?id__in=')),
      locationCalls.join('\n'),
    ).toBe(true);
    expect(locationCalls.length, locationCalls.join('\n')).toBeLessThanOrEqual(2);
    expect(after.paths.length, after.paths.join('\n')).toBeLessThanOrEqual(before.paths.length + 1);
    // The record, its location's name, two related lists, the metrics, the history and its
    // locations' names (the topology's links are one query of the store, not an API call).
    expect(after.paths.length, after.paths.join('\n')).toBe(7);
  });
});

describe('the audit log', () => {
  it('links no row to a page that does not exist, shows when and who, and keeps a deleted record’s history reachable', async () => {
    const device = await create(ctx, 'devices', { hostname: 'audited-gone', ip: '192.0.2.77' });
    const deleted = await ctx.as('admin', { method: 'DELETE', url: `/devices/${device.id}` });
    expect(deleted.statusCode).toBe(204);
    const audit = await visit(ctx.app, admin, '/ui/audit-logs');
    expect(audit.statusCode).toBe(200);
    // The API has no single audit entry to show: no row links to one.
    expect(audit.body).not.toMatch(/href="\/ui\/audit-logs\/[0-9a-f-]{36}"/);
    const header = /<thead>([\s\S]*?)<\/thead>/.exec(audit.body)?.[1] ?? '';
    expect(header).toContain('Created at');
    expect(header).toContain('Username');
    // The user by name, not by a raw id.
    expect(header).not.toMatch(/>User</);
    // The record's id links to its page; a deleted record's page links to its entries here.
    const history = `/ui/audit-logs?resource_id=${device.id}`;
    expect(audit.body).toContain(`href="/ui/devices/${device.id}"`);
    const entries = await visit(ctx.app, admin, history);
    expect(entries.body).toContain('2 audit log entries');
    // Its address now is a missing record, which points there too.
    const gone = await visit(ctx.app, admin, `/ui/devices/${device.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toContain(`href="${history}"`);
  });
});

describe('records of the same name', () => {
  it('are told apart: an interface by its device, a link by its ends, an event by its message', async () => {
    const ends = [];
    for (const hostname of ['apart-a', 'apart-b']) {
      const device = await create(ctx, 'devices', { hostname, ip: `192.0.2.${ends.length + 80}` });
      ends.push(await create(ctx, 'interfaces', { device_id: device.id, name: 'xe-0/0/0' }));
    }
    const form = await visit(ctx.app, admin, '/ui/links/new');
    expect(form.body).toContain('>apart-a · xe-0/0/0</option>');
    expect(form.body).toContain('>apart-b · xe-0/0/0</option>');
    const link = await create(ctx, 'links', {
      a_interface_id: ends[0]?.id,
      b_interface_id: ends[1]?.id,
    });
    const linkPage = await visit(ctx.app, admin, `/ui/links/${link.id}`);
    expect(linkPage.body).toContain('<h1>apart-a · xe-0/0/0 ↔ apart-b · xe-0/0/0</h1>');
    const event = await create(ctx, 'events', {
      severity: 'major',
      type: 'link',
      message: 'xe-0/0/0 went down',
    });
    const eventPage = await visit(ctx.app, admin, `/ui/events/${event.id}`);
    expect(/<h1>([^<]*)<\/h1>/.exec(eventPage.body)?.[1], eventPage.body.slice(-1500)).toContain(
      'xe-0/0/0 went down',
    );
  });
});

describe('a stored value with a right-to-left override', () => {
  it('reverses only itself: every value shown is isolated from the text around it', async () => {
    const spoof = 'rlo-\u202e10.0.0.1';
    // Stored before names refused invisible characters (the API takes none now): shown safely.
    const device = await create(ctx, 'devices', { hostname: 'rlo-plain', ip: '192.0.2.99' });
    await sql`UPDATE devices SET hostname = ${spoof} WHERE id = ${device.id}`.execute(ctx.store.db);
    const search = await visit(ctx.app, admin, `/ui/search?q=${encodeURIComponent('rlo-')}`);
    expect(search.body).toContain(`<bdi>${spoof}</bdi>`);
    const remove = await visit(ctx.app, admin, `/ui/devices/${device.id}/delete`);
    // A value within a text (a title) is isolated by FSI … PDI, the text in turn by <bdi>.
    expect(remove.body).toContain(`<h1><bdi>Delete \u2068${spoof}\u2069?</bdi></h1>`);
    expect(remove.body).toContain(`This deletes the device <bdi>${spoof}</bdi>.`);
    // Text-only places (the window's title) isolate with FSI … PDI; a form's value is kept
    // exactly as stored.
    expect(/<title>([^<]*)<\/title>/.exec(remove.body)?.[1]).toBe(
      `\u2068Delete \u2068${spoof}\u2069?\u2069 · Network inventory`,
    );
    const edit = await visit(ctx.app, admin, `/ui/devices/${device.id}/edit`);
    expect(edit.body).toContain(`value="${spoof}"`);
  });
});

describe('creating an API token', () => {
  it('answers with a redirect, so a reload cannot create a second one, and shows the token once', async () => {
    const tokens = await visit(ctx.app, admin, '/ui/admin/tokens');
    const count = async () =>
      (await ctx.as('admin', { method: 'GET', url: '/api-tokens?limit=100' })).json().data.length;
    const before = await count();
    const created = await post(ctx.app, admin, '/ui/admin/tokens', {
      _csrf: csrfOf(tokens.body),
      name: 'prg-token',
      scopes: 'events:write',
    });
    expect(created.statusCode, created.body).toBe(303);
    // The token is in no address (a URL ends up in histories and logs).
    expect(created.headers.location).toBe('/ui/admin/tokens');
    expect(await count()).toBe(before + 1);
    const shown = await visit(ctx.app, admin, '/ui/admin/tokens');
    expect(shown.body).toMatch(/id="new-token">nit_/);
    // A reload of that page is a GET: no second token, and the token is not shown again.
    const reloaded = await visit(ctx.app, admin, '/ui/admin/tokens');
    expect(reloaded.body).not.toContain('id="new-token"');
    expect(await count()).toBe(before + 1);
  });
});

describe('a viewer', () => {
  it('cannot open the bulk edit or delete forms (403), as with Add and Edit', async () => {
    const device = await create(ctx, 'devices', { hostname: 'viewer-bulk', ip: '192.0.2.51' });
    const viewer = await signIn(ctx.app, 'viewer', TEST_PASSWORD);
    const list = await visit(ctx.app, viewer, '/ui/devices');
    for (const action of ['edit', 'delete']) {
      const bulk = await post(ctx.app, viewer, '/ui/devices/bulk', {
        _csrf: csrfOf(list.body),
        action,
        id: device.id,
      });
      expect(bulk.statusCode, action).toBe(403);
      expect(bulk.body).not.toContain('action="/ui/devices/bulk-');
    }
  });
});

describe('the new-token form', () => {
  it('offers every scope and an expiry, and says a refusal beside its field, keeping the input', async () => {
    const tokens = await visit(ctx.app, admin, '/ui/admin/tokens');
    expect(tokens.body).toMatch(/<input type="checkbox" name="scopes" value="events:read"/);
    expect(tokens.body).toMatch(/<input[^>]*type="date"[^>]*name="expires_on"/);
    const refused = await post(
      ctx.app,
      admin,
      '/ui/admin/tokens',
      new URLSearchParams([
        ['_csrf', csrfOf(tokens.body)],
        ['name', ''],
        ['scopes', 'events:read'],
        ['expires_on', '2999-01-31'],
      ]),
    );
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/aria-invalid="true" aria-describedby="token-name-error"/);
    expect(refused.body).toMatch(/id="token-name-error">Must not be empty</);
    expect(refused.body).not.toContain('body/name');
    expect(refused.body).toMatch(/value="events:read" checked/);
    expect(refused.body).toContain('value="2999-01-31"');
    const created = await post(
      ctx.app,
      admin,
      '/ui/admin/tokens',
      new URLSearchParams([
        ['_csrf', csrfOf(tokens.body)],
        ['name', 'reader'],
        ['scopes', 'events:read'],
        ['expires_on', '2999-01-31'],
      ]),
    );
    expect(created.statusCode, created.body).toBe(303);
    const listed = (await ctx.as('admin', { method: 'GET', url: '/api-tokens?name=reader' })).json()
      .data[0];
    expect(listed.scopes).toEqual(['events:read']);
    expect(listed.expires_at).toMatch(/^2999-01-31T23:59:59/);
  });
});

describe('the accounts page of a service with more accounts than a page holds', () => {
  it('pages them by number in username order, every account reachable', async () => {
    // 120 accounts beside the test's three: no password of theirs is ever checked here.
    await sql`INSERT INTO users (id, username, email, role, password_hash)
      SELECT gen_random_uuid(), 'paged-' || lpad(n::text, 3, '0'),
             'paged-' || n || '@example.test', 'viewer', 'x'
      FROM generate_series(1, 120) AS n`.execute(ctx.store.db);
    const first = await visit(ctx.app, admin, '/ui/admin/users');
    expect(first.statusCode).toBe(200);
    expect(first.body).toContain('rel="next" href="/ui/admin/users?page=2"');
    const second = await visit(ctx.app, admin, '/ui/admin/users?page=2');
    expect(second.statusCode).toBe(200);
    expect(second.body).toContain('rel="prev" href="/ui/admin/users"');
    const shown = [first.body, second.body].flatMap((body) => [
      ...body.matchAll(/<td class="text">(paged-\d{3})<\/td>/g),
    ]);
    expect(new Set(shown.map((match) => match[1])).size).toBe(120);
    // In username order across both pages, as a person looks for an account (ids are random).
    const names = shown.map((match) => match[1]);
    expect(names).toEqual([...names].sort());
    // A hand-edited page number shows the first page rather than failing.
    expect((await visit(ctx.app, admin, '/ui/admin/users?page=x')).statusCode).toBe(200);
  });
});
