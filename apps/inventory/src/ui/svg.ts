import { cutInMiddle } from './characters.js';
import { type Html, html } from './html.js';

export interface TopologyNode {
  id: string;
  label: string;
  href: string;
  /** The device the picture is about (drawn emphasised). */
  focus?: boolean;
}
export interface TopologyEdge {
  from: string;
  to: string;
  /** The interfaces at each end (`xe-0/0/0`), named with their devices in the edge's name. */
  fromPort: string;
  toPort: string;
  status: string;
  /** The link's own page: the edge is a link to it, reached by keyboard like the devices. */
  href?: string;
}

/**
 * How far apart the middles of two links between the same devices are drawn: each a curve of
 * its own (the middle one straight when their number is odd), wider apart than the band a
 * pointer finds each by (EDGE_HIT_WIDTH), so each is seen, pointed at and clicked by itself.
 */
const PARALLEL_GAP = 16;
const EDGE_HIT_WIDTH = 10;

/** The geometry of one edge: a straight line, or a curve (an SVG path) bent to one side. */
type EdgeShape =
  | { kind: 'line'; x1: number; y1: number; x2: number; y2: number }
  | { kind: 'path'; d: string };

const round = (value: number) => Math.round(value * 10) / 10;

/**
 * The shape of the `index`th of `count` edges between a and b: bent by its offset from the
 * middle, to the same side whichever end the link names first (`towards` is the pair's own
 * order), so no two coincide. A link between two interfaces of one device is a loop above it.
 */
function edgeShape(
  a: { x: number; y: number },
  b: { x: number; y: number },
  towards: 1 | -1,
  index: number,
  count: number,
): EdgeShape {
  if (a.x === b.x && a.y === b.y) {
    const size = 28 + index * PARALLEL_GAP;
    return {
      kind: 'path',
      d: `M${a.x - 6} ${a.y - 10} C${a.x - size} ${a.y - 2 * size},${a.x + size} ${a.y - 2 * size},${a.x + 6} ${a.y - 10}`,
    };
  }
  const offset = (index - (count - 1) / 2) * PARALLEL_GAP;
  if (offset === 0) return { kind: 'line', x1: a.x, y1: a.y, x2: b.x, y2: b.y };
  const length = Math.hypot(b.x - a.x, b.y - a.y);
  // The unit normal of the pair's own direction; a quadratic curve's middle lies halfway to
  // its control point, which is therefore twice the offset away.
  const nx = (-(b.y - a.y) / length) * towards;
  const ny = ((b.x - a.x) / length) * towards;
  const cx = (a.x + b.x) / 2 + 2 * offset * nx;
  const cy = (a.y + b.y) / 2 + 2 * offset * ny;
  return { kind: 'path', d: `M${a.x} ${a.y} Q${round(cx)} ${round(cy)} ${b.x} ${b.y}` };
}

/** A shape as SVG: the drawn line, or the wide invisible band that takes the pointer. */
function drawnShape(shape: EdgeShape, attributes: Html): Html {
  return shape.kind === 'line'
    ? html`<line ${attributes} x1="${shape.x1}" y1="${shape.y1}" x2="${shape.x2}" y2="${shape.y2}"></line>`
    : html`<path ${attributes} d="${shape.d}" fill="none"></path>`;
}

/** Characters of a device's name drawn under its node; the whole name is its <title>. */
const LABEL_CHARS = 14;
const LABEL_FONT = 11;
/**
 * The box a node takes: its label's width (LABEL_CHARS at about 0.7 em each, room for wide
 * letters) and, from the circle's top (16 above its centre) to the label's foot (its baseline
 * 30 below the centre, and descenders), its height. Two nodes whose centres
 * are at least the box's diagonal apart cannot overlap, circles or labels.
 */
const NODE_WIDTH = Math.ceil(LABEL_CHARS * LABEL_FONT * 0.7);
const NODE_HEIGHT = 16 + 30 + 4;
const SPACING = Math.ceil(Math.hypot(NODE_WIDTH, NODE_HEIGHT));
/** Room around the outer ring: half a label to each side, a label below. */
const MARGIN = Math.ceil(NODE_WIDTH / 2) + 8;

/** A name under its node: both ends kept (core-ro…ris-01), the whole name in its <title>. */
const shortLabel = (label: string) => cutInMiddle(label, LABEL_CHARS);

/**
 * Where nodes go, around (0, 0): the focused node (a device's own page) in the centre, the
 * others on rings of radius SPACING, 2 x SPACING, ..., each ring holding as many as fit at
 * SPACING from their neighbours, the last ring's spread evenly. Every two nodes are then at
 * least SPACING apart, however many there are (a location's topology draws up to 100).
 */
