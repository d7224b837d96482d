import { cpus, totalmem } from 'node:os';
import type { LoadResult } from './load.js';
import type { ScenarioKind } from './scenarios.js';

/** The machine a run measured on (figures compare only within one run, on one machine). */
export const machineText = () =>
  `${cpus().length} x ${cpus()[0]?.model ?? 'unknown CPU'}, ` +
  `${Math.round(totalmem() / 1024 ** 3)} GB, Node ${process.version}`;

/** One line of the table: the API and the ceiling, measured back to back. */
export interface ScenarioResult {
  name: string;
  /** `mixed-writes`: the writes of the mixed scenario, reported beside its reads. */
  kind: ScenarioKind | 'mixed-writes';
  /** Why the scenario was not measured (a route that does not exist yet), if it was not. */
  skipped?: string;
  /** Bytes of the API's answer, which the ceiling answers too. */
  responseBytes?: number;
  api?: LoadResult;
  ceiling?: LoadResult;
  /** CPU time per answered request: the server process, and PostgreSQL's backends serving it. */
  serverCpuMs?: number;
  databaseCpuMs?: number;
  /** The same for the load generator (the benchmark's own process) while it drove the server. */
  loadGeneratorCpuMs?: number;
  /** The same for the ceiling's process: what node:http alone costs per request here. */
  ceilingCpuMs?: number;
  /**
   * Varied lists: their first pass through the URLs, measured as their warm-up (each connection
   * prepares each list's statement then), with the CPU per request it took.
   */
  firstPass?: LoadResult & { serverCpuMs?: number; databaseCpuMs?: number };
  /** The list cache during the measured seconds (GET /debug/list-cache, before and after). */
  listCache?: ListCacheDelta;
  /** Varied lists: sampled answers whose total_count equals COUNT(*) of their filter. */
  totalsChecked?: { checked: number; exact: number };
  /** Writes (PostgreSQL): the same requests with the table's triggers off, measured just after. */
  withoutTriggers?: LoadResult;
  /** Writes (PostgreSQL): WAL written per answered request in the measured seconds (wal.ts). */
  walBytesPerRequest?: number;
  /** The CSV export: its size and time, and the server's RSS idle before it and at its peak. */
  export?: ExportMeasure;
  /** `one-user`: the API request measured in turn with the page, by the same single user. */
  baseline?: { name: string; result: LoadResult };
  /** `mixed-writes`: the latencies of each kind of write (PATCH, POST, batch PATCH). */
  writesByKind?: Record<string, LoadResult>;
}

export interface ListCacheDelta {
  pagesReused: number;
  pagesRead: number;
  pagesKnownStale: number;
  totalsMaintained: number;
  totalsReused: number;
  totalsCounted: number;
  countsAwaited: number;
  walksFromPosition: number;
  walksFromStart: number;
  positionsStale: number;
  deepPagesUnrecorded: number;
}

export interface ExportMeasure {
  exports: number;
  rows: number;
  megabytes: number;
  secondsEach: number;
  rowsPerSecond: number;
  idleRssMb: number | null;
  peakRssMb: number | null;
  /** The baseline: the same COPY statement run alone, read by a client that only counts lines. */
  copyAlone?: { copies: number; rows: number; secondsEach: number; rowsPerSecond: number };
}

/** Hit rates of the list cache: answers from a rendered page; totals not counted. */
export function hitRates(delta: ListCacheDelta) {
  const pages = delta.pagesReused + delta.pagesRead;
  const totals = delta.totalsMaintained + delta.totalsReused + delta.totalsCounted;
  const percent = (part: number, whole: number) =>
    whole === 0 ? '-' : `${((100 * part) / whole).toFixed(1)} %`;
  return {
    pages: percent(delta.pagesReused, pages),
    totalsNotCounted: percent(delta.totalsMaintained + delta.totalsReused, totals),
    text:
      `rendered pages reused ${percent(delta.pagesReused, pages)} of ${pages} list answers, ` +
      `${delta.pagesKnownStale} read without asking the version (known stale); ` +
      `totals maintained ${delta.totalsMaintained}, reused ${delta.totalsReused}, counted ` +
      `${delta.totalsCounted} (${percent(delta.totalsMaintained + delta.totalsReused, totals)} ` +
      `not counted); ${delta.countsAwaited} waited for a concurrent count; pages a block deep ` +
      `walked from a recorded position ${delta.walksFromPosition}, from the start ` +
      `${delta.walksFromStart}, read with OFFSET recording nothing ${delta.deepPagesUnrecorded}, ` +
      `stale positions ${delta.positionsStale}`,
  };
}

