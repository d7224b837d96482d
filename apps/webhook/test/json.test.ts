import { describe, expect, it } from 'vitest';
import { requestJson } from '../src/output/printers.js';
import { makeRecord } from './helpers.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point of the check
const CONTROLS = /[\u0000-\u001f\u007f-\u009f]/;

describe('--json lines', () => {
  // Issue 17, defect 5: JSON.stringify leaves C1 controls, bidi overrides, U+2028/2029 and
  // U+FEFF raw; printed to a terminal, U+009B acts as CSI and U+202E reverses the line.
  it('escapes C1 controls, bidi marks, line separators and format characters as \\u sequences', () => {
    const hostile =
      'a\u009b31m\u009d0;t\u0007\u202eevil\u2066\u2028\u2029\ufeff\u200b\u00ad\u007fz';
    const record = makeRecord({
      target: `/p?q=${encodeURIComponent(hostile)}`,
      path: `/p${hostile}`,
      headers: [['X-Name', hostile]],
      body: Buffer.from(`{"k":"${hostile}"}`),
    });
    const line = requestJson(record);
    expect(line).not.toMatch(CONTROLS);
    expect(line).not.toMatch(/[\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u2069\ufeff]/);
    expect(line).toContain('\\u009b');
    expect(line).toContain('\\u202e');
    const parsed = JSON.parse(line) as { path: string; body: string };
    expect(parsed.path).toBe(`/p${hostile}`);
    expect(parsed.body).toBe(`{"k":"${hostile}"}`);
  });
});
