import { random as seeded } from './dataset.js';
import type { MixedFacts, Weighted } from './mixed.js';

/**
 * The varied-lists scenario: what a fleet of users paging through filtered lists sends, where no
 * two requests of the same second ask for the same page. At least 10,000 distinct list URLs:
 * filters on vendor, status or role (none, one or two of them, every value the data holds),
 * sorted by hostname, by created_at or not at all, pages 1–50 (never past the filter's last
 * page), limits 10–100. The URLs are drawn once from a fixed seed, shuffled, and sent in turn,
 * so a URL comes back only after all the others (minutes apart at a few thousand requests/s).
 */

export const VARIED_LIST_URLS = 10_200;

const FILTERS: readonly (readonly ('vendor' | 'status' | 'role')[])[] = [
  [],
  ['vendor'],
  ['status'],
  ['role'],
  ['vendor', 'status'],
  ['vendor', 'role'],
  ['status', 'role'],
];
const SORTS = [
  '',
  'sortby=hostname:asc',
  'sortby=hostname:desc',
  'sortby=created_at:asc',
  'sortby=created_at:desc',
];
const LIMITS = [10, 20, 25, 50, 100];
const MAX_PAGE = 50;

export function variedListUrls(facts: MixedFacts, count = VARIED_LIST_URLS): string[] {
  // The same URLs in the same order on every run.
  const random = seeded(25);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const values: Record<'vendor' | 'status' | 'role', readonly Weighted[]> = {
    vendor: facts.vendors,
    status: facts.statuses,
    role: facts.roles,
  };
  const total = facts.deviceIds.length;
  const urls = new Set<string>();
  for (let attempt = 0; urls.size < count && attempt < count * 50; attempt += 1) {
    const parts: string[] = [];
    // The filter's matches bound its last page: the rarer of its values holds at most that many.
    let matches = total;
    for (const column of pick(FILTERS)) {
      const value = pick(values[column]);
      parts.push(`${column}=${encodeURIComponent(value.value)}`);
      matches = Math.min(matches, value.count);
    }
    const sort = pick(SORTS);
    if (sort) parts.push(sort);
    const limit = pick(LIMITS);
    const lastPage = Math.max(1, Math.min(MAX_PAGE, Math.ceil(matches / limit)));
    const page = 1 + Math.floor(random() * lastPage);
    parts.push(`page=${page}`, `limit=${limit}`);
    urls.add(`/devices?${parts.join('&')}`);
  }
  if (urls.size < count) {
    throw new Error(`the data set offers only ${urls.size} distinct list URLs (${count} asked)`);
  }
  // Fisher–Yates with the same generator: consecutive requests differ in filter, sort and page.
  const shuffled = [...urls];
  for (let i = shuffled.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [shuffled[i], shuffled[j]] = [shuffled[j] as string, shuffled[i] as string];
  }
  return shuffled;
}
