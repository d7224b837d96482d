const UNITS: Record<string, number> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };

/**
 * Parses a byte size such as `1048576`, `512k`, `10MiB`, `1.5m` or `2GB`. Units are binary
 * (k = 1024) whatever their spelling, as in most CLIs that take sizes. Returns null when the text is
 * not a size.
 */
export function parseSize(text: string): number | null {
  const match = /^\s*(\d+(?:\.\d+)?)\s*([kmg]?)(?:i?b)?\s*$/i.exec(text);
  if (!match) return null;
  const [, amount = '', unit = ''] = match;
  const bytes = Math.floor(Number(amount) * (UNITS[unit.toLowerCase()] ?? 1));
  return Number.isSafeInteger(bytes) ? bytes : null;
}

/** `10485760` -> `10 MiB`, for messages and the README's tables. */
export function formatSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KiB', 'MiB', 'GiB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  const text = value >= 10 || Number.isInteger(value) ? value.toFixed(0) : value.toFixed(1);
  return `${text} ${units[unit]}`;
}
