import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { offers } from '../../src/resources/definition.js';
import { mayWrite, UI_RESOURCES } from '../../src/ui/catalogue.js';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, csrfOf, formAsShown, post, signIn, visit } from './inject.js';

/** Import and bulk pages: what they accept, where they lead, what they say. */

let ctx: TestContext;
let admin: Browser;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
});
afterAll(() => ctx?.close());

/** The browser's cookies after an answer: the session's, plus the flash it set (or cleared). */
const withCookies = (
  browser: Browser,
  answer: { cookies: Array<{ name: string; value: string }> },
) => {
  const jar = new Map(
    browser.cookie.split('; ').map((pair) => pair.split('=') as [string, string]),
  );
  for (const cookie of answer.cookies) {
    if (cookie.value === '') jar.delete(cookie.name);
    else jar.set(cookie.name, cookie.value);
  }
  return { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') };
};

/** The VLAN import form posted with the CSRF token of the page `form` shows, and `fields`. */
const importVlans = (form: { body: string }, fields: Record<string, unknown>) =>
  post(ctx.app, admin, '/ui/vlans/import', { _csrf: csrfOf(form.body), ...fields });

describe('a successful import', () => {
  it('redirects (303) to the list, which says once what was imported', async () => {
    const form = await visit(ctx.app, admin, '/ui/vlans/import');
    const imported = await importVlans(form, {
      csv: 'name,vlan_id\nprg-a,701\nprg-b,702\n',
      step: 'import',
    });
    expect(imported.statusCode, imported.body).toBe(303);
    expect(imported.headers.location).toBe('/ui/vlans');
    const browser = withCookies(admin, imported);
    const list = await visit(ctx.app, browser, '/ui/vlans');
    expect(list.body).toContain('<p class="notice" role="status" id="flash">Imported 2 VLANs.</p>');
    // Said once: a reload of the list shows it no more (and imports nothing).
    const again = await visit(ctx.app, withCookies(browser, list), '/ui/vlans');
    expect(again.body).not.toContain('id="flash"');
  });

  it('shows no message the service did not set: a flash cookie planted by another site is ignored', async () => {
    // A sibling host can set a cookie for this one (cookie tossing); what it says must not appear
    // on the service's pages as the service's own words.
    const planted = encodeURIComponent('Your session expired: call +1 555 0100 to restore it.');
    const forged = { cookie: `${admin.cookie}; inventory_ui_flash=${planted}` };
    const list = await visit(ctx.app, forged, '/ui/vlans');
    expect(list.statusCode).toBe(200);
    expect(list.body).not.toContain('id="flash"');
    expect(list.body).not.toContain('555 0100');
  });
});

describe('the import preview', () => {
  it('shows each cell as it will be stored: a formula without the apostrophe that guarded it', async () => {
    const form = await visit(ctx.app, admin, '/ui/devices/import');
    const csv = "hostname,ip,vendor\napos-1,10.9.3.1,'=SUM(1)\n";
    const previewed = await post(ctx.app, admin, '/ui/devices/import', {
      _csrf: csrfOf(form.body),
      csv,
      step: 'preview',
    });
    expect(previewed.body).toContain('<td>=SUM(1)</td>');
    expect(previewed.body).not.toContain('<td>&#39;=SUM(1)</td>');
    // The text area keeps the CSV as typed.
    expect(previewed.body).toContain('&#39;=SUM(1)\n</textarea>');
    const imported = await post(ctx.app, admin, '/ui/devices/import', {
      _csrf: csrfOf(form.body),
      csv,
      step: 'import',
    });
    expect(imported.statusCode).toBe(303);
    const stored = await ctx.as('admin', { method: 'GET', url: '/devices?hostname=apos-1' });
    expect(stored.json().data[0].vendor).toBe('=SUM(1)');
  });

  it('refuses a row whose two forms of one value disagree, as the import would', async () => {
    const device = await create(ctx, 'devices', { hostname: 'forms-1', ip: '10.9.5.1' });
    const form = await visit(ctx.app, admin, '/ui/interfaces/import');
    const csv = [
      'device_id,name,speed,speed_mbps',
      `${device.id},csv1,10Gbps,5`,
      `${device.id},csv2,,2500`,
      `${device.id},csv3,1Gbps,1000`,
    ].join('\n');
    const previewed = await post(ctx.app, admin, '/ui/interfaces/import', {
      _csrf: csrfOf(form.body),
      csv,
      step: 'preview',
    });
    expect(previewed.body).not.toContain('rows are valid');
    const rows = [...previewed.body.matchAll(/<tr class="invalid">([\s\S]*?)<\/tr>/g)].map(
      (match) => match[1] ?? '',
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toContain('Row 2 (speed_mbps): 5 is not speed 10Gbps (10000)');
  });

  it('shows every problem of a row, each field’s, not only the first', async () => {
    const form = await visit(ctx.app, admin, '/ui/devices/import');
    const previewed = await post(ctx.app, admin, '/ui/devices/import', {
      _csrf: csrfOf(form.body),
      csv: 'hostname,ip,status,vendor\nmany-1,999.1.1.1,sideways,<b>x</b>\n,10.9.4.2,active,ok\n',
      step: 'preview',
    });
    expect(previewed.statusCode).toBe(400);
    const rows = [...previewed.body.matchAll(/<tr class="invalid">([\s\S]*?)<\/tr>/g)].map(
      (match) => match[1] ?? '',
    );
    expect(rows).toHaveLength(2);
    expect(rows[0]).toContain('Row 2 (ip): Invalid IP address format');
    expect(rows[0]).toMatch(/Row 2 \(status\): must be one of/);
    expect(rows[0]).toMatch(/Row 2 \(vendor\): contains HTML or script content/i);
    expect(rows[1]).toContain('Row 3 (hostname)');
  });
});

describe('a CSV with an id column (an export)', () => {
  const count = async () =>
    (await ctx.as('admin', { method: 'GET', url: '/vlans?name__isw=ids-' })).json().meta
      .total_count;
  const vlan = async (id: string) =>
    (await ctx.as('admin', { method: 'GET', url: `/vlans/${id}` })).json();

  it('can update records of every resource the interface imports: each has a batch update', () => {
    const imported = UI_RESOURCES.filter((resource) => mayWrite(resource, 'admin'));
    expect(imported.map((resource) => resource.name)).toContain('devices');
    for (const resource of imported) {
      expect(offers(resource.definition, 'batch-update'), resource.name).toBe(true);
    }
  });

  it('updates the records its ids name, by default, once previewed as such', async () => {
    const a = await create(ctx, 'vlans', { name: 'ids-a', vlan_id: 731, description: 'kept' });
    const b = await create(ctx, 'vlans', { name: 'ids-b', vlan_id: 732 });
    const form = await visit(ctx.app, admin, '/ui/vlans/import');
    expect(form.body).toContain('With an <code>id</code> column');
    // An empty cell leaves its field as it is: a's description stays.
    const csv = `id,name,description\n${a.id},ids-a2,\n${b.id},ids-b2,moved\n`;
    const previewed = await importVlans(form, {
      csv,
      step: 'preview',
    });
    expect(previewed.statusCode, previewed.body).toBe(200);
    expect(previewed.body).toContain(
      'All 2 rows are valid. Press Import to update the 2 VLANs they name.',
    );
    expect(previewed.body).toMatch(/<input type="radio" name="id_rows" value="update" checked>/);
    const updated = await importVlans(form, {
      csv,
      step: 'import',
      id_rows: 'update',
    });
    expect(updated.statusCode, updated.body.slice(0, 300)).toBe(303);
    const list = await visit(ctx.app, withCookies(admin, updated), '/ui/vlans');
    expect(list.body).toContain('Updated 2 VLANs.');
    expect(await vlan(a.id)).toMatchObject({ name: 'ids-a2', vlan_id: 731, description: 'kept' });
    expect(await vlan(b.id)).toMatchObject({ name: 'ids-b2', description: 'moved' });
  });

  it('names the row of an id no record has, or of a row without one, and changes nothing', async () => {
    const a = await create(ctx, 'vlans', { name: 'ids-c', vlan_id: 733 });
    const b = await create(ctx, 'vlans', { name: 'ids-c-other', vlan_id: 741 });
    const form = await visit(ctx.app, admin, '/ui/vlans/import');
    const missing = '00000000-0000-4000-8000-000000000009';
    const refused = await importVlans(form, {
      csv: `id,name\n${a.id},ids-c2\n${missing},ids-x\n`,
      step: 'import',
      id_rows: 'update',
    });
    expect(refused.statusCode).toBe(404);
    expect(refused.body).toContain(`Row 3: VLAN not found: ${missing}; nothing was changed.`);
    expect((await vlan(a.id)).name).toBe('ids-c');
    const previewed = await importVlans(form, {
      csv: `id,name\n${a.id},ids-c2\n,ids-y\n${b.id},\n`,
      step: 'preview',
    });
    expect(previewed.statusCode).toBe(400);
    expect(previewed.body).toContain(
      'Row 3 (id): is empty: give the id of the record this row changes',
    );
    expect(previewed.body).toContain('Row 4: changes nothing (every cell but the id is empty)');
  });

  it('changes nothing when Import is pressed before the choice was shown', async () => {
    const a = await create(ctx, 'vlans', { name: 'ids-g', vlan_id: 737 });
    const form = await visit(ctx.app, admin, '/ui/vlans/import');
    const csv = `id,name\n${a.id},ids-g2\n`;
    const refused = await importVlans(form, {
      csv,
      step: 'import',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toContain('Nothing was imported. The rows have ids: choose below');
    // Neither option is checked: the same form sent again writes nothing either.
    expect(refused.body).toContain('<input type="radio" name="id_rows" value="update">');
    expect(refused.body).toContain('<input type="radio" name="id_rows" value="create">');
    const again = await post(ctx.app, admin, '/ui/vlans/import', {
      ...Object.fromEntries(formAsShown(refused.body, '/ui/vlans/import')),
      step: 'import',
    });
    expect(again.statusCode).toBe(400);
    expect((await vlan(a.id)).name).toBe('ids-g');
  });

  it('keeps the choice of new records on every page that comes back with the CSV', async () => {
    const source = await create(ctx, 'vlans', { name: 'ids-k', vlan_id: 742 });
    const form = await visit(ctx.app, admin, '/ui/vlans/import');
    const pages = {
      malformed: `id,name\n${source.id},"ids-k\n`,
      'header refused': `id,name,etag\n${source.id},ids-k2,"""1"""\n`,
      'too large': `id,name\n${source.id},${'x'.repeat(1100 * 1024)}\n`,
    };
    for (const [what, csv] of Object.entries(pages)) {
      const page = await importVlans(form, {
        csv,
        step: 'import',
        id_rows: 'create',
      });
      expect(page.statusCode, what).toBeGreaterThanOrEqual(400);
      expect(page.body, what).toMatch(/<input type="radio" name="id_rows" value="create" checked>/);
    }
    expect((await vlan(source.id)).name).toBe('ids-k');
  });

  it('creates when a choice comes with a CSV that has no ids', async () => {
    const before = await count();
    const form = await visit(ctx.app, admin, '/ui/vlans/import');
    const imported = await importVlans(form, {
      csv: 'name,vlan_id\nids-l,743\n',
      step: 'import',
      id_rows: 'update',
    });
    expect(imported.statusCode, imported.body.slice(0, 300)).toBe(303);
    expect(await count()).toBe(before + 1);
  });

  it('keeps the choice of new records through a stale form, so its next Import creates', async () => {
    const source = await create(ctx, 'vlans', { name: 'ids-h', vlan_id: 738 });
    const before = await count();
    const csv = `id,name,vlan_id\n${source.id},ids-h-copy,739\n`;
    // A form from an earlier session (a sign-in resumed, a rate limit's "Show what I typed").
    const stale = await post(ctx.app, admin, '/ui/vlans/import', {
      _csrf: 'stale-token',
      csv,
      step: 'import',
      id_rows: 'create',
    });
    expect(stale.statusCode).toBe(403);
    expect(stale.body).toMatch(/<input type="radio" name="id_rows" value="create" checked>/);
    // The form as the page shows it, Import pressed: the copy is created, the source kept.
    const again = await post(ctx.app, admin, '/ui/vlans/import', {
      ...Object.fromEntries(formAsShown(stale.body, '/ui/vlans/import')),
      step: 'import',
    });
    expect(again.statusCode, again.body.slice(0, 300)).toBe(303);
    expect(await count()).toBe(before + 1);
    expect(await vlan(source.id)).toMatchObject({ name: 'ids-h', vlan_id: 738 });
  });

  it('previews what the API refuses: an id twice, tag changes beside tags, a field twice', async () => {
    const a = await create(ctx, 'devices', { hostname: 'ids-dev-a', ip: '192.0.2.61' });
    const form = await visit(ctx.app, admin, '/ui/devices/import');
    const previewOf = async (csv: string) =>
      post(ctx.app, admin, '/ui/devices/import', {
        _csrf: csrfOf(form.body),
        csv,
        step: 'preview',
        id_rows: 'update',
      });
    const twice = await previewOf(`id,model\n${a.id},m1\n${a.id.toUpperCase()},m2\n`);
    expect(twice.statusCode).toBe(400);
    expect(twice.body).toContain(
      'Row 3 (id): row 2 changes this record already: give each id once',
    );
    const tags = await previewOf(`id,tags,add_tags\n${a.id},a,b\n`);
    expect(tags.statusCode).toBe(400);
    expect(tags.body).toContain('Row 2: add_tags cannot be combined with tags');
    const field = await previewOf(`id,model,model\n${a.id},m1,m2\n`);
    expect(field.statusCode).toBe(400);
    expect(field.body).toContain('CSV header names model twice');
    // Each in the words the API answers the import itself with.
    for (const [csv, message] of [
      [
        `id,model\n${a.id},m1\n${a.id.toUpperCase()},m2\n`,
        'Row 3 (id): row 2 changes this record already: give each id once',
      ],
      [`id,tags,add_tags\n${a.id},a,b\n`, 'Row 2: add_tags cannot be combined with tags'],
      [`id,model,model\n${a.id},m1,m2\n`, 'CSV header names model twice'],
    ] as const) {
      const api = await ctx.as('admin', {
        method: 'PATCH',
        url: '/devices',
        headers: { 'content-type': 'text/csv' },
        payload: csv,
      });
      expect(api.statusCode).toBe(400);
      expect(api.json().message).toBe(message);
    }
  });

  it("says once that nothing was changed when a row's etag is stale", async () => {
    const a = await create(ctx, 'vlans', { name: 'ids-i', vlan_id: 740 });
    const etag = (await ctx.as('admin', { method: 'GET', url: `/vlans/${a.id}` })).headers
      .etag as string;
    await ctx.as('admin', {
      method: 'PATCH',
      url: `/vlans/${a.id}`,
      payload: { description: 'x' },
    });
    const form = await visit(ctx.app, admin, '/ui/vlans/import');
    const refused = await importVlans(form, {
      csv: `id,etag,name\n${a.id},"${etag.replaceAll('"', '""')}",ids-i2\n`,
      step: 'import',
      id_rows: 'update',
    });
    expect(refused.statusCode).toBe(412);
    const alert = /<p class="alert" role="alert">([^<]*)<\/p>/.exec(refused.body)?.[1] ?? '';
    expect(alert).toMatch(/^Row 2: Precondition failed: /);
    expect(alert.match(/nothing was changed/g)).toHaveLength(1);
  });

  it('creates new records instead when so chosen, the ids not used', async () => {
    const existing = await create(ctx, 'vlans', { name: 'ids-d', vlan_id: 734 });
    const before = await count();
    const form = await visit(ctx.app, admin, '/ui/vlans/import');
    const csv = `id,name,vlan_id\n${existing.id},ids-e,735\n00000000-0000-4000-8000-000000000001,ids-f,736\n`;
    const previewed = await importVlans(form, {
      csv,
      step: 'preview',
      id_rows: 'create',
    });
    expect(previewed.body).toContain('Press Import to write them as new VLANs.');
    expect(previewed.body).toMatch(/<input type="radio" name="id_rows" value="create" checked>/);
    const imported = await importVlans(form, {
      csv,
      step: 'import',
      id_rows: 'create',
    });
    expect(imported.statusCode, imported.body.slice(0, 300)).toBe(303);
    expect(await count()).toBe(before + 2);
    expect((await vlan(existing.id)).name).toBe('ids-d');
  });
});

describe('a large CSV', () => {
  /** 1,000 rows of about 990 bytes, quotes and commas: under the API's 1 MB, twice that urlencoded. */
  const bigCsv = () => {
    const cell = (letter: string) => `"${Array(120).fill(letter).join(',')}"`;
    let csv = 'hostname,ip,vendor,model,os,os_version\n';
    for (let index = 0; index < 1000; index++)
      csv += `big-${index},10.150.${Math.floor(index / 250)}.${(index % 250) + 1},${cell('v')},${cell('m')},${cell('o')},${cell('r')}\n`;
    return csv;
  };

  it("under the API's limit is previewed, though the form sends it urlencoded", async () => {
    const csv = bigCsv();
    expect(Buffer.byteLength(csv)).toBeLessThan(1024 * 1024);
    expect(new URLSearchParams({ csv }).toString().length).toBeGreaterThan(1024 * 1024);
    const form = await visit(ctx.app, admin, '/ui/devices/import');
    const previewed = await post(ctx.app, admin, '/ui/devices/import', {
      _csrf: csrfOf(form.body),
      csv,
      step: 'preview',
    });
    expect(previewed.statusCode).toBe(200);
    expect(previewed.body).toContain('All 1,000 rows are valid.');
  });

  it('over the limit is refused in words naming the limit, the CSV kept when it arrived', async () => {
    const form = await visit(ctx.app, admin, '/ui/devices/import');
    const csv = `hostname,ip\n${'x'.repeat(1100 * 1024)},10.0.0.1\n`;
    const refused = await post(ctx.app, admin, '/ui/devices/import', {
      _csrf: csrfOf(form.body),
      csv,
      step: 'preview',
    });
    expect(refused.statusCode).toBe(413);
    expect(refused.body).toMatch(
      /The CSV is 1,101 KB: at most 1,024 KB \(BODY_LIMIT\) can be imported at once/,
    );
    expect(refused.body).toContain('xxxxxxxxxx');
    // Too large even to be read: a page in words, not "Something went wrong".
    const huge = await post(ctx.app, admin, '/ui/devices/import', {
      _csrf: csrfOf(form.body),
      csv: `hostname,ip\n${'é'.repeat(1024 * 1024)}\n`,
      step: 'preview',
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.body).toContain('<title>Too large');
    expect(huge.body).toContain('at most 1,024 KB (BODY_LIMIT) can be imported at once');
  });
});

describe('a bulk edit', () => {
  it('is opened with a GET (Back and Reload work) and says what it changed after its 303', async () => {
    const a = await create(ctx, 'devices', { hostname: 'prg-bulk-a', ip: '10.90.0.1' });
    const b = await create(ctx, 'devices', { hostname: 'prg-bulk-b', ip: '10.90.0.2' });
    const list = await visit(ctx.app, admin, '/ui/devices?hostname__isw=prg-bulk');
    expect(list.body).toContain('<form method="get" action="/ui/devices/bulk" id="bulk-form">');
    // A selection posted (a list page opened before the selection became a GET) is sent on.
    const posted = await post(
      ctx.app,
      admin,
      '/ui/devices/bulk',
      new URLSearchParams([
        ['_csrf', csrfOf(list.body)],
        ['action', 'edit'],
        ['id', String(a.id)],
        ['id', String(b.id)],
      ]),
    );
    expect(posted.statusCode).toBe(303);
    expect(posted.headers.location).toBe(`/ui/devices/bulk?action=edit&id=${a.id}&id=${b.id}`);
    const opened = await visit(
      ctx.app,
      admin,
      `/ui/devices/bulk?${new URLSearchParams([
        ['action', 'edit'],
        ['id', String(a.id)],
        ['id', String(b.id)],
      ])}`,
    );
    expect(opened.statusCode).toBe(200);
    expect(opened.body).toContain('Edit 2 devices');
    const form = formAsShown(opened.body, '/ui/devices/bulk-edit');
    form.set('field', 'model');
    form.set('value', 'C9300');
    const applied = await post(ctx.app, admin, '/ui/devices/bulk-edit', form);
    expect(applied.statusCode).toBe(303);
    const after = await visit(ctx.app, withCookies(admin, applied), '/ui/devices');
    expect(after.body).toContain('id="flash">Set Model on 2 devices.</p>');
  });

  it('sets text of several lines on each record, its line breaks kept as line feeds', async () => {
    const a = await create(ctx, 'locations', { name: 'prg-lines-a' });
    const b = await create(ctx, 'locations', { name: 'prg-lines-b' });
    const opened = await visit(
      ctx.app,
      admin,
      `/ui/locations/bulk?${new URLSearchParams([
        ['action', 'edit'],
        ['id', String(a.id)],
        ['id', String(b.id)],
      ])}`,
    );
    expect(opened.body).toMatch(/<textarea id="bulk-value" name="value"/);
    const form = formAsShown(opened.body, '/ui/locations/bulk-edit');
    form.set('field', 'address');
    // As a browser sends a textarea's lines: CR LF.
    form.set('value', 'Na Pankráci 1\r\n140 00 Praha');
    const applied = await post(ctx.app, admin, '/ui/locations/bulk-edit', form);
    expect(applied.statusCode, applied.body.slice(0, 300)).toBe(303);
    for (const id of [a.id, b.id]) {
      const stored = await ctx.as('admin', { method: 'GET', url: `/locations/${id}` });
      expect(stored.json().address).toBe('Na Pankráci 1\n140 00 Praha');
    }
  });

  it('goes back to the list as it was: its filters, sort and page size', async () => {
    const a = await create(ctx, 'devices', { hostname: 'prg-back-a', ip: '10.91.0.1' });
    const b = await create(ctx, 'devices', { hostname: 'prg-back-b', ip: '10.91.0.2' });
    const listed = '/ui/devices?hostname__isw=prg-back&sortby=hostname%3Adesc&limit=25';
    const list = await visit(ctx.app, admin, listed);
    const selection = formAsShown(list.body, '/ui/devices/bulk');
    selection.append('id', String(a.id));
    selection.append('id', String(b.id));
    for (const action of ['edit', 'delete']) {
      selection.set('action', action);
      const opened = await visit(ctx.app, admin, `/ui/devices/bulk?${selection}`);
      expect(opened.statusCode).toBe(200);
      expect(opened.body).toContain(`<a href="${listed.replaceAll('&', '&amp;')}">Cancel</a>`);
      const form = formAsShown(opened.body, `/ui/devices/bulk-${action}`);
      if (action === 'edit') {
        form.set('field', 'model');
        form.set('value', 'C9300');
      }
      const applied = await post(ctx.app, admin, `/ui/devices/bulk-${action}`, form);
      expect(applied.statusCode, applied.body.slice(0, 300)).toBe(303);
      expect(applied.headers.location).toBe(listed);
    }
  });

  it('goes back to the list itself when the return address is not one of its pages', async () => {
    const a = await create(ctx, 'devices', { hostname: 'prg-away', ip: '10.92.0.1' });
    for (const back of [
      'https://evil.example/ui/devices',
      '//evil.example/',
      '/ui/vlans',
      '/\\evil.example',
    ]) {
      const opened = await visit(
        ctx.app,
        admin,
        `/ui/devices/bulk?${new URLSearchParams({ action: 'edit', id: String(a.id), back })}`,
      );
      expect(opened.statusCode).toBe(200);
      const form = formAsShown(opened.body, '/ui/devices/bulk-edit');
      form.set('back', back);
      form.set('field', 'model');
      form.set('value', 'x');
      const applied = await post(ctx.app, admin, '/ui/devices/bulk-edit', form);
      expect(applied.statusCode).toBe(303);
      expect(applied.headers.location, back).toBe('/ui/devices');
    }
  });
});
