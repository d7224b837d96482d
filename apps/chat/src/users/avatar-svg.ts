import { createHash } from 'node:crypto';

const escapeXml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Up to two initials from the display name (else the username), as the user would write them. */
export function initials(name: string, username: string): string {
  const words = (name.trim() || username).split(/[\s._-]+/u).filter(Boolean);
  const letters = words.slice(0, 2).map((word) => [...word][0] ?? '');
  return letters.join('').toUpperCase() || '?';
}

const PALETTE = [
  '#1d74f5',
  '#2de0a5',
  '#f5455c',
  '#ffd21f',
  '#f38c39',
  '#9c27b0',
  '#0a967d',
  '#5d6b78',
];

/** An SVG with the initials on a colour chosen by the username (stable for one user). */
export function initialsSvg(name: string, username: string): string {
  const colour =
    PALETTE[createHash('sha256').update(username).digest().readUInt8(0) % PALETTE.length];
  return `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="200" viewBox="0 0 200 200"><rect width="100%" height="100%" fill="${colour}"/><text x="50%" y="50%" dy="0.35em" text-anchor="middle" fill="#ffffff" font-family="Helvetica, Arial, sans-serif" font-size="88">${escapeXml(initials(name, username))}</text></svg>`;
}
