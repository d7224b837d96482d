/**
 * What the benchmark asks of the API, one scenario per line of the result table. Each
 * builds its n-th request, so rotating ids and unique hostnames come from a counter, and names
 * the target it is held to.
 */

import { type MixedFacts, mixedRequest } from './mixed.js';
import { VARIED_LIST_URLS, variedListUrls } from './varied-lists.js';

/**
 * `mixed`, `export` and `one-user` are driven by run.ts itself (reads and writes measured apart;
 * the export's memory sampled; one user's requests one after another, beside a baseline); the
 * others by autocannon.
 */
export type ScenarioKind =
  | 'list'
  | 'varied'
  | 'read'
  | 'write'
  | 'batch'
  | 'mixed'
  | 'export'
  | 'one-user';

export interface BenchRequest {
  method: 'GET' | 'POST' | 'PATCH';
  path: string;
  body?: string;
}

export interface Scenario {
  name: string;
  kind: ScenarioKind;
  /** Reads what its requests need from the running server first (a cursor it signed). */
  prepare?(get: (path: string) => Promise<unknown>, serverUrl: string): Promise<void>;
  request(n: number): BenchRequest;
  /** Headers of its own (a web interface session's cookie) instead of the API token's. */
  headers?(): Record<string, string>;
  /** `one-user`: the API request measured in turn with it, as the same run's baseline. */
  baseline?: { name: string; path: string };
  /** Distinct requests it sends before one comes back (the varied lists' URLs). */
  rotation?: number;
}

/**
 * The web interface's device list: 100 rows of the data set, signed in with a session cookie,
 * one user (a person waits for each page), beside the JSON API's same page in the same run.
 */
