import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../../src/db/schema.js';
import { DEFAULT_WEBHOOK_SETTINGS } from '../../src/webhooks/worker.js';
import { startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, formAsShown, post, signIn, visit } from './inject.js';

/**
 * The web interface's forms and list links over HTTP (`inject`): what a page shows is what its
 * form sends back, and a list's links keep the filter they were made from.
 */

let ctx: TestContext;
let admin: Browser;

beforeAll(async () => {
  // A webhook to a loopback address, never delivered to here: the worker does not run.
  ctx = await startTestApp({
    webhooks: {
      ...DEFAULT_WEBHOOK_SETTINGS,
      allowPrivateTargets: true,
      workerEnabled: false,
      secretKey: undefined,
    },
  });
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
});
afterAll(() => ctx?.close());

const checked = (page: string, name: string) =>
  [
    ...page.matchAll(
      new RegExp(`<input type="checkbox" name="${name}" value="([^"]+)" checked[^>]*>`, 'g'),
    ),
  ].map((match) => match[1]);

/** A webhook to a loopback address (never delivered to: the worker is off); its id. */
async function newWebhook(fields: Record<string, unknown>): Promise<string> {
  const created = await ctx.as('admin', {
    method: 'POST',
    url: '/webhooks',
    payload: {
      url: 'http://127.0.0.1:9/hook',
      secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
      ...fields,
    },
  });
  expect(created.statusCode, created.body).toBe(201);
  return created.json<{ id: string }>().id;
}

describe('a record’s form', () => {
  it('shows every value of a list column ticked, and saving another field leaves the list as it was', async () => {
    const id = await newWebhook({
      name: 'every-change',
      events: ['created', 'updated', 'deleted'],
      resources: ['devices', 'vlans'],
    });
    const fresh = await visit(ctx.app, admin, '/ui/webhooks/new');
    // A new webhook is sent every change by default: all three boxes (only the first was).
    expect(checked(fresh.body, 'events')).toEqual(['created', 'updated', 'deleted']);
    const edit = await visit(ctx.app, admin, `/ui/webhooks/${id}/edit`);
    expect(edit.statusCode).toBe(200);
    expect(checked(edit.body, 'events')).toEqual(['created', 'updated', 'deleted']);
    expect(checked(edit.body, 'resources')).toEqual(['devices', 'vlans']);
    const form = formAsShown(edit.body, `/ui/webhooks/${id}/edit`);
    form.set('name', 'every-change-renamed');
    const saved = await post(ctx.app, admin, `/ui/webhooks/${id}/edit`, form);
    expect(saved.statusCode, saved.body.slice(0, 500)).toBe(303);
    const after = await ctx.as('admin', { method: 'GET', url: `/webhooks/${id}` });
    expect(after.json()).toMatchObject({
      name: 'every-change-renamed',
      events: ['created', 'updated', 'deleted'],
      resources: ['devices', 'vlans'],
    });
  });
});

describe('a record’s form, its lists in another order', () => {
  it('saving another field sends no list that only the boxes’ order tells apart', async () => {
    const id = await newWebhook({ name: 'reordered', events: ['deleted', 'created'] });
    const edit = await visit(ctx.app, admin, `/ui/webhooks/${id}/edit`);
    const form = formAsShown(edit.body, `/ui/webhooks/${id}/edit`);
    expect(form.getAll('events')).toEqual(['created', 'deleted']); // the boxes' order
    form.set('name', 'reordered-renamed');
    expect((await post(ctx.app, admin, `/ui/webhooks/${id}/edit`, form)).statusCode).toBe(303);
    const after = await ctx.as('admin', { method: 'GET', url: `/webhooks/${id}` });
    expect(after.json()).toMatchObject({
      name: 'reordered-renamed',
      events: ['deleted', 'created'],
    });
  });
});

