import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, signIn, visit } from './inject.js';

/** A list sorted by more than one column: kept, shown, passed on to the export and the pages. */

let ctx: TestContext;
let admin: Browser;

beforeAll(async () => {
  ctx = await startTestApp();
  admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
  const devices = ['a', 'b', 'c', 'd', 'e', 'f'].map((letter, index) => ({
    hostname: `sort-${letter}`,
    ip: `10.240.0.${index + 1}`,
    vendor: index % 2 === 0 ? 'Cisco' : 'Juniper',
  }));
  const created = await ctx.as('admin', { method: 'POST', url: '/devices', payload: devices });
  expect(created.statusCode, created.body).toBe(201);
});
afterAll(() => ctx?.close());

const hrefs = (page: string, pattern: RegExp) =>
  [...page.matchAll(/href="([^"]+)"/g)]
    .map((match) => (match[1] ?? '').replaceAll('&amp;', '&'))
    .filter((href) => pattern.test(href));
/** The hostnames of a list page's rows, in order. */
const hostnames = (page: string) =>
  [...page.matchAll(/<td><a href="\/ui\/devices\/[^"]+">(sort-[a-f])<\/a><\/td>/g)].map(
    (match) => match[1],
  );
const sorts = (href: string) => new URL(href, 'http://x').searchParams.getAll('sortby');

describe('a list sorted by two columns', () => {
  it('keeps both, in order, for its rows, its export, its headers and its forms', async () => {
    const page = await visit(
      ctx.app,
      admin,
      '/ui/devices?hostname__isw=sort-&sortby=vendor:desc&sortby=hostname:desc',
    );
    expect(page.statusCode).toBe(200);
    expect(hostnames(page.body)).toEqual([
      'sort-f',
      'sort-d',
      'sort-b',
      'sort-e',
      'sort-c',
      'sort-a',
    ]);
    const [exported] = hrefs(page.body, /export\.csv/);
    expect(sorts(exported ?? '')).toEqual(['vendor:desc', 'hostname:desc']);
    const csv = await visit(ctx.app, admin, exported ?? '');
    expect(
      csv.body
        .trim()
        .split(/\r?\n/)
        .slice(1)
        .map((line) => line.split(',').find((cell) => cell.startsWith('sort-'))),
    ).toEqual(['sort-f', 'sort-d', 'sort-b', 'sort-e', 'sort-c', 'sort-a']);
    // The headers say which sort is first and which second.
    expect(page.body).toMatch(/<th scope="col" aria-sort="descending"><a [^>]*>Vendor ▼ 1<\/a>/);
    expect(page.body).toMatch(/<th scope="col"><a [^>]*>Hostname ▼ 2<\/a>/);
    // The filter form carries both.
    expect(page.body).toContain('<input type="hidden" name="sortby" value="vendor:desc">');
    expect(page.body).toContain('<input type="hidden" name="sortby" value="hostname:desc">');
  });

  it('adds a second sort from a header (“then by”), and a header click sorts by it alone', async () => {
    const page = await visit(ctx.app, admin, '/ui/devices?hostname__isw=sort-&sortby=vendor:asc');
    const [thenBy] = hrefs(page.body, /sortby=vendor%3Aasc&sortby=hostname%3Aasc/);
    expect(thenBy).toBeDefined();
    const both = await visit(ctx.app, admin, thenBy ?? '');
    expect(hostnames(both.body)).toEqual([
      'sort-a',
      'sort-c',
      'sort-e',
      'sort-b',
      'sort-d',
      'sort-f',
    ]);
    // The second sort's header turns its direction, keeping the first.
    const [reversed] = hrefs(both.body, /sortby=vendor%3Aasc&sortby=hostname%3Adesc/);
    const turned = await visit(ctx.app, admin, reversed ?? '');
    expect(hostnames(turned.body)).toEqual([
      'sort-e',
      'sort-c',
      'sort-a',
      'sort-f',
      'sort-d',
      'sort-b',
    ]);
  });

  it('drops a sort the list cannot apply, keeping the others', async () => {
    const page = await visit(
      ctx.app,
      admin,
      '/ui/devices?hostname__isw=sort-&sortby=nope:asc&sortby=vendor:asc&sortby=vendor:desc&sortby=hostname:desc',
    );
    expect(page.statusCode).toBe(200);
    expect(hostnames(page.body)).toEqual([
      'sort-e',
      'sort-c',
      'sort-a',
      'sort-f',
      'sort-d',
      'sort-b',
    ]);
  });
});
