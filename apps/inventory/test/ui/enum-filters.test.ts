import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, formAsShown, signIn, visit } from './inject.js';

/**
 * A filter on an enumeration offers only what its controls can say: is, is not, is one of
 * (several values chosen), and, where the field may be empty, whether it is empty (yes/no).
 */

let ctx: TestContext;
let admin: Browser;
let deviceId = '';

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
  for (const [hostname, ip, status] of [
    ['enum-a', '192.0.2.61', 'active'],
    ['enum-o', '192.0.2.62', 'offline'],
    ['enum-m', '192.0.2.63', 'maintenance'],
  ] as const) {
    const device = await create(ctx, 'devices', { hostname, ip, status });
    deviceId ||= device.id;
  }
  for (const [name, status] of [
    ['eth-up', 'up'],
    ['eth-down', 'down'],
    ['eth-none', null],
  ] as const)
    await create(ctx, 'interfaces', { device_id: deviceId, name, status });
});
afterAll(() => ctx?.close());

const rowsOf = (page: string) =>
  [...page.matchAll(/<input type="checkbox" name="id" value="/g)].length;
const operatorsOf = (page: string, name: string) => {
  const select = new RegExp(`<select name="${name}__op"[^>]*>([\\s\\S]*?)</select>`).exec(page);
  return [...(select?.[1] ?? '').matchAll(/<option value="([^"]*)"/g)].map((m) => m[1]);
};

describe('a filter on an enumeration', () => {
  it('offers is, is not and is one of, with its values to choose one or several of', async () => {
    const page = await visit(ctx.app, admin, '/ui/devices');
    expect(operatorsOf(page.body, 'status')).toEqual(['exact', 'n', 'in']);
    const values =
      /<select id="filter-status" name="status" multiple[^>]*>([\s\S]*?)<\/select>/.exec(
        page.body,
      )?.[1];
    expect([...(values ?? '').matchAll(/<option value="([^"]*)"/g)].map((m) => m[1])).toEqual([
      'active',
      'offline',
      'maintenance',
      'provisioning',
      'decommissioned',
    ]);
    // A device's status is never empty: no "is empty" to offer.
    expect(page.body).not.toContain('name="status__isnull"');
  });

  it('takes several values as "is one of", and shows them chosen', async () => {
    for (const op of ['in', 'exact']) {
      const page = await visit(
        ctx.app,
        admin,
        `/ui/devices?hostname__isw=enum-&status__op=${op}&status=active&status=offline`,
      );
      expect(page.statusCode, op).toBe(200);
      expect(rowsOf(page.body), op).toBe(2);
      const form = formAsShown(page.body, '/ui/devices');
      expect(form.get('status__op')).toBe('in');
      expect(page.body).toContain('<option value="active" selected>active</option>');
      expect(page.body).toContain('<option value="offline" selected>offline</option>');
    }
    const not = await visit(
      ctx.app,
      admin,
      '/ui/devices?hostname__isw=enum-&status__op=n&status=active',
    );
    expect(rowsOf(not.body)).toBe(2);
  });

  it('says "is not" takes one value when several are chosen, not the API\'s refusal', async () => {
    for (const url of [
      '/ui/devices?hostname__isw=enum-&status__op=n&status=active&status=offline',
      '/ui/devices?status__n=active&status__n=offline',
    ]) {
      const page = await visit(ctx.app, admin, url);
      expect(page.statusCode, url).toBe(200);
      expect(page.body, url).toContain(
        'class="alert" role="alert">Status: “is not” takes one value; to leave out several, choose “is one of” the others.',
      );
      expect(page.body, url).not.toContain('Duplicate query parameter');
    }
    // The hint beside the values says it before the list is asked for.
    const page = await visit(ctx.app, admin, '/ui/devices');
    expect(page.body).toContain('several (Ctrl, ⌘ or Shift): is one of them; “is not” takes one.');
  });

  it('of a field that may be empty offers "is empty" as yes or no', async () => {
    const page = await visit(ctx.app, admin, '/ui/interfaces');
    expect(operatorsOf(page.body, 'status')).toEqual(['exact', 'n', 'in']);
    const empty =
      /<select id="filter-status-empty" name="status__isnull">([\s\S]*?)<\/select>/.exec(
        page.body,
      )?.[1];
    expect([...(empty ?? '').matchAll(/<option value="([^"]*)"/g)].map((m) => m[1])).toEqual([
      '',
      'true',
      'false',
    ]);
    const none = await visit(ctx.app, admin, '/ui/interfaces?status__isnull=true');
    expect(none.statusCode).toBe(200);
    expect(rowsOf(none.body)).toBe(1);
    expect(none.body).toContain('eth-none');
    expect(none.body).toContain('<option value="true" selected>yes</option>');
    // Not listed again as a filter the form cannot show.
    expect(none.body).not.toContain('class="kept-filters"');
  });
});