function ringPositions(count: number, focusInCentre: boolean): Array<{ x: number; y: number }> {
  const positions: Array<{ x: number; y: number }> = [];
  if (focusInCentre) positions.push({ x: 0, y: 0 });
  let left = count - positions.length;
  // One node alone is drawn in the centre.
  if (left === 1 && positions.length === 0) return [{ x: 0, y: 0 }];
  for (let ring = 1; left > 0; ring++) {
    const radius = ring * SPACING;
    const fits = Math.floor(Math.PI / Math.asin(Math.min(1, SPACING / (2 * radius))));
    const here = Math.min(fits, left);
    for (let index = 0; index < here; index++) {
      // Each ring starts at the top, turned by half a step from the one inside it.
      const angle = (2 * Math.PI * (index + (ring % 2) / 2)) / here - Math.PI / 2;
      positions.push({ x: radius * Math.cos(angle), y: radius * Math.sin(angle) });
    }
    left -= here;
  }
  return positions;
}

/**
 * Devices on rings, links as lines between them coloured by status (up green, anything else
 * red and dashed); drawn with presentation attributes only, so the page's style policy needs no
 * inline styles. The picture grows with the number of devices (no two nodes overlap); names are
 * shortened under the node and whole in its <title> (shown on hover, read by screen readers).
 * Every label is escaped text.
 */
export function topologySvg(nodes: readonly TopologyNode[], edges: readonly TopologyEdge[]): Html {
  const focusFirst = [...nodes].sort((a, b) => Number(b.focus ?? false) - Number(a.focus ?? false));
  const around = ringPositions(focusFirst.length, focusFirst[0]?.focus === true);
  const reach = Math.max(0, ...around.map((at) => Math.hypot(at.x, at.y)));
  const width = Math.ceil(2 * (reach + MARGIN));
  const height = Math.ceil(2 * reach + 2 * MARGIN);
  const centre = width / 2;
  const positions = new Map<string, { x: number; y: number }>();
  focusFirst.forEach((node, index) => {
    const at = around[index] ?? { x: 0, y: 0 };
    positions.set(node.id, { x: Math.round(centre + at.x), y: Math.round(height / 2 + at.y) });
  });
  const labels = new Map(nodes.map((node) => [node.id, node.label]));
  // Links between the same two devices (either end first), in the order given.
  const pairKey = (edge: TopologyEdge) => [edge.from, edge.to].sort().join('\u0000');
  const pairs = new Map<string, TopologyEdge[]>();
  for (const edge of edges) pairs.set(pairKey(edge), [...(pairs.get(pairKey(edge)) ?? []), edge]);
  const lines = edges.map((edge) => {
    const a = positions.get(edge.from);
    const b = positions.get(edge.to);
    if (!a || !b) return html``;
    const pair = pairs.get(pairKey(edge)) ?? [edge];
    const first = pair[0] ?? edge;
    const index = pair.indexOf(edge);
    const shape = edgeShape(a, b, edge.from === first.from ? 1 : -1, index, pair.length);
    const up = edge.status === 'up';
    const end = (device: string, port: string) => `${labels.get(device) ?? ''} ${port}`;
    const name = `Link ${end(edge.from, edge.fromPort)} — ${end(edge.to, edge.toPort)} (${edge.status})${
      pair.length > 1
        ? `, ${index + 1} of ${pair.length} between ${labels.get(first.from) ?? ''} and ${labels.get(first.to) ?? ''}`
        : ''
    }`;
    const drawn = html`${drawnShape(
      shape,
      html`class="edge-line" stroke="${up ? '#1a7f37' : '#c62828'}" stroke-width="3"${
        up ? '' : html` stroke-dasharray="6 4"`
      }`,
    )}${drawnShape(shape, html`class="edge-hit" stroke="transparent" stroke-width="${EDGE_HIT_WIDTH}"`)}<title>${name}</title>`;
    return edge.href
      ? html`<a class="edge" href="${edge.href}" aria-label="${name}">${drawn}</a>`
      : html`<g class="edge">${drawn}</g>`;
  });
  const circles = nodes.map((node) => {
    const at = positions.get(node.id) ?? { x: centre, y: height / 2 };
    return html`<a href="${node.href}"><g class="node"><title>${node.label}</title><circle cx="${at.x}" cy="${at.y}" r="${node.focus ? 16 : 12}" fill="${
      node.focus ? '#0b57d0' : '#ffffff'
    }" stroke="#0b57d0" stroke-width="2"></circle><text x="${at.x}" y="${at.y + 30}" text-anchor="middle" font-size="${LABEL_FONT}" fill="#1f1f1f">${shortLabel(node.label)}</text></g></a>`;
  });
  // Drawn at its own size up to the page's width (the style sheet scales a larger one down).
  return html`<svg class="topology" role="group" aria-labelledby="topology-title" viewBox="0 0 ${width} ${height}" width="${width}" height="${height}" xmlns="http://www.w3.org/2000/svg">
    <title id="topology-title">Topology: ${nodes.length} devices, ${edges.length} links</title>
    ${lines}${circles}</svg>`;
}

