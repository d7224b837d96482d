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
    const count = end - position - 1;
    if (count === 0 || count > 6) return undefined;
    // Milliseconds: the first three digits, as if padded (a Date holds no finer time).
    const kept = Math.min(count, 3);
    milliseconds = digits(text, position + 1, position + 1 + kept) * 10 ** (3 - kept);
    position = end;
  }
  const sign = text[position];
  if (sign !== '+' && sign !== '-') return undefined;
  // +HH, +HH:MM or +HH:MM:SS to the end of the text.
  const zone = position + 1;
  const zoneLength = text.length - zone;
  let offsetSeconds = digits(text, zone, zone + 2) * 3600;
  if (zoneLength >= 5) {
    if (text[zone + 2] !== ':') return undefined;
    offsetSeconds += digits(text, zone + 3, zone + 5) * 60;
  }
  if (zoneLength === 8) {
    if (text[zone + 5] !== ':') return undefined;
    offsetSeconds += digits(text, zone + 6, zone + 8);
  } else if (zoneLength !== 2 && zoneLength !== 5) return undefined;
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
