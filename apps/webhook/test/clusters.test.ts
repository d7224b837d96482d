// One measure of a grapheme cluster (string-width's of the whole, and the sum of its code
// points'), shared by the layout (which reserves the larger) and printableInUi (which keeps a
// cluster only when both agree).
import { describe, expect, it } from 'vitest';
import { clusterMeasures } from '../src/format/clusters.js';
import { printableInUi } from '../src/format/printable.js';
import { columnsOf } from '../src/ui/text-width.js';

describe('clusterMeasures', () => {
  it.each([
    ['a', 1, 1],
    ['日', 2, 2],
    ['e\u0301', 1, 1],
    ['क्ष', 1, 2],
    ['❤️', 2, 1],
    ['👍🏽', 2, 4],
    ['\u0301', 0, 0],
  ])('measures %j as %i whole, %i summed; layout and display follow it', (cluster, whole, sum) => {
    expect(clusterMeasures(cluster)).toEqual({ whole, sum });
    expect(columnsOf(cluster)).toBe(Math.max(whole, sum));
    expect(printableInUi(cluster) === cluster).toBe(whole === sum && whole > 0);
  });
});
