import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { topologySvg } from '../../src/ui/svg.js';
import { create, startTestApp, TEST_PASSWORD, type TestContext } from '../helpers.js';
import { type Browser, signIn, visit } from './inject.js';

/**
 * Several links between the same two devices (a LAG's members, a redundant pair) are each drawn
 * apart from the others, each a link of its own: one line over another would show one.
 */

const nodes = [
  { id: 'a', label: 'sw-a', href: '/ui/devices/a' },
  { id: 'b', label: 'sw-b', href: '/ui/devices/b' },
  { id: 'c', label: 'sw-c', href: '/ui/devices/c' },
];

/** Each edge's link: its address, accessible name and the geometry drawn. */
function edgesOf(svg: string) {
  return [
    ...svg.matchAll(/<a class="edge" href="([^"]*)" aria-label="([^"]*)">([\s\S]*?)<\/a>/g),
  ].map(([, href, name, body]) => ({
    href,
    name,
    geometry: /<(?:line|path) class="edge-line"([^>]*)>/.exec(body ?? '')?.[1] ?? '',
  }));
}

describe('links between the same two devices', () => {
  it('are drawn apart, each its own link with its own name', () => {
    const svg = topologySvg(nodes, [
      { from: 'a', to: 'b', fromPort: 'xe-0', toPort: 'xe-0', status: 'up', href: '/ui/links/1' },
      { from: 'a', to: 'b', fromPort: 'xe-1', toPort: 'xe-1', status: 'down', href: '/ui/links/2' },
      // The same pair written the other way round is one more of them.
      { from: 'b', to: 'a', fromPort: 'xe-2', toPort: 'xe-2', status: 'up', href: '/ui/links/3' },
      { from: 'a', to: 'c', fromPort: 'ge-0', toPort: 'ge-0', status: 'up', href: '/ui/links/4' },
    ]).text;
    const edges = edgesOf(svg);
    expect(edges.map((edge) => edge.href)).toEqual([
      '/ui/links/1',
      '/ui/links/2',
      '/ui/links/3',
      '/ui/links/4',
    ]);
    const between = edges.slice(0, 3);
    expect(new Set(between.map((edge) => edge.geometry)).size).toBe(3);
    expect(between.map((edge) => edge.name)).toEqual([
      'Link sw-a xe-0 — sw-b xe-0 (up), 1 of 3 between sw-a and sw-b',
      'Link sw-a xe-1 — sw-b xe-1 (down), 2 of 3 between sw-a and sw-b',
      'Link sw-b xe-2 — sw-a xe-2 (up), 3 of 3 between sw-a and sw-b',
    ]);
    // A link alone between its devices is a straight line, named without a count.
    expect(edges[3]?.geometry).toMatch(/\sx1="/);
    expect(edges[3]?.geometry).not.toMatch(/\sd="/);
    expect(edges[3]?.name).toBe('Link sw-a ge-0 — sw-c ge-0 (up)');
  });

  it('escape what they name', () => {
    const svg = topologySvg(
      [
        { id: 'a', label: '<b>a</b>', href: '/ui/devices/a' },
        { id: 'b', label: '"b"', href: '/ui/devices/b' },
      ],
      [
        {
          from: 'a',
          to: 'b',
          fromPort: '<i>x</i>',
          toPort: 'y',
          status: '<s>',
          href: '/ui/links/1',
        },
        { from: 'a', to: 'b', fromPort: 'z', toPort: 'w', status: 'up', href: '/ui/links/2' },
      ],
    ).text;
    expect(svg).not.toMatch(/<[bis]>/);
    expect(svg).toContain('&lt;i&gt;x&lt;/i&gt;');
  });
});

describe('a location’s topology with parallel links', () => {
  let ctx: TestContext;
  let admin: Browser;
  beforeAll(async () => {
    ctx = await startTestApp();
    admin = await signIn(ctx.app, 'admin', TEST_PASSWORD);
  });
  afterAll(() => ctx?.close());

  it('draws each link apart, linked to its page', async () => {
    const location = await create(ctx, 'locations', { name: 'lag-site' });
    const [a, b] = await Promise.all(
      ['lag-a', 'lag-b'].map((hostname, index) =>
        create(ctx, 'devices', { hostname, ip: `10.251.0.${index + 1}`, location_id: location.id }),
      ),
    );
    const links: string[] = [];
    for (const port of [0, 1, 2]) {
      const [x, y] = await Promise.all(
        [a, b].map((device) =>
          create(ctx, 'interfaces', { device_id: device?.id, name: `et-${port}` }),
        ),
      );
      links.push((await create(ctx, 'links', { a_interface_id: x?.id, b_interface_id: y?.id })).id);
    }
    const page = await visit(ctx.app, admin, `/ui/locations/${location.id}`);
    expect(page.statusCode).toBe(200);
    const edges = edgesOf(page.body);
    expect(edges.map((edge) => edge.href).sort()).toEqual(
      links.map((id) => `/ui/links/${id}`).sort(),
    );
    expect(new Set(edges.map((edge) => edge.geometry)).size).toBe(3);
    expect(edges.map((edge) => edge.name).sort()).toEqual([
      'Link lag-a et-0 — lag-b et-0 (up), 1 of 3 between lag-a and lag-b',
      'Link lag-a et-1 — lag-b et-1 (up), 2 of 3 between lag-a and lag-b',
      'Link lag-a et-2 — lag-b et-2 (up), 3 of 3 between lag-a and lag-b',
    ]);
  });
});