/**
 * A legend's sample of an edge: the same line as the picture draws, in SVG (a CSS background
 * would vanish in forced colours, where the picture's own lines keep their colours).
 */
export function legendSwatch(up: boolean): Html {
  return html`<svg class="swatch" aria-hidden="true" focusable="false" width="24" height="8" viewBox="0 0 24 8" xmlns="http://www.w3.org/2000/svg"><line x1="0" y1="4" x2="24" y2="4" stroke="${up ? '#1a7f37' : '#c62828'}" stroke-width="3"${up ? '' : html` stroke-dasharray="6 4"`}></line></svg>`;
}

export interface Series {
  name: string;
  unit: string;
  points: readonly { at: number; value: number }[];
}

const CHART_WIDTH = 600;
const CHART_HEIGHT = 176;
const PAD = 36;
/** Where the time axis is drawn; its first and last times are written under it. */
const AXIS_Y = CHART_HEIGHT - 34;

/** A measurement as written out: at most one decimal (16.40647706065106 -> 16.4). */
export const roundedValue = (value: number): string => String(Math.round(value * 10) / 10);

/** A time as the charts write it: `2026-12-06 19:04 UTC`. */
export const chartTime = (at: number): string =>
  `${new Date(at).toISOString().slice(0, 16).replace('T', ' ')} UTC`;

/**
 * A line chart of one series over time, with its range written out for screen readers. Its
 * axes and their labels are drawn in currentColor (the style sheet's grey; in forced colours,
 * the system's text colour), the value axis from a whole number at or under the lowest value
 * (0 at most) to one at or over the highest, the time axis from the first to the last
 * measurement drawn.
 */
export function lineChartSvg(series: Series): Html {
  const points = series.points;
  if (points.length === 0) return html`<p>No ${series.name.toLowerCase()} measurements.</p>`;
  const times = points.map((point) => point.at);
  const values = points.map((point) => point.value);
  const minT = Math.min(...times);
  const maxT = Math.max(...times);
  const minV = Math.floor(Math.min(0, ...values));
  const maxV = Math.max(Math.ceil(Math.max(...values)), minV + 1);
  const x = (t: number) =>
    PAD +
    (maxT === minT
      ? (CHART_WIDTH - 2 * PAD) / 2
      : ((t - minT) / (maxT - minT)) * (CHART_WIDTH - 2 * PAD));
  const y = (v: number) => AXIS_Y - ((v - minV) / (maxV - minV)) * (AXIS_Y - PAD / 2);
  const path = points
    .map(
      (point, index) =>
        `${index === 0 ? 'M' : 'L'}${x(point.at).toFixed(1)} ${y(point.value).toFixed(1)}`,
    )
    .join(' ');
  const last = roundedValue(values[values.length - 1] ?? 0);
  const summary = `${series.name}: ${points.length} measurements from ${chartTime(minT)} to ${chartTime(maxT)}, between ${roundedValue(Math.min(...values))} and ${roundedValue(Math.max(...values))} ${series.unit}, latest ${last} ${series.unit}`;
  return html`<figure class="chart"><figcaption>${series.name} (${series.unit}) — latest ${last}</figcaption>
    <svg role="img" aria-label="${summary}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" width="100%" xmlns="http://www.w3.org/2000/svg">
    <line x1="${PAD}" y1="${AXIS_Y}" x2="${CHART_WIDTH - PAD}" y2="${AXIS_Y}" stroke="currentColor"></line>
    <line x1="${PAD}" y1="${PAD / 2}" x2="${PAD}" y2="${AXIS_Y}" stroke="currentColor"></line>
    <text x="${PAD - 4}" y="${PAD / 2 + 4}" font-size="11" fill="currentColor" text-anchor="end">${String(maxV)}</text>
    <text x="${PAD - 4}" y="${AXIS_Y}" font-size="11" fill="currentColor" text-anchor="end">${String(minV)}</text>
    <text x="${PAD}" y="${AXIS_Y + 16}" font-size="11" fill="currentColor">${chartTime(minT)}</text>
    <text x="${CHART_WIDTH - PAD}" y="${AXIS_Y + 16}" font-size="11" fill="currentColor" text-anchor="end">${chartTime(maxT)}</text>
    <path d="${path}" fill="none" stroke="#0b57d0" stroke-width="2"></path>
    ${points.map((point) => html`<circle cx="${x(point.at).toFixed(1)}" cy="${y(point.value).toFixed(1)}" r="2.5" fill="#0b57d0"></circle>`)}
    </svg></figure>`;
}