function webListPage(password: string): Scenario {
  let cookie = '';
  return {
    name: 'web UI list page (100 devices)',
    kind: 'one-user',
    baseline: { name: 'GET /devices?limit=100', path: '/devices?limit=100' },
    async prepare(_get, serverUrl) {
      const response = await fetch(`${serverUrl}/ui/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          username: 'admin',
          password,
          next: '/ui/',
        }).toString(),
      });
      const set = response.headers.get('set-cookie') ?? '';
      cookie = set.split(';')[0] ?? '';
      if (response.status !== 303 || !cookie) {
        throw new Error(`web UI sign-in answered ${response.status}`);
      }
    },
    request: () => ({ method: 'GET', path: '/ui/devices?limit=100' }),
    headers: () => ({ cookie }),
  };
}

/** What the scenarios need to know about the loaded data set. */
export interface DatasetFacts extends MixedFacts {
  /** Every device id, sorted, so consecutive windows never overlap. */
  deviceIds: readonly string[];
  /** The most common vendor and status (filters matching many rows) ... */
  commonVendor: string;
  commonStatus: string;
  /** ... and a rare combination (a filter matching few). */
  rareVendor: string;
  rareStatus: string;
}

const BATCH_SIZE = 100;

/** The tag filter: two of the data set's tags (dataset.ts), all of them required. */
export const BENCH_TAG_FILTER = ['prod', 'dc1'] as const;

const pad = (value: number, width: number) => String(value).padStart(width, '0');

/**
 * Keyset paging at depth: the cursor a page-900 answer carries (meta.next_cursor) points at row
 * 90,000, so the scenario asks for the page after it by cursor, every time.
 */
function deepKeysetPage(name: string, query: string): Scenario {
  let path = '';
  return {
    name,
    kind: 'list',
    async prepare(get) {
      const page = (await get(`/devices?page=900&limit=100${query}`)) as {
        meta: { next_cursor: string | null };
      };
      if (!page.meta.next_cursor) throw new Error(`${name}: the data set has no page 901`);
      path = `/devices?limit=100${query}&cursor=${encodeURIComponent(page.meta.next_cursor)}`;
    },
    request: () => ({ method: 'GET', path }),
  };
}

export function buildScenarios(
  facts: DatasetFacts,
  runTag: string,
  adminPassword: string,
): Scenario[] {
  const ids = facts.deviceIds;
  const idAt = (n: number) => ids[n % ids.length] as string;
  const get = (path: string): BenchRequest => ({ method: 'GET', path });
  const filtered = (vendor: string, status: string) =>
    `/devices?vendor=${encodeURIComponent(vendor)}&status=${encodeURIComponent(status)}` +
    '&sortby=model:asc&sortby=hostname:desc&limit=100';
  const varied = variedListUrls(facts);
  return [
    // First, while the server is idle: its RSS before the export is the baseline.
    {
      name: 'CSV export (every device)',
      kind: 'export',
      request: () => get('/devices?format=csv'),
    },
    { name: 'GET /devices?limit=100', kind: 'list', request: () => get('/devices?limit=100') },
    {
      // The issue's common filtered list (the one measured against the Go original).
      name: 'vendor=<common>&sortby=hostname:asc&limit=10',
      kind: 'list',
      request: () =>
        get(
          `/devices?vendor=${encodeURIComponent(facts.commonVendor)}&sortby=hostname:asc&limit=10`,
        ),
    },
    {
      name: 'filtered + 2-field sort (common)',
      kind: 'list',
      request: () => get(filtered(facts.commonVendor, facts.commonStatus)),
    },
    {
      name: 'filtered + 2-field sort (rare)',
      kind: 'list',
      request: () => get(filtered(facts.rareVendor, facts.rareStatus)),
    },
    {
      name: 'deep page (page=900&limit=100)',
      kind: 'list',
      request: () => get('/devices?page=900&limit=100'),
    },
    {
      // Sorted, so no earlier page's position helps: this one walks its offset every time.
      name: 'deep page sorted by hostname',
      kind: 'list',
      request: () => get('/devices?page=900&limit=100&sortby=hostname:asc'),
    },
    deepKeysetPage('deep keyset page (cursor at row 90,000)', ''),
    deepKeysetPage('deep keyset page sorted by hostname', '&sortby=hostname:asc'),
    webListPage(adminPassword),
    {
      name: 'tag filter (2 tags, all)',
      kind: 'list',
      request: () =>
        get(`/devices?${BENCH_TAG_FILTER.map((tag) => `tags=${tag}`).join('&')}&limit=100`),
    },
    {
      // A different 4-digit substring each time: the trigram index, and no reused page.
      name: 'hostname__ic (rotating)',
      kind: 'list',
      request: (n) => get(`/devices?hostname__ic=${pad((n * 7919) % 10_000, 4)}&limit=100`),
    },
    {
      name: 'search q= (rotating)',
      kind: 'list',
      request: (n) => get(`/devices?q=sn${pad((n * 7919) % 100_000, 5)}&limit=100`),
    },
    {
      name: `varied lists (${VARIED_LIST_URLS.toLocaleString('en')} URLs)`,
      kind: 'varied',
      rotation: varied.length,
      request: (n) => get(varied[n % varied.length] as string),
    },
    { name: 'GET /devices/{id}', kind: 'read', request: (n) => get(`/devices/${idAt(n * 7919)}`) },
    {
      name: 'GET /interfaces?device_id=',
      kind: 'list',
      request: (n) => get(`/interfaces?device_id=${idAt(n * 7919)}`),
    },
    {
      name: 'GET /metrics?sort=cpu:desc',
      kind: 'list',
      request: () => get('/metrics?sort=cpu:desc'),
    },
    {
      name: 'mixed',
      kind: 'mixed',
      request: (n) => mixedRequest(facts, runTag, n),
    },
    {
      name: 'PATCH /devices/{id}',
      kind: 'write',
      request: (n) => ({
        method: 'PATCH',
        path: `/devices/${idAt(n * 7919)}`,
        body: JSON.stringify({ rack_position: `R${n % 40}-U${n % 42}`, status: 'maintenance' }),
      }),
    },
    {
      name: 'batch PATCH (100 devices)',
      kind: 'batch',
      request: (n) => {
        // Consecutive windows of sorted ids: concurrent batches never lock the same rows, and
        // each takes its locks in one order, so they cannot deadlock.
        const windows = Math.max(1, Math.floor(ids.length / BATCH_SIZE));
        const start = (n % windows) * BATCH_SIZE;
        const items = ids
          .slice(start, start + BATCH_SIZE)
          .map((id) => ({ id, rack_position: `R${n % 40}-U${n % 42}` }));
        return { method: 'PATCH', path: '/devices', body: JSON.stringify(items) };
      },
    },
    {
      name: 'POST /devices',
      kind: 'write',
      request: (n) => ({
        method: 'POST',
        path: '/devices',
        body: JSON.stringify({
          hostname: `bench-${runTag}-${n}.net.example`,
          ip: `192.168.${(n >>> 8) & 255}.${n & 255}`,
          vendor: facts.commonVendor,
          model: 'bench',
          status: 'provisioning',
          role: 'access',
        }),
      }),
    },
  ];
}