export interface TargetCheck {
  target: string;
  met: boolean | null;
  detail: string;
}

/**
 * The targets (PostgreSQL store, 100,000 devices, 32 connections). Lists in general keep their
 * original bar; the varied lists, `mixed`, the writes with history and counters, the cache-off first
 * page and the export are held to the later, stricter ones.
 */
export const TARGETS = {
  listRps: 3000,
  listP99Ms: 25,
  /** At least 10,000 distinct list URLs, no repeats within a second, exact totals. */
  variedRps: 2000,
  variedP99Ms: 40,
  /** The mixed scenario's reads, and its writes' latency. */
  mixedReadRps: 1500,
  mixedReadP99Ms: 50,
  mixedWriteP99Ms: 100,
  /** A full CSV export stays within this much of the idle server's RSS, at this pace at least. */
  exportRssGrowthMb: 50,
  exportRowsPerSecond: 100_000,
  readRps: 5000,
  /** Single-record writes with history, counters and the outbox on. */
  writeRps: 2500,
  batchP99Ms: 100,
  /** `GET /devices?limit=100` with LIST_CACHE=off (--no-list-cache). */
  cacheOffFirstPageRps: 3000,
  deepPageCostFactor: 2,
  keysetPageCostFactor: 1.2,
  rssMb: 300,
  embeddedStartupMs: 3000,
  /** The web interface's list page of 100 devices, one user: its median. */
  oneUserPageP50Ms: 50,
} as const;

/** "baseline GET /devices?limit=100, same user: p50 4.1 ms, p99 9 ms; the page takes 3.2x". */
export function oneUserBaselineText(result: ScenarioResult): string {
  const baseline = result.baseline;
  if (!baseline || !result.api) return '';
  const ratio = result.api.p50Ms / Math.max(0.01, baseline.result.p50Ms);
  return (
    `baseline ${baseline.name}, same user in turn: p50 ${baseline.result.p50Ms} ms, ` +
    `p99 ${baseline.result.p99Ms} ms; the page's median is ${ratio.toFixed(1)}x the baseline's`
  );
}

/** "1,234 req/s = 0.12x the ceiling (10,000)": a figure beside its same-run baseline. */
function besideBaseline(api: LoadResult, baseline: LoadResult | undefined, what: string): string {
  if (!baseline || baseline.requestsPerSecond === 0) return '';
  const ratio = api.requestsPerSecond / baseline.requestsPerSecond;
  return `; ${ratio.toFixed(2)}x ${what} (${baseline.requestsPerSecond} req/s, p99 ${baseline.p99Ms} ms)`;
}

