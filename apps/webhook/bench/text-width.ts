// npx tsx bench/text-width.ts
//
// The UI's text path on a body that is not Latin: ~70k characters of CJK JSON with one emoji per
// line, a 1 MiB one and 70k of Hindi (which has to be segmented) (printableLinesInUi, then every line's row count and wrap, as the detail
// pane does when such a body is selected). Prints the median of 5 runs of each, in milliseconds.
import { printableLinesInUi } from '../src/format/printable.js';
import { rowCount, wrap } from '../src/ui/text-width.js';

function cjkJson(chars: number, script = 'cjk'): string {
  const lines = ['{'];
  let size = 0;
  for (let i = 0; size < chars; i += 1) {
    const line =
      script === 'cjk'
        ? `  "项目${i}": "这是一个用于测试的中文字符串，包含日本語とカタカナ和한국어 ${i % 2 ? '😀' : '🎉'}",`
        : `  "नाम${i}": "नमस्ते, यह हिन्दी में एक परीक्षण वाक्य है ${i % 2 ? '😀' : '🎉'}",`;
    lines.push(line);
    size += line.length;
  }
  lines.push('}');
  return lines.join('\n');
}

function median(run: () => void): number {
  const times: number[] = [];
  for (let i = 0; i < 5; i += 1) {
    const start = performance.now();
    run();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return Math.round((times[2] ?? 0) * 10) / 10;
}

for (const [name, chars, script] of [
  ['CJK, 70k chars', 70_000, 'cjk'],
  ['CJK, 1 MiB', 1024 * 1024, 'cjk'],
  ['Hindi (segmented), 70k chars', 70_000, 'hindi'],
] as const) {
  const text = cjkJson(chars, script);
  const lines = printableLinesInUi(text);
  const printableMs = median(() => printableLinesInUi(text));
  const rowCountMs = median(() => {
    for (const line of lines) rowCount(line, 60);
  });
  const wrapMs = median(() => {
    for (const line of lines) wrap(line, 60);
  });
  console.log(
    `${name} (${text.length} chars, ${lines.length} lines): printableLinesInUi ${printableMs} ms, rowCount ${rowCountMs} ms, wrap ${wrapMs} ms`,
  );
}
