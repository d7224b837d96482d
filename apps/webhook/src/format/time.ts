const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** The last second `clock` formatted: a flood prints thousands of lines within one. */
let lastClock = { second: Number.NaN, text: '' };

/** `14:03:59`, local time. */
export function clock(ms: number): string {
  const second = Math.floor(ms / 1000);
  if (second === lastClock.second) return lastClock.text;
  const date = new Date(ms);
  const text = `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
  lastClock = { second, text };
  return text;
}

/** `2026-11-22 14:03:59.123 +01:00`, local time with its offset, to the millisecond. */
export function fullTimestamp(ms: number): string {
  const date = new Date(ms);
  const offset = -date.getTimezoneOffset();
  const sign = offset < 0 ? '-' : '+';
  const day = `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
  const time = `${clock(ms)}.${pad(date.getMilliseconds(), 3)}`;
  const zone = `${sign}${pad(Math.floor(Math.abs(offset) / 60))}:${pad(Math.abs(offset) % 60)}`;
  return `${day} ${time} ${zone}`;
}
