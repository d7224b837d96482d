import { createHash } from 'node:crypto';
import { existsSync, readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { sql } from 'kysely';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../../src/db/schema.js';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';

/**
 * The web interface in a real browser (Debian's chromium through playwright-core), on the
 * store TEST_DATABASE_URL names (PostgreSQL) or the embedded one. One browser for the file, one
 * signed-in context per role, reused by the tests; pages that do not depend on each other are
 * opened side by side. Every page visited is checked with axe-core and for CSP violations.
 */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = process.env.UI_SCREENSHOTS_DIR ?? '/tmp/inventory-ui-screenshots';
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

let ctx: TestContext;
let browser: Browser;
let base: string;
const cspViolations: string[] = [];
const pageErrors: string[] = [];

/** A page in a context of its own (a browser of its own, cookies included), or in `context`. */
async function newPage(context?: BrowserContext): Promise<Page> {
  const page = await (context ?? (await browser.newContext())).newPage();
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text()))
      cspViolations.push(message.text());
  });
  page.on('pageerror', (error) => pageErrors.push(String(error)));
  page.on('dialog', (dialog) => {
    pageErrors.push(`dialog opened: ${dialog.message()}`);
    void dialog.dismiss();
  });
  await page.addInitScript(`document.addEventListener('securitypolicyviolation', (event) => {
    console.error('Refused by CSP: ' + event.violatedDirective + ' ' + event.blockedURI);
  });`);
  return page;
}

/**
 * axe-core on the page as it is: no serious or critical violation. Every rule runs, but only the
 * violations are collected, not the passes (a quarter of the time on a 60-row list); the
 * screenshot is taken meanwhile.
 */
async function checkAccessibility(page: Page, name: string) {
  const [violations] = await Promise.all([
    page.evaluate(axeSource).then(
      () =>
        page.evaluate(`axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => violation.id + ': ' + JSON.stringify(violation.nodes.slice(0, 3).map((node) => node.target))))`) as Promise<
          string[]
        >,
    ),
    page.screenshot({ path: `${SCREENSHOTS}/${name}.png`, fullPage: true }),
  ]);
  expect(violations, `axe on ${name}`).toEqual([]);
}

/**
 * A context signed in as `username` by posting the sign-in form (the form itself is driven in
 * the first test).
 */
async function signedInContext(username: string): Promise<BrowserContext> {
  const context = await browser.newContext();
  const answer = await context.request.post(`${base}/ui/login`, {
    form: { username, password: TEST_PASSWORD, next: '/ui/' },
  });
  expect(answer.ok()).toBe(true);
  expect((await context.cookies()).some((cookie) => cookie.name === 'inventory_ui')).toBe(true);
  return context;
}

