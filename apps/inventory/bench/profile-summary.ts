import { readFileSync } from 'node:fs';

/**
 * `npx tsx bench/profile-summary.ts <file.cpuprofile> [rows]`: where a `--cpu-prof` profile of the
 * server spent its time, by function (self time) and by package, as plain text. The profile
 * itself opens in Chrome DevTools or speedscope for the flame graph.
 */

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
}

interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsText = '30'] = process.argv.slice(2);
if (!file) {
  process.stderr.write('usage: npx tsx bench/profile-summary.ts <file.cpuprofile> [rows]\n');
  process.exit(1);
}
const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
let total = 0;

const shortUrl = (url: string) =>
  url.replace(/^file:\/\//, '').replace(/.*node_modules\//, '') || '(native)';
/** `fastify/lib/route.js` -> `fastify`; `@scope/name/...` -> `@scope/name`; app files by folder. */
const packageOf = (url: string) => {
  const short = shortUrl(url);
  if (short.includes('/apps/'))
    return short.replace(/.*\/apps\/[^/]+\/([^/]+\/[^/]+).*/, 'app: $1');
  const parts = short.split('/');
  return (short.startsWith('@') ? parts.slice(0, 2) : parts.slice(0, 1)).join('/');
};
const add = (map: Map<string, number>, key: string, time: number) =>
  map.set(key, (map.get(key) ?? 0) + time);

profile.samples.forEach((id, index) => {
  const node = nodes.get(id);
  const time = profile.timeDeltas[index] ?? 0;
  if (!node) return;
  total += time;
  const { functionName, url, lineNumber } = node.callFrame;
  add(byFunction, `${functionName || '(anonymous)'} ${shortUrl(url)}:${lineNumber + 1}`, time);
  add(byPackage, url ? packageOf(url) : functionName, time);
});

const rows = Number(rowsText);
const print = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`);
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, rows)) {
    process.stdout.write(`${((time / total) * 100).toFixed(1).padStart(5)} %  ${key}\n`);
  }
};
process.stdout.write(`${(total / 1e6).toFixed(1)} s sampled\n`);
print('self time by function', byFunction);
print('self time by package', byPackage);
