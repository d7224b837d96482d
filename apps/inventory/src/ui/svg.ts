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
  label: string;
  status: string;
}

const WIDTH = 640;
const HEIGHT = 420;

/**
 * Devices on a circle, links as lines between them coloured by status (up green, anything else
 * red and dashed); drawn with presentation attributes only, so the page's style policy needs no
 * inline styles. Every label is escaped text.
 */
export function topologySvg(nodes: readonly TopologyNode[], edges: readonly TopologyEdge[]): Html {
  const centreX = WIDTH / 2;
  const centreY = HEIGHT / 2;
  const radius = nodes.length <= 1 ? 0 : Math.min(WIDTH, HEIGHT) / 2 - 60;
  const focusFirst = [...nodes].sort((a, b) => Number(b.focus ?? false) - Number(a.focus ?? false));
  const positions = new Map<string, { x: number; y: number }>();
  const ring = focusFirst[0]?.focus ? focusFirst.slice(1) : focusFirst;
  if (focusFirst[0]?.focus) positions.set(focusFirst[0].id, { x: centreX, y: centreY });
  ring.forEach((node, index) => {
    const angle = (2 * Math.PI * index) / Math.max(ring.length, 1) - Math.PI / 2;
    positions.set(node.id, {
      x: Math.round(
        centreX + (focusFirst[0]?.focus || ring.length > 1 ? radius : 0) * Math.cos(angle),
      ),
      y: Math.round(
        centreY + (focusFirst[0]?.focus || ring.length > 1 ? radius : 0) * Math.sin(angle),
      ),
    });
  });
  const lines = edges.map((edge) => {
    const a = positions.get(edge.from);
    const b = positions.get(edge.to);
    if (!a || !b) return html``;
    const up = edge.status === 'up';
    return html`<g class="edge"><line x1="${a.x}" y1="${a.y}" x2="${b.x}" y2="${b.y}" stroke="${up ? '#1a7f37' : '#c62828'}" stroke-width="3"${
      up ? '' : html` stroke-dasharray="6 4"`
    }></line><title>${edge.label} (${edge.status})</title></g>`;
  });
  const circles = nodes.map((node) => {
    const at = positions.get(node.id) ?? { x: centreX, y: centreY };
    return html`<a href="${node.href}"><g class="node"><circle cx="${at.x}" cy="${at.y}" r="${node.focus ? 16 : 12}" fill="${
      node.focus ? '#0b57d0' : '#ffffff'
    }" stroke="#0b57d0" stroke-width="2"></circle><text x="${at.x}" y="${at.y + 30}" text-anchor="middle" font-size="13" fill="#1f1f1f">${node.label}</text></g></a>`;
  });
  return html`<svg class="topology" role="group" aria-labelledby="topology-title" viewBox="0 0 ${WIDTH} ${HEIGHT}" width="100%" xmlns="http://www.w3.org/2000/svg">
    <title id="topology-title">Topology: ${nodes.length} devices, ${edges.length} links</title>
    ${lines}${circles}</svg>`;
}

export interface Series {
  name: string;
  unit: string;
  points: readonly { at: number; value: number }[];
}

const CHART_WIDTH = 600;
const CHART_HEIGHT = 160;
const PAD = 36;

/** A line chart of one series over time, with its range written out for screen readers. */
export function lineChartSvg(series: Series): Html {
  const points = series.points;
  if (points.length === 0) return html`<p>No ${series.name.toLowerCase()} measurements.</p>`;
  const times = points.map((point) => point.at);
  const values = points.map((point) => point.value);
  const minT = Math.min(...times);
  const maxT = Math.max(...times);
  const minV = Math.min(0, ...values);
  const maxV = Math.max(...values, minV + 1);
  const x = (t: number) =>
    PAD +
    (maxT === minT
      ? (CHART_WIDTH - 2 * PAD) / 2
      : ((t - minT) / (maxT - minT)) * (CHART_WIDTH - 2 * PAD));
  const y = (v: number) =>
    CHART_HEIGHT - PAD / 2 - ((v - minV) / (maxV - minV)) * (CHART_HEIGHT - PAD);
  const path = points
    .map(
      (point, index) =>
        `${index === 0 ? 'M' : 'L'}${x(point.at).toFixed(1)} ${y(point.value).toFixed(1)}`,
    )
    .join(' ');
  const last = values[values.length - 1] ?? 0;
  const summary = `${series.name}: ${points.length} measurements from ${new Date(minT).toISOString()} to ${new Date(maxT).toISOString()}, between ${Math.min(...values)} and ${Math.max(...values)} ${series.unit}, latest ${last} ${series.unit}`;
  return html`<figure class="chart"><figcaption>${series.name} (${series.unit}) — latest ${last}</figcaption>
    <svg role="img" aria-label="${summary}" viewBox="0 0 ${CHART_WIDTH} ${CHART_HEIGHT}" width="100%" xmlns="http://www.w3.org/2000/svg">
    <line x1="${PAD}" y1="${CHART_HEIGHT - PAD / 2}" x2="${CHART_WIDTH - PAD}" y2="${CHART_HEIGHT - PAD / 2}" stroke="#888"></line>
    <line x1="${PAD}" y1="${PAD / 2}" x2="${PAD}" y2="${CHART_HEIGHT - PAD / 2}" stroke="#888"></line>
    <text x="4" y="${PAD / 2 + 4}" font-size="11" fill="#444">${String(maxV)}</text>
    <text x="4" y="${CHART_HEIGHT - PAD / 2}" font-size="11" fill="#444">${String(minV)}</text>
    <path d="${path}" fill="none" stroke="#0b57d0" stroke-width="2"></path>
    ${points.map((point) => html`<circle cx="${x(point.at).toFixed(1)}" cy="${y(point.value).toFixed(1)}" r="2.5" fill="#0b57d0"></circle>`)}
    </svg></figure>`;
}
