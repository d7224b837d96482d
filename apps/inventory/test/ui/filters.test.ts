import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, csrfOf, signIn, visit } from './inject.js';

/**
 * A list's filters as the page passes them on: every filter in the address reaches the API
 * (which refuses what it does not know), so a list, its export and its bulk actions never cover
 * more rows than the address asks for; and every active filter survives the filter form.
 */

let ctx: TestContext;
let admin: Browser;
const ids: string[] = [];

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
  for (const [hostname, ip] of [
    ['core-1', '10.0.0.1'],
    ['core-2', '10.0.0.2'],
    ['edge-1', '10.0.0.3'],
    ['edge-2', '10.0.1.4'],
  ] as const) {
    ids.push(String((await create(ctx, 'devices', { hostname, ip })).id));
  }
});
afterAll(() => ctx?.close());

const rowsOf = (page: string) =>
  [...page.matchAll(/<input type="checkbox" name="id" value="/g)].length;

describe('a filter the page does not know', () => {
  it('is passed to the API, whose refusal is said above an empty list', async () => {
    for (const url of [
      '/ui/devices?hostname__sw=gone',
      '/ui/devices?hostname__icontains=core',
      '/ui/devices?tag=core',
      '/ui/audit-logs?record_id=x',
    ]) {
      const page = await visit(ctx.app, admin, url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toMatch(/class="alert" role="alert">Unknown query parameter: /);
      expect(rowsOf(page.body), url).toBe(0);
      expect(page.body, url).not.toMatch(/<td><a href="\/ui\/devices\//);
    }
  });

  it('that the API knows narrows the list (id__in)', async () => {
    const page = await visit(ctx.app, admin, `/ui/devices?id__in=${ids[0]}`);
    expect(rowsOf(page.body)).toBe(1);
    expect(page.body).toContain('core-1');
    expect(page.body).not.toContain('edge-2');
  });

  it('makes the export refuse with the reason instead of exporting everything', async () => {
    const answer = await visit(ctx.app, admin, '/ui/devices/export.csv?hostname__sw=core');
    expect(answer.statusCode).toBe(400);
    expect(answer.headers['content-type']).toMatch(/^text\/html/);
    expect(answer.body).toContain('Unknown query parameter: hostname__sw');
  });

  it('never offers a bulk action on rows it did not list', async () => {
    const page = await visit(ctx.app, admin, '/ui/devices?hostname__sw=core');
    expect(rowsOf(page.body)).toBe(0);
    // The known filter still narrows what Select all ticks.
    const narrowed = await visit(ctx.app, admin, '/ui/devices?hostname__isw=core');
    expect(rowsOf(narrowed.body)).toBe(2);
    expect(csrfOf(narrowed.body)).not.toBe('');
  });
});

describe('the filter form', () => {
  it('keeps a range (two bounds of one field) on Apply, both listed as active', async () => {
    const page = await visit(ctx.app, admin, '/ui/devices?ip__gte=10.0.0.2&ip__lt=10.0.1.0');
    expect(rowsOf(page.body)).toBe(2);
    const form = page.body.slice(page.body.indexOf('class="filter-form"'));
    const formEnd = form.indexOf('</form>');
    const formHtml = form.slice(0, formEnd);
    // One bound in the field, the other kept as a hidden input and named as an active filter.
    expect(formHtml).toMatch(/id="filter-ip" name="ip" value="10\.0\.0\.2"/);
    expect(formHtml).toContain('<input type="hidden" name="ip__lt" value="10.0.1.0">');
    expect(page.body).toMatch(/IP[^<]*&lt; 10\.0\.1\.0/);
    // Removing the kept bound is one link: the list without it.
    expect(page.body).toContain('href="/ui/devices?ip__gte=10.0.0.2"');
  });

  it('sends both bounds back when applied as shown', async () => {
    const applied = await visit(
      ctx.app,
      admin,
      '/ui/devices?ip=10.0.0.2&ip__op=gte&ip__lt=10.0.1.0&hostname=&hostname__op=exact',
    );
    expect(rowsOf(applied.body)).toBe(2);
    expect(applied.body).toContain('<input type="hidden" name="ip__lt" value="10.0.1.0">');
  });
});

describe('a reference filter', () => {
  it('is chosen by name from a select, not typed as an id', async () => {
    const site = await create(ctx, 'locations', { name: 'dc-east' });
    await create(ctx, 'devices', { hostname: 'east-1', ip: '10.0.2.1', location_id: site.id });
    const page = await visit(ctx.app, admin, '/ui/devices');
    const select = page.body.slice(
      page.body.indexOf('<select id="filter-location_id" name="location_id">'),
    );
    expect(select).toMatch(
      /^<select id="filter-location_id" name="location_id">\s*<option value="">any<\/option>/,
    );
    expect(select.slice(0, select.indexOf('</select>'))).toContain(
      `<option value="${site.id}">dc-east</option>`,
    );
    // Chosen, it filters and stays chosen.
    const chosen = await visit(
      ctx.app,
      admin,
      `/ui/devices?location_id=${site.id}&location_id__op=exact`,
    );
    expect(rowsOf(chosen.body)).toBe(1);
    expect(chosen.body).toContain(`<option value="${site.id}" selected>dc-east</option>`);
  });
});

describe('a filter on an enumeration', () => {
  it('is a select of its values, the chosen ones kept, a value of another lookup kept beside the form', async () => {
    const page = await visit(ctx.app, admin, '/ui/devices?status=offline');
    const select =
      /<select id="filter-status" name="status" multiple[^>]*>([\s\S]*?)<\/select>/.exec(
        page.body,
      )?.[1];
    expect(select).toBeDefined();
    expect([...(select ?? '').matchAll(/<option value="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'active',
      'offline',
      'maintenance',
      'provisioning',
      'decommissioned',
    ]);
    expect(select).toContain('<option value="offline" selected>offline</option>');
    const many = await visit(ctx.app, admin, '/ui/devices?status__in=active,offline');
    expect(many.body).toContain('<option value="active" selected>active</option>');
    expect(many.body).toContain('<option value="offline" selected>offline</option>');
    // A lookup the select cannot say is listed beside the form, with a link that removes it.
    const contains = await visit(ctx.app, admin, '/ui/devices?status__ic=act');
    expect(contains.body).toContain('<span class="chip">Status contains act</span>');
    expect(contains.body).toContain('<input type="hidden" name="status__ic" value="act">');
  });
});