describe('a list’s links', () => {
  const hrefs = (page: string, pattern: RegExp) =>
    [...page.matchAll(/href="([^"]+)"/g)]
      .map((match) => (match[1] ?? '').replaceAll('&amp;', '&'))
      .filter((href) => pattern.test(href));
  const total = (page: string) => /id="total-count">([^<]*)</.exec(page)?.[1];

  it('keep a filter on several tags when paging, sorting and exporting (they dropped it)', async () => {
    const db = ctx.store.db as AnyDatabase;
    await db.deleteFrom('devices').execute();
    const rows = Array.from({ length: 30 }, (_, i) => ({
      hostname: `tagged-${String(i).padStart(2, '0')}`,
      ip: `10.9.0.${i + 1}`,
      vendor: 'Cisco',
      status: 'active',
      tags: i < 27 ? ['core', 'edge'] : ['core'],
    }));
    const created = await ctx.as('admin', { method: 'POST', url: '/devices', payload: rows });
    expect(created.statusCode, created.body).toBe(201);
    const first = await visit(ctx.app, admin, '/ui/devices?tags=core,+edge&limit=25');
    expect(total(first.body)).toMatch(/^27 /);
    const [next] = hrefs(first.body, /cursor=/);
    const second = await visit(ctx.app, admin, next ?? 'no next link');
    expect(second.statusCode).toBe(200);
    expect(total(second.body)).toMatch(/^27 /);
    expect(second.body).toContain('tagged-25');
    const [sorted] = hrefs(first.body, /sortby=hostname/);
    expect(total((await visit(ctx.app, admin, sorted ?? 'no sort link')).body)).toMatch(/^27 /);
    const [exported] = hrefs(first.body, /export\.csv/);
    const csv = await visit(ctx.app, admin, exported ?? 'no export link');
    expect(csv.statusCode).toBe(200);
    expect(csv.body.trim().split(/\r?\n/)).toHaveLength(28);
  });

  it('offer a text search only where the list has one (events and the audit log have none)', async () => {
    for (const url of ['/ui/audit-logs?q=admin', '/ui/events?q=x']) {
      const page = await visit(ctx.app, admin, url);
      expect(page.statusCode, url).toBe(200);
      // A `q` typed into the address is the API's to refuse, said over an empty list: ignored,
      // the page would list every entry as if they matched.
      expect(page.body, url).toContain('Unknown query parameter: q');
      expect(page.body, url).not.toContain('id="filter-q"');
    }
    const devices = await visit(ctx.app, admin, '/ui/devices?q=tagged-0');
    expect(devices.body).toContain('id="filter-q"');
    expect(total(devices.body)).toMatch(/^10 /);
  });

  it('a missing page carries the pages’ own policy, which lets its style sheet load (the API’s refused it)', async () => {
    const missing = await visit(ctx.app, admin, '/ui/nonexistent/x/y');
    expect(missing.statusCode).toBe(404);
    const list = await visit(ctx.app, admin, '/ui/devices');
    expect(missing.headers['content-security-policy']).toBe(
      list.headers['content-security-policy'],
    );
    expect(missing.headers['content-security-policy']).toContain("style-src 'self'");
  });
});

describe('a webhook’s secret', () => {
  const storedSecret = async (id: string) =>
    (
      await sql<{ secret: string | null }>`SELECT secret FROM webhooks WHERE id = ${id}`.execute(
        ctx.store.db as AnyDatabase,
      )
    ).rows[0]?.secret ?? null;

  it('is a write-only field: set on create, changed on edit, kept when left empty, never in the page', async () => {
    const fresh = await visit(ctx.app, admin, '/ui/webhooks/new');
    expect(fresh.body).toMatch(
      /<input type="password" id="field-secret" name="secret"[^>]* value=""[^>]*autocomplete="new-password">/,
    );
    const form = formAsShown(fresh.body, '/ui/webhooks/new');
    form.set('name', 'secret-from-the-form');
    form.set('url', 'http://127.0.0.1:9/secret');
    const first = `whsec_${'a'.repeat(32)}`;
    form.set('secret', first);
    const created = await post(ctx.app, admin, '/ui/webhooks/new', form);
    expect(created.statusCode, created.body).toBe(303);
    const id = String(created.headers.location).split('/').pop() as string;
    const sealed = await storedSecret(id);
    expect(sealed).toBeTruthy();

    const edit = await visit(ctx.app, admin, `/ui/webhooks/${id}/edit`);
    expect(edit.body).not.toContain(first);
    expect(edit.body).toContain('leave empty to keep the current value');
    const unchanged = formAsShown(edit.body, `/ui/webhooks/${id}/edit`);
    unchanged.set('name', 'secret-renamed');
    expect((await post(ctx.app, admin, `/ui/webhooks/${id}/edit`, unchanged)).statusCode).toBe(303);
    expect(await storedSecret(id)).toBe(sealed);

    const again = await visit(ctx.app, admin, `/ui/webhooks/${id}/edit`);
    const changed = formAsShown(again.body, `/ui/webhooks/${id}/edit`);
    changed.set('secret', `whsec_${'b'.repeat(32)}`);
    expect((await post(ctx.app, admin, `/ui/webhooks/${id}/edit`, changed)).statusCode).toBe(303);
    expect(await storedSecret(id)).not.toBe(sealed);

    // A refused form does not echo the secret typed into it.
    const refused = formAsShown(again.body, `/ui/webhooks/${id}/edit`);
    refused.set('secret', 'too-short-secret-is-echoed?');
    refused.set('url', 'not a url');
    const answer = await post(ctx.app, admin, `/ui/webhooks/${id}/edit`, refused);
    expect(answer.statusCode).toBeGreaterThanOrEqual(400);
    expect(answer.body).not.toContain('too-short-secret-is-echoed?');
  });
});