export function checkTargets(
  results: readonly ScenarioResult[],
  store: 'pg' | 'embedded',
  peakRssMb: number | null,
  startupMs: number,
  listCache = true,
): TargetCheck[] {
  const checks: TargetCheck[] = [];
  const measured = results.filter((result) => result.api !== undefined);
  for (const result of results) {
    const api = result.api;
    if (!api) {
      checks.push({ target: result.name, met: null, detail: `not measured: ${result.skipped}` });
      continue;
    }
    // A run in which no request completed (each took longer than the run) meets nothing.
    const clean = api.requests > 0 && api.errors === 0 && api.non2xx === 0;
    const answers =
      api.requests === 0
        ? '; no request completed within the run'
        : clean
          ? ''
          : `; ${api.errors} errors, ${api.non2xx} non-2xx`;
    switch (result.kind) {
      case 'list': {
        const ceiling = besideBaseline(api, result.ceiling, 'the ceiling');
        if (!listCache && result.name === 'GET /devices?limit=100') {
          checks.push({
            target: `${result.name} with the list cache off: >= ${TARGETS.cacheOffFirstPageRps} req/s`,
            met: clean && api.requestsPerSecond >= TARGETS.cacheOffFirstPageRps,
            detail: `${api.requestsPerSecond} req/s, p99 ${api.p99Ms} ms${ceiling}${answers}`,
          });
          break;
        }
        checks.push({
          target: `${result.name}: >= ${TARGETS.listRps} req/s, p99 < ${TARGETS.listP99Ms} ms`,
          met: clean && api.requestsPerSecond >= TARGETS.listRps && api.p99Ms < TARGETS.listP99Ms,
          detail: `${api.requestsPerSecond} req/s, p99 ${api.p99Ms} ms${ceiling}${answers}`,
        });
        break;
      }
      case 'varied':
        checks.push({
          target: `${result.name}: >= ${TARGETS.variedRps} req/s, p99 < ${TARGETS.variedP99Ms} ms`,
          met:
            clean &&
            api.requestsPerSecond >= TARGETS.variedRps &&
            api.p99Ms < TARGETS.variedP99Ms &&
            (result.totalsChecked === undefined ||
              result.totalsChecked.exact === result.totalsChecked.checked),
          detail:
            `${api.requestsPerSecond} req/s, p99 ${api.p99Ms} ms` +
            `${besideBaseline(api, result.ceiling, 'the ceiling')}${answers}` +
            (result.totalsChecked
              ? `; totals exact ${result.totalsChecked.exact}/${result.totalsChecked.checked}`
              : '') +
            (result.firstPass
              ? `; its first pass through the URLs, as warm-up: ` +
                `${result.firstPass.requestsPerSecond} req/s, p99 ${result.firstPass.p99Ms} ms`
              : ''),
        });
        break;
      case 'read':
        checks.push({
          target: `${result.name}: >= ${TARGETS.readRps} req/s`,
          met: clean && api.requestsPerSecond >= TARGETS.readRps,
          detail: `${api.requestsPerSecond} req/s${answers}`,
        });
        break;
      case 'write':
        checks.push({
          target: `${result.name}: >= ${TARGETS.writeRps} req/s`,
          met: clean && api.requestsPerSecond >= TARGETS.writeRps,
          detail:
            `${api.requestsPerSecond} req/s, p99 ${api.p99Ms} ms` +
            `${besideBaseline(api, result.withoutTriggers, 'the same statements without triggers')}` +
            `${besideBaseline(api, result.ceiling, 'the ceiling')}${answers}`,
        });
        break;
      case 'mixed':
        checks.push({
          target: `${result.name}: >= ${TARGETS.mixedReadRps} req/s, p99 < ${TARGETS.mixedReadP99Ms} ms`,
          met:
            clean &&
            api.requestsPerSecond >= TARGETS.mixedReadRps &&
            api.p99Ms < TARGETS.mixedReadP99Ms,
          detail:
            `${api.requestsPerSecond} req/s, p99 ${api.p99Ms} ms` +
            `${besideBaseline(api, result.ceiling, 'the ceiling')}${answers}`,
        });
        break;
      case 'mixed-writes':
        checks.push({
          target: `${result.name}: p99 < ${TARGETS.mixedWriteP99Ms} ms`,
          met: clean && api.p99Ms < TARGETS.mixedWriteP99Ms,
          detail:
            `${api.requestsPerSecond} req/s, p99 ${api.p99Ms} ms${answers}` +
            Object.entries(result.writesByKind ?? {})
              .map(([kind, load]) => `; ${kind} p99 ${load.p99Ms} ms (${load.requests})`)
              .join(''),
        });
        break;
      case 'export': {
        const measure = result.export;
        const growth =
          measure?.idleRssMb != null && measure.peakRssMb != null
            ? measure.peakRssMb - measure.idleRssMb
            : null;
        checks.push({
          target: `${result.name}: RSS within ${TARGETS.exportRssGrowthMb} MB of idle`,
          met: growth === null ? null : clean && growth <= TARGETS.exportRssGrowthMb,
          detail:
            growth === null
              ? 'not measurable here (no /proc)'
              : `idle ${measure?.idleRssMb} MB, peak ${measure?.peakRssMb} MB (+${growth} MB); ` +
                `${measure?.rows} rows, ${measure?.megabytes} MB in ${measure?.secondsEach} s`,
        });
        checks.push({
          target: `${result.name}: >= ${TARGETS.exportRowsPerSecond.toLocaleString('en')} rows/s`,
          met: measure ? clean && measure.rowsPerSecond >= TARGETS.exportRowsPerSecond : null,
          detail:
            `${measure?.rowsPerSecond ?? '?'} rows/s` +
            (measure?.copyAlone
              ? `; ${(measure.rowsPerSecond / measure.copyAlone.rowsPerSecond).toFixed(2)}x ` +
                `PostgreSQL's COPY of the same rows alone (${measure.copyAlone.rowsPerSecond} rows/s, ` +
                `${measure.copyAlone.secondsEach} s each)`
              : ''),
        });
        break;
      }
      case 'one-user':
        checks.push({
          target: `${result.name}, one user: median < ${TARGETS.oneUserPageP50Ms} ms`,
          met: clean && api.p50Ms < TARGETS.oneUserPageP50Ms,
          detail:
            `p50 ${api.p50Ms} ms, p99 ${api.p99Ms} ms over ${api.requests} pages; ` +
            `${oneUserBaselineText(result)}${answers}`,
        });
        break;
      case 'batch':
        checks.push({
          target: `${result.name}: p99 < ${TARGETS.batchP99Ms} ms`,
          met: clean && api.p99Ms < TARGETS.batchP99Ms,
          detail:
            `p99 ${api.p99Ms} ms, ${api.requestsPerSecond} req/s` +
            `${besideBaseline(api, result.withoutTriggers, 'the same statements without triggers')}` +
            `${answers}`,
        });
        break;
    }
  }
  const first = measured.find((result) => result.name.startsWith('GET /devices?limit'))?.api;
  const deepPages = measured.filter((result) => result.name.startsWith('deep page'));
  for (const { name, api: deep } of deepPages) {
    if (!first || !deep || first.requests === 0) continue;
    // Cost per request at the same concurrency is the inverse of throughput.
    const factor = first.requestsPerSecond / Math.max(1, deep.requestsPerSecond);
    // A keyset page must cost about what the first page does; an offset one 2x.
    const allowed = name.includes('keyset')
      ? TARGETS.keysetPageCostFactor
      : TARGETS.deepPageCostFactor;
    checks.push({
      target: `${name} costs <= ${allowed}x the first page`,
      met: deep.requests > 0 && factor <= allowed,
      detail: `${factor.toFixed(2)}x (p50 ${deep.p50Ms} ms vs ${first.p50Ms} ms)`,
    });
  }
  checks.push({
    target: `server RSS < ${TARGETS.rssMb} MB through the run`,
    met: peakRssMb === null ? null : peakRssMb < TARGETS.rssMb,
    detail: peakRssMb === null ? 'not measurable here (no /proc)' : `peak ${peakRssMb} MB`,
  });
  if (store === 'embedded') {
    checks.push({
      target: `embedded start-up < ${TARGETS.embeddedStartupMs} ms`,
      met: startupMs < TARGETS.embeddedStartupMs,
      detail: `${Math.round(startupMs)} ms from spawn to listening`,
    });
  }
  return checks;
}

