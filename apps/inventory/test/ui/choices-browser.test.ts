import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';

/**
 * Choosing in a real browser: the audit log filtered by a user picked by username, a list
 * filtered by a record past the first 100 typed with suggestions, a bulk edit's status picked
 * from its values, and the topology's parallel links each reached, named and opened apart.
 * (The same over HTTP: filter-by-name, bulk-choices and topology-parallel tests.)
 */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = process.env.UI_SCREENSHOTS_DIR ?? '/tmp/inventory-ui-screenshots';
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const runBrowser = existsSync(CHROMIUM) || process.env.NETOPS_REQUIRE_CHROMIUM === '1';

describe.skipIf(!runBrowser)('choosing by name, in a browser', { timeout: 90_000 }, () => {
  let ctx: TestContext;
  let browser: Browser;
  let page: Page;
  let base: string;
  const problems: string[] = [];
  /** Locations `bloc-000` … `bloc-129`, by name. */
  const locations = new Map<string, string>();
  let location: { id: string };
  let devices: Array<{ id: string; hostname: string }>;
  const linkIds: string[] = [];

  beforeAll(async () => {
    [ctx, browser] = await Promise.all([
      startTestApp(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
    ]);
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const answer = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      payload: Array.from({ length: 130 }, (_, index) => ({
        name: `bloc-${String(index).padStart(3, '0')}`,
      })),
    });
    expect(answer.statusCode, answer.body).toBe(201);
    for (const row of answer.json<Array<{ id: string; name: string }>>())
      locations.set(row.name, row.id);
    location = { id: String(locations.get('bloc-129')) };
    const made = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: ['core-a', 'core-b', 'core-c'].map((hostname, index) => ({
        hostname,
        ip: `10.252.0.${index + 1}`,
        status: 'active',
        location_id: location.id,
      })),
    });
    expect(made.statusCode, made.body).toBe(201);
    devices = made.json();
    await create(ctx, 'devices', { hostname: 'elsewhere', ip: '10.252.1.1' });
    // Three links between core-a and core-b (made by the editor), one between core-a and core-c.
    const ends: Array<[number, number]> = [
      [0, 1],
      [0, 1],
      [1, 0],
      [0, 2],
    ];
    for (const [index, [from, to]] of ends.entries()) {
      const [x, y] = await Promise.all(
        [from, to].map((at) =>
          create(ctx, 'interfaces', { device_id: devices[at]?.id, name: `et-${index}` }),
        ),
      );
      const link = await ctx.as('editor', {
        method: 'POST',
        url: '/links',
        payload: {
          a_interface_id: x?.id,
          b_interface_id: y?.id,
          status: index === 1 ? 'down' : 'up',
        },
      });
      expect(link.statusCode, link.body).toBe(201);
      linkIds.push(link.json().id);
    }
    page = await (await browser.newContext()).newPage();
    page.on('pageerror', (error) => problems.push(String(error)));
    page.on('console', (message) => {
      if (/Content Security Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    await page.goto(`${base}/ui/login`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
  });
  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  async function checkAccessibility(name: string) {
    await page.evaluate(axeSource);
    const violations = (await page.evaluate(`axe.run(document, { resultTypes: ['violations'] })
      .then((result) => result.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => violation.id))`)) as string[];
    await page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true });
    expect(violations, `axe on ${name}`).toEqual([]);
  }

  it('filters the audit log by a user chosen by username', async () => {
    await page.goto(`${base}/ui/audit-logs`);
    await page.locator('details.filters summary').click();
    // The filter form's (the Columns form has a box of that name too).
    const user = page.locator('form.filter-form').getByLabel('User', { exact: true });
    await expect(user.evaluate((control) => control.tagName)).resolves.toBe('SELECT');
    await user.selectOption({ label: 'editor' });
    await page.getByRole('button', { name: 'Apply' }).click();
    const rows = page.locator('table.list tbody tr');
    // The links the editor made, and the editor's sign-ins.
    await expect(rows.count()).resolves.toBeGreaterThanOrEqual(linkIds.length);
    for (const text of await rows.allInnerTexts()) expect(text).toContain('editor');
    await expect(
      page.locator('form.filter-form').getByLabel('User', { exact: true }).inputValue(),
    ).resolves.not.toBe('');
    await checkAccessibility('audit-log-by-user');
    // A name typed into the address that no account has is said, not shown as no changes.
    await page.goto(`${base}/ui/audit-logs?user_id=nobody`);
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain(
      'User: no account is named “nobody”.',
    );
    await expect(page.locator('table.list').count()).resolves.toBe(0);
    await checkAccessibility('audit-log-unknown-user');
  });

  it('filters a list by a location past the first 100, typed with suggestions', async () => {
    await page.goto(`${base}/ui/devices`);
    await page.locator('details.filters summary').click();
    const box = page.getByRole('combobox', { name: 'Location', exact: true });
    await expect(box.evaluate((input) => input.tagName)).resolves.toBe('INPUT');
    await expect(page.locator('datalist#filter-location_id-choices option').count()).resolves.toBe(
      100,
    );
    await box.fill('bloc-129');
    await page.getByRole('button', { name: 'Apply' }).click();
    const rows = page.locator('table.list tbody tr');
    await expect(rows.count()).resolves.toBe(3);
    await expect(
      page.getByRole('combobox', { name: 'Location', exact: true }).inputValue(),
    ).resolves.toBe('bloc-129');
    await checkAccessibility('devices-by-far-location');
    await page.getByRole('combobox', { name: 'Location', exact: true }).fill('bloc-nowhere');
    await page.getByRole('button', { name: 'Apply' }).click();
    await expect(page.getByRole('alert').first().textContent()).resolves.toContain(
      'Location: no location is named “bloc-nowhere”.',
    );
    await expect(
      page.getByRole('combobox', { name: 'Location', exact: true }).inputValue(),
    ).resolves.toBe('bloc-nowhere');
    await checkAccessibility('devices-by-unknown-location');
  });

  it('filters by several statuses chosen with the keyboard, and by an empty status', async () => {
    await page.goto(`${base}/ui/devices`);
    await page.locator('details.filters summary').click();
    const how = page.getByRole('combobox', { name: 'Status: how to match' });
    await expect(
      how.locator('option').evaluateAll((options) => options.map((o) => o.textContent)),
    ).resolves.toEqual(['is', 'is not', 'is one of']);
    await how.selectOption('in');
    // Chosen by keyboard: the first value, then the next one added with Shift.
    const values = page.getByRole('listbox', { name: 'Status', exact: true });
    await values.focus();
    await page.keyboard.press('Home');
    await page.keyboard.press('Shift+ArrowDown');
    await checkAccessibility('devices-status-filter');
    await page.getByRole('button', { name: 'Apply' }).click();
    expect(new URL(page.url()).searchParams.getAll('status')).toEqual(['active', 'offline']);
    const expected = await ctx.as('admin', {
      method: 'GET',
      url: '/devices?status__in=active,offline&limit=1',
    });
    await expect(page.locator('table.list tbody tr').count()).resolves.toBe(
      expected.json().meta.total_count,
    );
    await expect(
      page
        .getByRole('listbox', { name: 'Status', exact: true })
        .evaluate((select) =>
          [
            ...(select as unknown as { selectedOptions: Iterable<{ value: string }> })
              .selectedOptions,
          ].map((option) => option.value),
        ),
    ).resolves.toEqual(['active', 'offline']);
    await checkAccessibility('devices-status-one-of');
    // An interface's status may be empty: "is empty" is a yes/no of its own.
    await page.goto(`${base}/ui/interfaces`);
    await page.locator('details.filters summary').click();
    await page.getByLabel('Status is empty', { exact: true }).selectOption('true');
    await page.getByRole('button', { name: 'Apply' }).click();
    const empty = await ctx.as('admin', {
      method: 'GET',
      url: '/interfaces?status__isnull=true&limit=1',
    });
    await expect(page.locator('table.list tbody tr').count()).resolves.toBe(
      Math.min(empty.json().meta.total_count, 50),
    );
    await expect(page.getByRole('alert').count()).resolves.toBe(0);
    await checkAccessibility('interfaces-status-empty');
  });

  it('bulk edits a status picked from its declared values', async () => {
    await page.goto(`${base}/ui/devices?hostname__isw=core-&sortby=hostname:asc`);
    await page.locator('input.select-all').check();
    await page.getByRole('button', { name: 'Edit selected' }).click();
    const status = page.getByLabel('Status', { exact: true });
    await expect(status.evaluate((control) => control.tagName)).resolves.toBe('SELECT');
    await expect(status.inputValue()).resolves.toBe('');
    await status.selectOption('maintenance');
    await checkAccessibility('bulk-edit-status');
    await page.getByRole('button', { name: /Apply to 3 records/ }).click();
    await expect(page.locator('#flash').textContent()).resolves.toContain(
      'Set Status on 3 devices',
    );
    const listed = await ctx.as('admin', { method: 'GET', url: '/devices?status=maintenance' });
    expect(listed.json().meta.total_count).toBe(3);
  });

  it('draws parallel links apart, each reached by keyboard, named and opened on its own', async () => {
    await page.goto(`${base}/ui/locations/${location.id}`);
    const edges = page.locator('svg.topology a.edge');
    await expect(edges.count()).resolves.toBe(4);
    const names = await edges.evaluateAll((links) =>
      links.map((link) => link.getAttribute('aria-label')),
    );
    expect(
      names.filter((name) => / of 3 between core-a and core-b$/.test(name ?? '')),
    ).toHaveLength(3);
    // Each drawn line's middle is a point of its own link: none hides another.
    await page.locator('svg.topology').scrollIntoViewIfNeeded();
    const hits =
      (await page.evaluate(`[...document.querySelectorAll('svg.topology a.edge')].map((link) => {
      const line = link.querySelector('.edge-line');
      const middle = line.getPointAtLength(line.getTotalLength() / 2);
      const point = new DOMPoint(middle.x, middle.y).matrixTransform(line.getScreenCTM());
      const hit = document.elementFromPoint(point.x, point.y);
      return hit?.closest('a.edge') === link || [point.x, point.y, hit?.outerHTML.slice(0, 80)].join(' ');
    })`)) as Array<boolean | string>;
    expect(hits).toEqual([true, true, true, true]);
    // Tab reaches every link, each saying which it is.
    await edges.first().focus();
    const focused: string[] = [];
    for (let step = 0; step < 4; step++) {
      focused.push(
        String(await page.evaluate('document.activeElement.getAttribute("aria-label")')),
      );
      if (step === 1)
        await page
          .locator('section.topology-section')
          .screenshot({ path: `${SCREENSHOTS}/topology-parallel-focus.png` });
      await page.keyboard.press('Tab');
    }
    expect(focused).toEqual(names);
    await checkAccessibility('topology-parallel');
    // The second (down) link opens its own page.
    await edges.nth(1).click();
    await expect(page.url()).toBe(`${base}/ui/links/${linkIds[1]}`);
    expect(problems).toEqual([]);
  });
});
