/**
 * PostgreSQL's `timestamptz` text (`2026-11-23 13:14:21.17988+00`, DateStyle ISO) to a Date.
 * Both drivers' own parsers take a regular expression or V8's legacy date parser per value; a
 * page of 100 records holds 300 timestamps, and parsing them was a tenth of the CPU an uncached
 * list cost the inventory's server. This reads the digits where ISO output puts them. Anything
 * else (BC dates, years past 9999 or before 1000, infinity, another DateStyle) goes to the
 * driver's own parser, so the results are the same Date values either way (tested).
 */
export function timestamptzParser(fallback: (text: string) => unknown) {
  return (text: string): unknown => parseIsoTimestamptz(text) ?? fallback(text);
}

const ZERO = 48;

/** The value of the decimal digits of text[start, end), or NaN if one is not a digit. */
function digits(text: string, start: number, end: number): number {
  let value = 0;
  for (let i = start; i < end; i++) {
    const digit = text.charCodeAt(i) - ZERO;
    if (digit < 0 || digit > 9) return Number.NaN;
    value = value * 10 + digit;
  }
  return value;
}

export function parseIsoTimestamptz(text: string): Date | undefined {
  // YYYY-MM-DD HH:MM:SS, then an optional fraction, then +HH, +HH:MM or +HH:MM:SS.
  if (text.length < 22 || text[4] !== '-' || text[7] !== '-' || text[10] !== ' ') return undefined;
  if (text[13] !== ':' || text[16] !== ':') return undefined;
  const year = digits(text, 0, 4);
  // Date.UTC reads years 0 to 99 as 1900 to 1999; leave early years to the driver.
  if (!(year >= 1000)) return undefined;
  let position = 19;
  let milliseconds = 0;
  if (text[position] === '.') {
    let end = position + 1;
    while (end < text.length && text.charCodeAt(end) >= ZERO && text.charCodeAt(end) <= ZERO + 9) {
      end++;
    }
    if (end === position + 1 || end - position - 1 > 6) return undefined;
    // Milliseconds: the first three digits, padded (a Date holds no finer time).
    const fraction = text.slice(position + 1, Math.min(end, position + 4)).padEnd(3, '0');
    milliseconds = digits(fraction, 0, 3);
    position = end;
  }
  const sign = text[position];
  if (sign !== '+' && sign !== '-') return undefined;
  const zone = text.slice(position + 1);
  let offsetSeconds: number;
  if (zone.length === 2) offsetSeconds = digits(zone, 0, 2) * 3600;
  else if (zone.length === 5 && zone[2] === ':') {
    offsetSeconds = digits(zone, 0, 2) * 3600 + digits(zone, 3, 5) * 60;
  } else if (zone.length === 8 && zone[2] === ':' && zone[5] === ':') {
    offsetSeconds = digits(zone, 0, 2) * 3600 + digits(zone, 3, 5) * 60 + digits(zone, 6, 8);
  } else return undefined;
  const utc = Date.UTC(
    year,
    digits(text, 5, 7) - 1,
    digits(text, 8, 10),
    digits(text, 11, 13),
    digits(text, 14, 16),
    digits(text, 17, 19),
    milliseconds,
  );
  const time = utc - (sign === '+' ? 1 : -1) * offsetSeconds * 1000;
  return Number.isFinite(time) ? new Date(time) : undefined;
}
