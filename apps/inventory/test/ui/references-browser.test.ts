import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';

/**
 * A reference to one of more than 100 records, in a real browser: the form's box is typed into
 * with the first records suggested, the server looks the name up, and a name no record has is
 * said beside the field with the text kept. (The same over HTTP: references.test.ts.)
 */
const CHROMIUM = '/usr/bin/chromium';
const SCREENSHOTS = process.env.UI_SCREENSHOTS_DIR ?? '/tmp/inventory-ui-screenshots';
const axeSource = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);
const runBrowser = existsSync(CHROMIUM) || process.env.NETOPS_REQUIRE_CHROMIUM === '1';

describe.skipIf(!runBrowser)('a reference typed by name, in a browser', { timeout: 90_000 }, () => {
  let ctx: TestContext;
  let browser: Browser;
  let page: Page;
  let base: string;
  const problems: string[] = [];

  beforeAll(async () => {
    [ctx, browser] = await Promise.all([
      startTestApp(),
      chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }),
    ]);
    base = await ctx.app.listen({ host: '127.0.0.1', port: 0 });
    const answer = await ctx.as('admin', {
      method: 'POST',
      url: '/devices',
      payload: Array.from({ length: 130 }, (_, index) => ({
        hostname: `typed-${String(index).padStart(3, '0')}`,
        ip: `10.231.0.${index + 1}`,
      })),
    });
    expect(answer.statusCode, answer.body).toBe(201);
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

  it('suggests the first records, refuses a name no record has, and saves one beyond them', async () => {
    await page.goto(`${base}/ui/interfaces/new`);
    const device = page.getByRole('combobox', { name: /Device/ });
    // A text box with suggestions (a datalist), not a select of the first 100.
    await expect(device.evaluate((input) => input.tagName)).resolves.toBe('INPUT');
    await expect(
      page.locator('datalist#field-device_id-choices option').count(),
    ).resolves.toBeGreaterThan(0);
    await checkAccessibility('interface-new-typed-reference');

    await device.fill('typed-nowhere');
    await page.locator('#field-name').fill('eth0');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.locator('#field-device_id-error').textContent()).resolves.toMatch(
      /No device is named typed-nowhere/,
    );
    await expect(page.getByRole('combobox', { name: /Device/ }).inputValue()).resolves.toBe(
      'typed-nowhere',
    );
    await checkAccessibility('interface-new-typed-reference-error');

    // The last device made is not among the first 100 the suggestions hold.
    await page.getByRole('combobox', { name: /Device/ }).fill('typed-129');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByRole('heading', { level: 1 }).textContent()).resolves.toBe(
      'typed-129 · eth0',
    );
    const id = new URL(page.url()).pathname.split('/').pop();
    const stored = await ctx.as('admin', { method: 'GET', url: `/interfaces/${id}` });
    const owner = await ctx.as('admin', {
      method: 'GET',
      url: `/devices/${stored.json().device_id}`,
    });
    expect(owner.json().hostname).toBe('typed-129');
    expect(problems).toEqual([]);
  });
});