describe('deleting a record changed since its page was opened', () => {
  it('says what changed, offers the delete again and the way back, and deletes nothing yet', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: { hostname: 'delete-412', ip: '192.0.2.41', model: 'before' },
    });
    const id = created.json<{ id: string }>().id;
    const confirm = await visit(ctx.app, admin, `/ui/devices/${id}/delete`);
    const changed = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${id}`,
      payload: { model: 'after' },
    });
    expect(changed.statusCode).toBe(200);
    const refused = await post(
      ctx.app,
      admin,
      `/ui/devices/${id}/delete`,
      formAsShown(confirm.body, `/ui/devices/${id}/delete`),
    );
    expect(refused.statusCode).toBe(412);
    expect(refused.body).not.toContain('Something went wrong');
    expect(refused.body).toMatch(
      /<th scope="row">Model<\/th><td><del>before<\/del><\/td><td><ins>after<\/ins><\/td>/,
    );
    expect(refused.body).toContain(`href="/ui/devices/${id}"`);
    expect((await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).statusCode).toBe(200);
    // Confirmed again, with the version now shown, it is deleted.
    const again = await post(
      ctx.app,
      admin,
      `/ui/devices/${id}/delete`,
      formAsShown(refused.body, `/ui/devices/${id}/delete`),
    );
    expect(again.statusCode, again.body).toBe(303);
    expect((await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).statusCode).toBe(404);
  });

  it('a missing record’s pages are titled as not found', async () => {
    const missing = '01900000-0000-7000-8000-000000000000';
    for (const url of [
      `/ui/devices/${missing}`,
      `/ui/devices/${missing}/edit`,
      `/ui/devices/${missing}/delete`,
    ]) {
      const page = await visit(ctx.app, admin, url);
      expect(page.statusCode, url).toBe(404);
      expect(page.body, url).toMatch(/<h1>No such (page|device)<\/h1>/);
    }
  });
});

describe('a webhook created with no event ticked', () => {
  it('is refused beside the boxes, in plain words, tied to every box, and nothing is saved', async () => {
    const fresh = await visit(ctx.app, admin, '/ui/webhooks/new');
    const form = formAsShown(fresh.body, '/ui/webhooks/new');
    form.set('name', 'no-events-ticked');
    form.set('url', 'http://127.0.0.1:9/none');
    form.delete('events');
    const refused = await post(ctx.app, admin, '/ui/webhooks/new', form);
    expect(refused.statusCode, refused.body).toBe(400);
    expect(refused.body).toMatch(/<fieldset class="field invalid"><legend>Events<\/legend>/);
    expect(refused.body).toMatch(/id="field-events-error">Choose at least one</);
    expect(refused.body).not.toContain('must NOT have');
    const boxes = [...refused.body.matchAll(/<input type="checkbox" name="events"[^>]*>/g)];
    expect(boxes).toHaveLength(3);
    for (const [box] of boxes) {
      expect(box).toContain('aria-invalid="true"');
      expect(box).toContain('aria-describedby="field-events-error"');
      expect(box).not.toContain(' checked');
    }
    const saved = await ctx.as('admin', { method: 'GET', url: '/webhooks?name=no-events-ticked' });
    expect(saved.json().data).toHaveLength(0);
  });
});

describe('a refused form', () => {
  it('opens with an error summary that links to each refused field', async () => {
    const fresh = await visit(ctx.app, admin, '/ui/devices/new');
    const form = formAsShown(fresh.body, '/ui/devices/new');
    form.set('hostname', 'summary-01');
    form.set('ip', '999.1.1.1');
    const refused = await post(ctx.app, admin, '/ui/devices/new', form);
    expect(refused.statusCode).toBe(400);
    const summary = /<div class="error-summary"[^>]*>[\s\S]*?<\/div>/.exec(refused.body)?.[0] ?? '';
    expect(summary).toContain('id="error-summary"');
    expect(summary).toContain('role="alert"');
    expect(summary).toContain('tabindex="-1"');
    expect(summary).toMatch(/<a href="#field-ip">IP: [^<]+<\/a>/);
    // Before the form, right under the title.
    expect(refused.body.indexOf('error-summary')).toBeLessThan(
      refused.body.indexOf('<form method="post" action="/ui/devices/new"'),
    );
  });
});