async function signIn(page: Page, username: string, password = TEST_PASSWORD) {
  await page.goto(`${base}/ui/login`);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

// Without chromium (a machine that never ran .ci/run) the suite is skipped, and says so; CI
// sets NETOPS_REQUIRE_CHROMIUM so that there it fails instead.
const runBrowser = existsSync(CHROMIUM) || process.env.NETOPS_REQUIRE_CHROMIUM === '1';
if (!runBrowser)
  console.warn(`${CHROMIUM} is missing: the web interface's browser tests are skipped`);

describe.skipIf(!runBrowser)('web interface in a browser', { timeout: 90_000 }, () => {
  let admin: Page;
  const deviceIds: string[] = [];
  let location: { id: string };

  let viewerContext: BrowserContext;

  beforeAll(async () => {
    [ctx, browser] = await Promise.all([
      startTestApp(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
    ]);
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    location = await create(ctx, 'locations', { name: 'Paris DC1', city: 'Paris', country: 'FR' });
    const devices = Array.from({ length: 60 }, (_, index) => ({
      hostname: `sw-${String(index).padStart(3, '0')}`,
      ip: `10.0.${Math.floor(index / 200)}.${(index % 200) + 1}`,
      vendor: index % 2 === 0 ? 'Cisco' : 'Juniper',
      status: 'active',
      serial_number: `SN${1000 + index}`,
      location_id: location.id,
      tags: index < 5 ? ['core'] : [],
    }));
    const response = await ctx.as('admin', { method: 'POST', url: '/devices', payload: devices });
    expect(response.statusCode).toBe(201);
    for (const device of response.json<Array<{ id: string }>>()) deviceIds.push(device.id);
    const [a, b] = [deviceIds[0], deviceIds[1]] as string[];
    const [ifA, ifB] = await Promise.all([
      create(ctx, 'interfaces', { device_id: a, name: 'eth0' }),
      create(ctx, 'interfaces', { device_id: b, name: 'eth0' }),
    ]);
    await create(ctx, 'links', { a_interface_id: ifA.id, b_interface_id: ifB.id, type: 'fiber' });
    const metrics = await Promise.all(
      Array.from({ length: 6 }, (_, hour) =>
        ctx.as('admin', {
          method: 'POST',
          url: '/metrics',
          payload: {
            device_id: a,
            cpu: 20 + hour * 5,
            memory: 40 + hour,
            temperature: 35 + hour,
            ts: new Date(Date.now() - (6 - hour) * 3600_000).toISOString(),
          },
        }),
      ),
    );
    for (const metric of metrics) expect(metric.statusCode).toBeLessThan(300);
    [admin, viewerContext] = await Promise.all([newPage(), signedInContext('viewer')]);
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await ctx?.close();
  });

  it('refuses a wrong password, then signs in and lands where it was going', async () => {
    await admin.goto(`${base}/ui/devices`);
    expect(admin.url()).toContain('/ui/login?next=');
    await checkAccessibility(admin, 'login');
    await signIn(admin, 'admin', 'not-the-password');
    await expect(admin.locator('#login-error').textContent()).resolves.toMatch(
      /invalid|credentials/i,
    );
    await expect(admin.evaluate('document.activeElement?.id')).resolves.toBe('error-summary');
    await admin.goto(`${base}/ui/login?next=${encodeURIComponent('/ui/devices')}`);
    await admin.getByLabel('Username').fill('admin');
    await admin.getByLabel('Password').fill(TEST_PASSWORD);
    await admin.getByRole('button', { name: 'Sign in' }).click();
    expect(new URL(admin.url()).pathname).toBe('/ui/devices');
    const cookies = await admin.context().cookies();
    const session = cookies.find((cookie) => cookie.name === 'inventory_ui');
    expect(session?.httpOnly).toBe(true);
    expect(session?.sameSite).toBe('Strict');
    await checkAccessibility(admin, 'devices-list');
  });

  it('never redirects off-site after sign-in', async () => {
    // Each address in a fresh browser of its own, side by side: nothing is shared between them.
    await Promise.all(
      ['https://evil.example/', '//evil.example/', '/\\evil.example/', '/ui//evil.example'].map(
        async (next) => {
          const page = await newPage();
          await page.goto(`${base}/ui/login?next=${encodeURIComponent(next)}`);
          await page.getByLabel('Username').fill('viewer');
          await page.getByLabel('Password').fill(TEST_PASSWORD);
          await page.getByRole('button', { name: 'Sign in' }).click();
          await page.waitForURL((url) => !url.pathname.startsWith('/ui/login'));
          expect(new URL(page.url()).origin, next).toBe(base);
          await page.context().close();
        },
      ),
    );
  });

  it('searches across resources, grouped by type', async () => {
    await admin.getByLabel('Search').fill('sw-00');
    await admin.getByLabel('Search').press('Enter');
    await expect(admin.getByRole('heading', { name: /Devices/ }).count()).resolves.toBeGreaterThan(
      0,
    );
    await expect(admin.getByRole('link', { name: 'sw-001' }).count()).resolves.toBe(1);
    await checkAccessibility(admin, 'search');
    await admin.getByLabel('Search').fill('Paris');
    await admin.getByLabel('Search').press('Enter');
    await expect(admin.getByRole('link', { name: 'Paris DC1' }).count()).resolves.toBe(1);
  });

  it('jumps to the search box on "/", unless the user set the shortcut off', async () => {
    const focused = () => admin.evaluate("document.activeElement?.id ?? ''");
    await admin.goto(`${base}/ui/devices`);
    const toggle = admin.getByRole('checkbox', { name: '/ jumps here' });
    await expect(toggle.isChecked()).resolves.toBe(true);
    await admin.keyboard.press('/');
    await expect(focused()).resolves.toBe('global-search');
    // Typed into a field, "/" is a character like any other.
    await admin.getByLabel('Search').fill('a');
    await admin.getByLabel('Search').press('/');
    await expect(admin.getByLabel('Search').inputValue()).resolves.toBe('a/');

    // Set off (WCAG 2.1.4): remembered on the next page, and "/" leaves the focus where it is.
    await toggle.uncheck();
    await admin.goto(`${base}/ui/locations`);
    await expect(admin.getByRole('checkbox', { name: '/ jumps here' }).isChecked()).resolves.toBe(
      false,
    );
    await admin.keyboard.press('/');
    await expect(focused()).resolves.toBe('');
    await admin.getByRole('checkbox', { name: '/ jumps here' }).check();
    await admin.keyboard.press('/');
    await expect(focused()).resolves.toBe('global-search');
  });

  it('filters with a lookup, sorts by a header and pages with the cursor', async () => {
    await admin.goto(`${base}/ui/devices`);
    await expect(admin.locator('#total-count').textContent()).resolves.toBe('60 devices');
    await admin.locator('details.filters summary').click();
    await admin.locator('#filter-vendor').fill('jun');
    await admin.getByLabel('Vendor: how to match').selectOption('ic');
    await admin.getByLabel('Per page').selectOption('25');
    await admin.getByRole('button', { name: 'Apply' }).click();
    await expect(admin.locator('#total-count').textContent()).resolves.toBe('30 devices');
    await admin.getByRole('link', { name: 'Hostname' }).click();
    await admin.getByRole('link', { name: /Hostname/ }).click();
    const first = await admin.locator('table.list tbody tr td:nth-child(2)').first().textContent();
    expect(first?.trim()).toBe('sw-059');
    expect(new URL(admin.url()).searchParams.get('limit')).toBe('25');
    const pageOne = await admin.locator('table.list tbody tr').count();
    expect(pageOne).toBe(25);
    await admin.getByRole('link', { name: 'Next' }).click();
    expect(admin.url()).toContain('cursor=');
    await expect(admin.locator('table.list tbody tr').count()).resolves.toBe(5);
    await admin.getByRole('link', { name: 'Previous' }).click();
    const back = await admin.locator('table.list tbody tr td:nth-child(2)').first().textContent();
    expect(back?.trim()).toBe('sw-059');
    await checkAccessibility(admin, 'devices-filtered');
  });

  it('exports exactly the filtered list as CSV', async () => {
    await admin.goto(`${base}/ui/devices?vendor=Cisco&tags=core`);
    await expect(admin.locator('#total-count').textContent()).resolves.toBe('3 devices');
    const href = await admin.getByRole('link', { name: 'Export CSV' }).getAttribute('href');
    const csv = await admin.context().request.get(`${base}${href}`);
    expect(csv.status()).toBe(200);
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(4);
    expect(
      lines
        .slice(1)
        .map((line) => line.split(',')[1])
        .sort(),
    ).toEqual(['sw-000', 'sw-002', 'sw-004']);
  });

  it('keeps the columns a user chooses', async () => {
    await admin.goto(`${base}/ui/devices`);
    await admin.locator('details.columns summary').click();
    await admin.getByRole('checkbox', { name: 'Serial number' }).check();
    await admin.getByRole('checkbox', { name: 'OS version' }).uncheck();
    await admin.getByRole('button', { name: 'Save columns' }).click();
    await expect(admin.getByRole('columnheader', { name: /Serial number/ }).count()).resolves.toBe(
      1,
    );
    await expect(admin.getByRole('columnheader', { name: /OS version/ }).count()).resolves.toBe(0);
  });

  it('shows the API validation error beside the field, keeping the input, then creates', async () => {
    await admin.goto(`${base}/ui/devices/new`);
    await checkAccessibility(admin, 'device-new');
    await admin.locator('#field-hostname').fill('edge-01');
    await admin.locator('#field-ip').fill('999.1.1.1');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.locator('#field-ip-error').textContent()).resolves.toMatch(/ip|IP/);
    await expect(admin.locator('#field-hostname').inputValue()).resolves.toBe('edge-01');
    // The refusal announces itself: focus on the summary at the top, which links to the field.
    await expect(admin.evaluate('document.activeElement?.id')).resolves.toBe('error-summary');
    await admin.locator('#error-summary a[href="#field-ip"]').click();
    await expect(admin.evaluate('document.activeElement?.id')).resolves.toBe('field-ip');
    await checkAccessibility(admin, 'device-new-error');
    await admin.locator('#field-ip').fill('192.0.2.10');
    await admin.getByRole('button', { name: 'Save' }).click();
    await expect(admin.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('edge-01');
  });

  it('keeps what was typed when the session ended before Save, through a new sign-in', async () => {
    const page = await newPage(await signedInContext('admin'));
    const id = deviceIds[7] as string;
    await page.goto(`${base}/ui/devices/${id}/edit`);
    await page.locator('#field-model').fill('typed-before-expiry');
    // The session expires while the form is open (a form is carried back to its own account
    // only: one whose session was signed out of, or is unknown, is not carried).
    const cookie = (await page.context().cookies()).find((c) => c.name === 'inventory_ui');
    const idHash = createHash('sha256')
      .update(cookie?.value ?? '')
      .digest('base64url');
    await sql`UPDATE ui_sessions SET expires_at = ${new Date(Date.now() - 1000)}
      WHERE id_hash = ${idHash}`.execute(ctx.store.db as AnyDatabase);
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('#resume-notice').textContent()).resolves.toMatch(
      /what you typed is kept/,
    );
    await checkAccessibility(page, 'sign-in-resume');
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(TEST_PASSWORD);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('button', { name: 'Show what I typed' }).click();
    await expect(page.locator('#field-model').inputValue()).resolves.toBe('typed-before-expiry');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe('sw-007');
    const stored = await ctx.as('admin', { method: 'GET', url: `/devices/${id}` });
    expect(stored.json().model).toBe('typed-before-expiry');
    await page.context().close();
  });

  it('refuses a stale edit with 412, says what changed, and overwrites knowingly', async () => {
    const id = new URL(admin.url()).pathname.split('/').pop() as string;
    await admin.goto(`${base}/ui/devices/${id}/edit`);
    await admin.locator('#field-vendor').fill('Arista');
    // Someone else saves first, through the API.
    const other = await ctx.as('admin', {
      method: 'PATCH',
      url: `/devices/${id}`,
      payload: { model: 'DCS-7050' },
    });
    expect(other.statusCode).toBe(200);
    await admin.getByRole('button', { name: 'Save' }).click();
    const alert = admin.locator('#form-error');
    await expect(alert.textContent()).resolves.toMatch(
      /changed this device while you were editing/,
    );
    await expect(alert.locator('table.diff').textContent()).resolves.toContain('DCS-7050');
    await expect(admin.locator('#field-vendor').inputValue()).resolves.toBe('Arista');
    await checkAccessibility(admin, 'device-edit-412');
    await admin.getByRole('button', { name: 'Save' }).click();
    await admin.waitForURL(`${base}/ui/devices/${id}`);
    const record = (await ctx.as('admin', { method: 'GET', url: `/devices/${id}` })).json();
    expect(record).toMatchObject({ vendor: 'Arista', model: 'DCS-7050' });
    // The history shows the edit's diff: field, before, after.
    const history = admin.locator('section.history');
    await expect(history.textContent()).resolves.toContain('Arista');
    // Vendor was empty before this edit: its row reads "Vendor — Arista" (field, before, after).
    const vendorRow = history.locator('table.diff tbody tr', { hasText: 'Arista' }).first();
    await expect(vendorRow.locator('th').textContent()).resolves.toBe('Vendor');
    await expect(vendorRow.locator('td').allTextContents()).resolves.toEqual(['—', 'Arista']);
    await expect(vendorRow.locator('td ins').count()).resolves.toBe(1);
    await checkAccessibility(admin, 'device-object');
  });

  it('keeps the line breaks of a multi-line field when another field is edited, and shows them', async () => {
    const address = 'Hanauer Landstr. 298\n60314 Frankfurt\r\nGermany';
    const frankfurt = await create(ctx, 'locations', { name: 'Frankfurt DC', address });
    const page = await newPage(await signedInContext('admin'));
    await page.goto(`${base}/ui/locations/${frankfurt.id}/edit`);
    await page.locator('#field-city').fill('Frankfurt am Main');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${base}/ui/locations/${frankfurt.id}`);
    const stored = (
      await ctx.as('admin', { method: 'GET', url: `/locations/${frankfurt.id}` })
    ).json();
    // Unchanged, the address is not sent at all: kept byte for byte (its CR LF included).
    expect(stored.city).toBe('Frankfurt am Main');
    expect(stored.address).toBe(address);
    await page.goto(`${base}/ui/locations/${frankfurt.id}/edit`);
    await expect(page.locator('#field-address').evaluate((field) => field.tagName)).resolves.toBe(
      'TEXTAREA',
    );
    await page.locator('#field-address').fill('Hanauer Landstr. 298\n60314 Frankfurt\nHessen');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.waitForURL(`${base}/ui/locations/${frankfurt.id}`);
    // Changed, its line breaks are stored as line feeds (a browser sends CR LF).
    const changed = await ctx.as('admin', { method: 'GET', url: `/locations/${frankfurt.id}` });
    expect(changed.json().address).toBe('Hanauer Landstr. 298\n60314 Frankfurt\nHessen');
    // The object page and the list show it on its lines.
    const cell = page.locator('table.fields tr', { hasText: 'Address' }).locator('td');
    await expect(cell.innerText()).resolves.toBe('Hanauer Landstr. 298\n60314 Frankfurt\nHessen');
    await page.goto(`${base}/ui/locations`);
    await expect(
      page.locator('tbody tr', { hasText: 'Frankfurt DC' }).locator('td .lines').innerText(),
    ).resolves.toBe('Hanauer Landstr. 298\n60314 Frankfurt\nHessen');
    await checkAccessibility(page, 'location-multiline');
    await page.context().close();
  });

  it('draws the topology and the metric charts', async () => {
    await admin.goto(`${base}/ui/devices/${deviceIds[0]}`);
    // One link drawn (a line, and the wider band beside it that takes the pointer), a link to
    // its page.
    await expect(admin.locator('svg.topology .edge-line').count()).resolves.toBe(1);
    await expect(admin.locator('svg.topology a.edge').getAttribute('aria-label')).resolves.toBe(
      'Link sw-000 eth0 — sw-001 eth0 (up)',
    );
    await expect(admin.locator('svg.topology text').allTextContents()).resolves.toEqual(
      expect.arrayContaining(['sw-000', 'sw-001']),
    );
    await expect(admin.locator('figure.chart svg path').count()).resolves.toBe(3);
    await checkAccessibility(admin, 'device-topology-metrics');
    await admin.goto(`${base}/ui/locations/${location.id}`);
    await expect(admin.locator('svg.topology circle').count()).resolves.toBeGreaterThanOrEqual(60);
  });

  it('keeps the topology legend and the chart labels visible in forced colours', async () => {
    const context = await browser.newContext({ forcedColors: 'active', colorScheme: 'dark' });
    await context.request.post(`${base}/ui/login`, {
      form: { username: 'admin', password: TEST_PASSWORD, next: '/ui/' },
    });
    const page = await newPage(context);
    await page.goto(`${base}/ui/devices/${deviceIds[0]}`);
    // The legend's samples are drawn lines, which forced colours keep (a CSS background is
    // removed): one solid, one dashed.
    await expect(page.locator('.legend svg line').count()).resolves.toBe(2);
    await expect(page.locator('.legend svg line[stroke-dasharray]').count()).resolves.toBe(1);
    // The charts' labels take the system's text colour: as the page's own text, not grey.
    const [label, text] = (await page.evaluate(`[
      getComputedStyle(document.querySelector('figure.chart svg text')).fill,
      getComputedStyle(document.querySelector('main')).color,
    ]`)) as [string, string];
    expect(label).toBe(text);
    await page
      .locator('section.topology-section')
      .screenshot({ path: `${SCREENSHOTS}/forced-topology.png` });
    await page.locator('section.metrics').screenshot({ path: `${SCREENSHOTS}/forced-metrics.png` });
    await context.close();
  });

  it('keeps long values and narrow windows from pushing pages sideways', async () => {
    const long = await create(ctx, 'devices', {
      hostname: `wide-${'x'.repeat(225)}.example`,
      ip: '10.9.9.9',
      model: `M${'9'.repeat(250)}`,
      location_id: location.id,
    });
    const page = await newPage(await signedInContext('admin'));
    // Evaluated in the page (text: the test's TypeScript has no DOM types).
    const overflow = () =>
      page.evaluate('document.documentElement.scrollWidth - window.innerWidth') as Promise<number>;
    for (const [width, paths] of [
      [1280, [`/ui/devices/${long.id}`, `/ui/devices/${long.id}/edit`, '/ui/devices']],
      [390, [`/ui/devices/${long.id}`, '/ui/devices', '/ui/admin/users', '/ui/interfaces']],
    ] as const) {
      await page.setViewportSize({ width, height: 800 });
      for (const path of paths) {
        await page.goto(`${base}${path}`);
        await expect(overflow(), `${path} at ${width} px`).resolves.toBeLessThanOrEqual(0);
        // Long values wrap: nothing is left to scroll to within the page's own area either,
        // but for a list at 390 px, whose table is too wide for it and scrolls there (not the
        // window) rather than breaking its values letter by letter.
        const list = width === 390 && !path.startsWith(`/ui/devices/${long.id}`);
        if (!list)
          await expect(
            page.evaluate(
              `(() => { const main = document.querySelector('main'); return main.scrollWidth - main.clientWidth; })()`,
            ) as Promise<number>,
            `main of ${path} at ${width} px`,
          ).resolves.toBeLessThanOrEqual(0);
        // The header spans the window, whatever the page holds.
        const header = await page.locator('header.top').boundingBox();
        expect(header?.width, `header of ${path} at ${width} px`).toBe(width);
      }
    }
    // A table too wide for 390 px keeps its columns as wide as an address or a time needs and
    // scrolls within the page's area: no such value is broken across lines.
    await page.setViewportSize({ width: 390, height: 800 });
    for (const path of ['/ui/devices', `/ui/devices/${long.id}`]) {
      await page.goto(`${base}${path}`);
      const broken = (await page.evaluate(`(() => {
        const shaped = /^(\\d{1,3}(\\.\\d{1,3}){3}|\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z)$/;
        const found = { values: 0, broken: [] };
        for (const cell of document.querySelectorAll('main td')) {
          const text = cell.textContent.trim();
          if (!shaped.test(text)) continue;
          found.values++;
          const range = document.createRange();
          range.selectNodeContents(cell);
          const lines = new Set([...range.getClientRects()].map((rect) => Math.round(rect.top)));
          if (lines.size > 1) found.broken.push(text);
        }
        return found;
      })()`)) as { values: number; broken: string[] };
      expect(broken.values, `addresses or times on ${path}`).toBeGreaterThan(0);
      expect(broken.broken, `values broken across lines on ${path}`).toEqual([]);
      await expect(overflow(), `${path} at 390 px`).resolves.toBeLessThanOrEqual(0);
    }
    await page.goto(`${base}/ui/devices`);
    await page.locator('main').screenshot({ path: `${SCREENSHOTS}/devices-390.png` });

    // At 390 px the Users page's first role change is on the screen, not past its right edge.
    await page.goto(`${base}/ui/admin/users`);
    for (const control of ['.inline-form select', '.inline-form button']) {
      const box = await page.locator(control).first().boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0), control).toBeLessThanOrEqual(390);
    }
    await page.close();
    await ctx.as('admin', { method: 'DELETE', url: `/devices/${long.id}` });
  });

  it('draws a location of 100 devices with long names without overlapping nodes or labels', async () => {
    const site = await create(ctx, 'locations', { name: 'Crowded site' });
    const hostnames = Array.from(
      { length: 100 },
      (_, index) => `access-switch-building-${String(index).padStart(3, '0')}-floor-3.example`,
    );
    const created = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: hostnames.map((hostname, index) => ({
        hostname,
        ip: `10.8.${Math.floor(index / 200)}.${(index % 200) + 1}`,
        location_id: site.id,
      })),
    });
    expect(created.statusCode, created.body).toBe(201);
    const page = await newPage(await signedInContext('admin'));
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto(`${base}/ui/locations/${site.id}`);
    interface Box {
      x: number;
      y: number;
      width: number;
      height: number;
    }
    // Each node's circle and its label's box as drawn, in the picture's own coordinates.
    const drawn = (await page.evaluate(`(() => {
      const svg = document.querySelector('svg.topology');
      const view = svg.viewBox.baseVal;
      const nodes = [...svg.querySelectorAll('g.node')].map((node) => {
        const circle = node.querySelector('circle');
        const label = node.querySelector('text').getBBox();
        return {
          x: circle.cx.baseVal.value,
          y: circle.cy.baseVal.value,
          r: circle.r.baseVal.value,
          label: { x: label.x, y: label.y, width: label.width, height: label.height },
          title: node.querySelector('title')?.textContent ?? '',
        };
      });
      return { view: { width: view.width, height: view.height }, nodes };
    })()`)) as {
      view: { width: number; height: number };
      nodes: Array<{ x: number; y: number; r: number; label: Box; title: string }>;
    };
    expect(drawn.nodes).toHaveLength(100);
    expect(drawn.nodes.map((node) => node.title).sort()).toEqual([...hostnames].sort());
    const overlaps: string[] = [];
    drawn.nodes.forEach((a, i) => {
      const { label } = a;
      if (label.x < 0 || label.y < 0 || label.x + label.width > drawn.view.width)
        overlaps.push(`label ${a.title} leaves the picture`);
      if (label.y + label.height > drawn.view.height) overlaps.push(`label ${a.title} below`);
      for (const b of drawn.nodes.slice(i + 1)) {
        if (Math.hypot(a.x - b.x, a.y - b.y) < a.r + b.r) overlaps.push(`${a.title} / ${b.title}`);
        const apart =
          label.x + label.width <= b.label.x ||
          b.label.x + b.label.width <= label.x ||
          label.y + label.height <= b.label.y ||
          b.label.y + b.label.height <= label.y;
        if (!apart) overlaps.push(`labels ${a.title} / ${b.title}`);
      }
    });
    expect(overlaps.slice(0, 5), `${overlaps.length} overlaps`).toEqual([]);
    await checkAccessibility(page, 'location-100-devices');
    await page.close();
  });

  it('bulk edits a status with each row’s ETag, then bulk deletes after confirming', async () => {
    await admin.goto(`${base}/ui/devices?vendor=Cisco&sortby=hostname:asc&limit=25`);
    const boxes = admin.locator('tbody input[name="id"]');
    await boxes.nth(0).check();
    await boxes.nth(1).check();
    await admin.getByRole('button', { name: 'Edit selected' }).click();
    await checkAccessibility(admin, 'bulk-edit');
    // A status is chosen among its values; the other fields are left unchanged.
    await admin.getByLabel('Status', { exact: true }).selectOption('maintenance');
    await admin.getByRole('button', { name: /Apply to 2 records/ }).click();
    const listed = await ctx.as('admin', { method: 'GET', url: '/devices?status=maintenance' });
    expect(listed.json().meta.total_count).toBe(2);
    await admin.goto(`${base}/ui/devices?status=maintenance`);
    await admin.locator('input.select-all').check();
    await admin.getByRole('button', { name: 'Delete selected' }).click();
    await expect(admin.locator('ul.selected li').count()).resolves.toBe(2);
    await checkAccessibility(admin, 'bulk-delete-confirm');
    await admin.getByRole('button', { name: /Delete 2 records/ }).click();
    const after = await ctx.as('admin', { method: 'GET', url: '/devices?status=maintenance' });
    expect(after.json().meta.total_count).toBe(0);
  });

  it('previews a CSV import with per-row errors, writes nothing, then imports a good file', async () => {
    await admin.goto(`${base}/ui/vlans/import`);
    await admin.getByLabel('CSV data').fill('vlan_id,name\n10,users\n5000,too-high\n');
    await admin.getByRole('button', { name: 'Preview' }).click();
    await admin.screenshot({ path: `${SCREENSHOTS}/import-preview.png`, fullPage: true });
    await expect(admin.locator('tr.invalid').count()).resolves.toBe(1);
    await expect(admin.locator('tr.invalid').textContent()).resolves.toContain('Row 3');
    await checkAccessibility(admin, 'import-errors');
    expect((await ctx.as('admin', { method: 'GET', url: '/vlans' })).json().meta.total_count).toBe(
      0,
    );
    await admin.getByLabel('CSV data').fill('vlan_id,name\n10,users\n20,voice\n');
    await admin.getByRole('button', { name: 'Import' }).click();
    await expect(admin.locator('.notice').textContent()).resolves.toContain('Imported 2 VLANs');
    expect((await ctx.as('admin', { method: 'GET', url: '/vlans' })).json().meta.total_count).toBe(
      2,
    );
  });

  it('updates the records an edited export names, chosen from the keyboard', async () => {
    const vlans = (
      await ctx.as('admin', { method: 'GET', url: '/vlans?sortby=vlan_id:asc' })
    ).json().data as Array<{ id: string; vlan_id: number; name: string }>;
    expect(vlans.map((vlan) => vlan.name)).toEqual(['users', 'voice']);
    await admin.goto(`${base}/ui/vlans/import`);
    await admin
      .getByLabel('CSV data')
      .fill(`id,name,description\n${vlans[0]?.id},staff,\n${vlans[1]?.id},,phones\n`);
    await admin.getByRole('button', { name: 'Preview' }).click();
    const update = admin.getByRole('radio', { name: /Update the VLANs these ids name/ });
    await expect(update.isChecked()).resolves.toBe(true);
    await expect(admin.locator('p.notice').textContent()).resolves.toContain(
      'Press Import to update the 2 VLANs they name.',
    );
    await admin.screenshot({ path: `${SCREENSHOTS}/import-update-preview.png`, fullPage: true });
    await checkAccessibility(admin, 'import-update-preview');
    // The choice is a radio group: arrow keys move between its two options.
    await update.focus();
    await admin.keyboard.press('ArrowDown');
    await expect(
      admin.getByRole('radio', { name: /Create them as new VLANs/ }).isChecked(),
    ).resolves.toBe(true);
    await admin.keyboard.press('ArrowUp');
    await expect(update.isChecked()).resolves.toBe(true);
    await admin.getByRole('button', { name: 'Import' }).focus();
    await Promise.all([admin.waitForURL(`${base}/ui/vlans`), admin.keyboard.press('Enter')]);
    await expect(admin.locator('#flash').textContent()).resolves.toContain('Updated 2 VLANs');
    const after = (
      await ctx.as('admin', { method: 'GET', url: '/vlans?sortby=vlan_id:asc' })
    ).json().data as Array<{ name: string; description: string | null }>;
    expect(after.map((vlan) => [vlan.name, vlan.description])).toEqual([
      ['staff', null],
      ['voice', 'phones'],
    ]);
  });

  it('reads a chosen CSV file that is not UTF-8 as Windows-1252 and says so', async () => {
    const file = '/tmp/inventory-ui-latin1.csv';
    // "München" as Excel writes it: ü is the one byte 0xFC.
    writeFileSync(file, Buffer.from('name,vlan_id\nM\xfcnchen,801\n', 'latin1'));
    const page = await newPage(await signedInContext('admin'));
    await page.goto(`${base}/ui/vlans/import`);
    await expect(page.locator('#csv-file-note').isVisible()).resolves.toBe(false);
    await page.getByLabel('CSV file (optional)').setInputFiles(file);
    await expect.poll(() => page.getByLabel('CSV data').inputValue()).toContain('801');
    const text = await page.getByLabel('CSV data').inputValue();
    expect(text).toContain('München');
    expect(text).not.toContain('\uFFFD');
    await expect(page.locator('#csv-file-note').textContent()).resolves.toContain(
      'is not UTF-8: it was read as Windows-1252',
    );
    await checkAccessibility(page, 'import-latin1-file');
    // A UTF-8 file afterwards clears the note.
    const utf8 = '/tmp/inventory-ui-utf8.csv';
    writeFileSync(utf8, 'name,vlan_id\nZürich,802\n');
    await page.getByLabel('CSV file (optional)').setInputFiles(utf8);
    await expect.poll(() => page.getByLabel('CSV data').inputValue()).toContain('802');
    await expect(page.locator('#csv-file-note').isVisible()).resolves.toBe(false);
    expect(await page.getByLabel('CSV data').inputValue()).toContain('Zürich');
    unlinkSync(file);
    unlinkSync(utf8);
    await page.context().close();
  });

  it('renders hostile values written straight into the database as text', async () => {
    const hostile = [
      '<script>alert(1)</script>',
      '"><img src=x onerror=alert(2)>',
      'javascript:alert(3)',
    ];
    const id = deviceIds[10] as string;
    // Straight into the table, past the API's content check.
    await sql`UPDATE devices SET hostname = ${hostile[0]}, model = ${hostile[1]}, vendor = ${hostile[2]},
      role = ${hostile[1]}, os = ${hostile[0]} WHERE id = ${id}`.execute(
      ctx.store.db as AnyDatabase,
    );
    // The list and the search side by side, in pages of the admin's browser; the object page last.
    await Promise.all(
      [`/ui/devices?sortby=hostname:asc`, `/ui/search?q=${encodeURIComponent('script')}`].map(
        async (url) => {
          const page = await newPage(admin.context());
          await page.goto(`${base}${url}`);
          await expect(page.locator('main img').count()).resolves.toBe(0);
          await expect(page.locator('main script').count()).resolves.toBe(0);
          await expect(page.locator('a[href^="javascript"]').count()).resolves.toBe(0);
          await page.close();
        },
      ),
    );
    await admin.goto(`${base}/ui/devices/${id}`);
    await expect(admin.locator('main img').count()).resolves.toBe(0);
    await expect(admin.locator('main script').count()).resolves.toBe(0);
    await expect(admin.locator('a[href^="javascript"]').count()).resolves.toBe(0);
    await expect(admin.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(hostile[0]);
    await checkAccessibility(admin, 'hostile-values');
  });

  it('shows the admin pages: users, API tokens (once), webhooks and the audit log', async () => {
    // The pages that only read, side by side in the admin's browser; the tokens in the main page.
    const readOnly = Promise.all(
      [
        ['/ui/admin/users', 'admin-users'],
        ['/ui/audit-logs', 'audit-log'],
        ['/ui/webhooks', 'webhooks'],
      ].map(async ([url, name]) => {
        const page = await newPage(admin.context());
        await page.goto(`${base}${url}`);
        if (name === 'audit-log')
          await expect(page.locator('#total-count').textContent()).resolves.toMatch(/audit/i);
        await checkAccessibility(page, name as string);
        await page.close();
      }),
    );
    await admin.goto(`${base}/ui/admin/tokens`);
    await admin.getByLabel('Name').fill('monitoring');
    await admin.getByRole('button', { name: 'Create token' }).click();
    await expect(admin.locator('#new-token').textContent()).resolves.toMatch(/^nit_/);
    await checkAccessibility(admin, 'admin-tokens');
    await admin.goto(`${base}/ui/admin/tokens`);
    await expect(admin.locator('#new-token').count()).resolves.toBe(0);
    await readOnly;
  });

  it('shows a viewer no edit controls, and the server refuses forged posts anyway', async () => {
    const viewer = await newPage(viewerContext);
    await viewer.goto(`${base}/ui/devices`);
    await expect(viewer.getByRole('button', { name: 'Edit selected' }).count()).resolves.toBe(0);
    await expect(viewer.locator('tbody input[type="checkbox"]').count()).resolves.toBe(0);
    await expect(viewer.getByRole('link', { name: /Add device/ }).count()).resolves.toBe(0);
    await viewer.goto(`${base}/ui/devices/${deviceIds[20]}`);
    await expect(viewer.getByRole('link', { name: 'Edit' }).count()).resolves.toBe(0);
    await checkAccessibility(viewer, 'viewer-object');
    // A form post with the viewer's own valid CSRF token: the API refuses the role.
    const token = await viewer.locator('input[name="_csrf"]').first().inputValue();
    const forged = await viewer
      .context()
      .request.post(`${base}/ui/devices/${deviceIds[20]}/delete`, { form: { _csrf: token } });
    expect(forged.status()).toBe(403);
    // Without the CSRF token, even the admin's session is refused.
    const noToken = await admin
      .context()
      .request.post(`${base}/ui/devices/${deviceIds[20]}/delete`, { form: {} });
    expect(noToken.status()).toBe(403);
    expect(
      (await ctx.as('admin', { method: 'GET', url: `/devices/${deviceIds[20]}` })).statusCode,
    ).toBe(200);
    await viewer.close();
  });

  it('draws a focus ring of at least 3:1 against the background around each control', async () => {
    const page = await newPage(await signedInContext('admin'));
    await page.goto(`${base}/ui/devices`);
    // The focused element's outline colour against the first opaque background behind it.
    const contrastOf = (selector: string) =>
      page.evaluate(`(() => {
        const element = document.querySelector(${JSON.stringify(selector)});
        element.focus({ focusVisible: true });
        const rgb = (text) => text.match(/[0-9.]+/g).map(Number);
        const luminance = ([r, g, b]) => {
          const channel = (c) => { c /= 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
          return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
        };
        const ring = rgb(getComputedStyle(element).outlineColor);
        let around = element.parentElement;
        let background = [255, 255, 255, 0];
        while (around) {
          const colour = rgb(getComputedStyle(around).backgroundColor);
          if (colour.length === 3 || colour[3] > 0) { background = colour; break; }
          around = around.parentElement;
        }
        if (background.length === 4 && background[3] === 0) background = [255, 255, 255];
        const [a, b] = [luminance(ring), luminance(background)];
        return (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
      })()`) as Promise<number>;
    for (const selector of [
      'main a.button',
      'nav[aria-label="Main"] a',
      '#global-search',
      'header.top a.brand',
      'header.top button',
    ]) {
      // Keyboard focus: the ring is drawn for :focus-visible.
      await page.keyboard.press('Tab');
      expect(await contrastOf(selector), selector).toBeGreaterThanOrEqual(3);
    }
    await page.locator('main a.button').first().focus();
    await page.screenshot({
      path: `${SCREENSHOTS}/focus-ring.png`,
      clip: { x: 0, y: 0, width: 900, height: 200 },
    });
    await page.context().close();
  });

  it('signs out, and the session no longer works', async () => {
    await admin.goto(`${base}/ui/`);
    await checkAccessibility(admin, 'home');
    await admin.getByRole('button', { name: 'Sign out' }).click();
    expect(admin.url()).toContain('/ui/login');
    await admin.goto(`${base}/ui/devices`);
    expect(admin.url()).toContain('/ui/login');
  });

  it('met no CSP violation and no script error on any page', () => {
    expect(cspViolations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
