import { afterAll, beforeAll, describe, expect, it } from 'vitest';
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
      new RegExp(`<input type="checkbox" name="${name}" value="([^"]+)" checked>`, 'g'),
    ),
  ].map((match) => match[1]);

describe('a record’s form', () => {
  it('shows every value of a list column ticked, and saving another field leaves the list as it was', async () => {
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/webhooks',
      payload: {
        name: 'every-change',
        url: 'http://127.0.0.1:9/hook',
        secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}`,
        events: ['created', 'updated', 'deleted'],
        resources: ['devices', 'vlans'],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { id } = created.json<{ id: string }>();
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
