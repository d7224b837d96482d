/** `1 record`, `2 records`: a number and its noun, in the plural when it is not one. */
export function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}