const cell = (value: string | number, width: number, right = true) =>
  right ? String(value).padStart(width) : String(value).padEnd(width);

const msCell = (ms: number | undefined) => (ms === undefined ? '-' : ms.toFixed(2));

/** The targets' table, as plain text (also pasted into the README). */
export function formatTable(results: readonly ScenarioResult[]): string {
  const header = [
    cell('scenario', 34, false),
    cell('req/s', 7),
    cell('p50 ms', 7),
    cell('p99 ms', 7),
    cell('errors', 7),
    cell('non-2xx', 8),
    cell('bytes', 7),
    cell('ceiling', 8),
    cell('ratio', 6),
    cell('srv cpu', 8),
    cell('db cpu', 7),
    cell('ceil cpu', 8),
    cell('gen cpu', 7),
  ].join(' ');
  const lines = results.map((result) => {
    if (!result.api) return `${cell(result.name, 34, false)} not measured: ${result.skipped}`;
    const { api, ceiling } = result;
    const ratio = ceiling ? (api.requestsPerSecond / ceiling.requestsPerSecond).toFixed(2) : '-';
    return [
      cell(result.name, 34, false),
      cell(api.requestsPerSecond, 7),
      cell(api.p50Ms, 7),
      cell(api.p99Ms, 7),
      cell(api.errors, 7),
      cell(api.non2xx, 8),
      cell(result.responseBytes ?? '-', 7),
      cell(ceiling?.requestsPerSecond ?? '-', 8),
      cell(ratio, 6),
      cell(msCell(result.serverCpuMs), 8),
      cell(msCell(result.databaseCpuMs), 7),
      cell(msCell(result.ceilingCpuMs), 8),
      cell(msCell(result.loadGeneratorCpuMs), 7),
    ].join(' ');
  });
  return [header, '-'.repeat(header.length), ...lines].join('\n');
}

export function formatTargets(checks: readonly TargetCheck[]): string {
  const mark = (met: boolean | null) => (met === null ? 'n/a ' : met ? 'met ' : 'MISS');
  return checks.map((check) => `${mark(check.met)} ${check.target} (${check.detail})`).join('\n');
}
