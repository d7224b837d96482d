/**
 * Re-indents JSON text by its tokens, two spaces a level, as `JSON.stringify(value, null, 2)`
 * lays it out, but keeping every literal exactly as sent: `12.50` stays `12.50`, `1e3` stays
 * `1e3`, `-0` stays `-0`, integers beyond 2^53 keep their digits, strings keep their escapes and
 * duplicate keys are all shown. Parsing to JavaScript values would rewrite all of these.
 *
 * `text` must be valid JSON (the caller checks with `JSON.parse`). Iterative, but indentation grows
 * with depth (200,000 nested arrays would need 40 GB of it): past `budget` characters of output
 * it gives up and returns null, and the caller shows the text as sent.
 */
export function reindentJson(text: string, budget = INDENT_BUDGET): string[] | null {
  const lines: string[] = [];
  let written = 0;
  let depth = 0;
  let line = '';
  let i = 0;
  const length = text.length;
  const skipSpace = (from: number) => {
    let at = from;
    while (at < length && isSpace(text.charCodeAt(at))) at += 1;
    return at;
  };
  while (i < length) {
    i = skipSpace(i);
    if (i >= length) break;
    const char = text[i] as string;
    if (char === '{' || char === '[') {
      const next = skipSpace(i + 1);
      const close = char === '{' ? '}' : ']';
      if (text[next] === close) {
        line += `${char}${close}`;
        i = next + 1;
        continue;
      }
      lines.push(line + char);
      written += line.length + depth * 2;
      if (written > budget) return null;
      depth += 1;
      line = indent(depth);
      i += 1;
    } else if (char === '}' || char === ']') {
      lines.push(line);
      depth -= 1;
      line = indent(depth) + char;
      i += 1;
    } else if (char === ',') {
      lines.push(`${line},`);
      line = indent(depth);
      i += 1;
    } else if (char === ':') {
      line += ': ';
      i += 1;
    } else if (char === '"') {
      const end = stringEnd(text, i);
      line += text.slice(i, end);
      i = end;
    } else {
      // A number, true, false or null: everything up to the next delimiter, as sent.
      let end = i + 1;
      while (end < length && !isDelimiter(text.charCodeAt(end))) end += 1;
      line += text.slice(i, end);
      i = end;
    }
  }
  if (line !== '') lines.push(line);
  return lines;
}

/** Characters of re-indented output at most: 8 times the 1 MiB a body is pretty-printed up to. */
export const INDENT_BUDGET = 8 * 1024 * 1024;

const indent = (depth: number) => '  '.repeat(Math.max(0, depth));

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

function isDelimiter(code: number): boolean {
  // , : ] } and whitespace end a literal
  return code === 0x2c || code === 0x3a || code === 0x5d || code === 0x7d || isSpace(code);
}

/** Index just after the string literal starting at `start`. */
function stringEnd(text: string, start: number): number {
  let i = start + 1;
  while (i < text.length) {
    const char = text[i];
    if (char === '\\') i += 2;
    else if (char === '"') return i + 1;
    else i += 1;
  }
  return i;
}
