const pad = (value: number, width = 2) => String(value).padStart(width, '0');

/** `14:03:59`, local time. */
export function clock(ms: number): string {
  const date = new Date(ms);
  return `${pad(date.getHours())}:${pad(date.getMinutes())}:${pad(date.getSeconds())}`;
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
