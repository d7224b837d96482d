import { execFileSync } from 'node:child_process';
import { parse } from 'csv-parse/sync';
import { v7 as uuidv7 } from 'uuid';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AnyDatabase } from '../src/db/schema.js';
import { startTestApp, type TestContext } from './helpers.js';

/**
 * CSV keeps every value intact: each hostile character class survives an export read back by
 * two independent readers (csv-parse, Python's csv module), and the import neither merges rows
 * nor trips over header names that are members of Object.prototype.
 */

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

/** Every character class a CSV writer must quote or keep, one description each. */
const HOSTILE: Record<string, string> = {
  lf: 'v1\nv2',
  cr: 'v1\rv2',
  crlf: 'v1\r\nv2',
  trailingLf: 'ends with a break\n',
  onlyBreaks: '\n\r\n\r',
  quote: 'say "hi"',
  loneQuote: '"',
  comma: 'a,b',
  semicolon: 'a;b',
  tab: 'a\tb',
  spaces: '  padded  ',
  backslash: 'C:\\path\\"x"',
  unicode: 'Zürich 東京 🚀 \u200b\u202e',
  apostrophe: "'leading apostrophe",
  empty: '',
};
/** What the export writes for a formula-like start (OWASP's neutralising apostrophe). */
const FORMULAS: Record<string, string> = {
  formulaCr: '\rstart',
  formulaLf: '=1+1\n=2',
};

const pythonCsv = (text: string): Array<Record<string, string>> =>
  JSON.parse(
    execFileSync(
      'python3',
      [
        '-c',
        'import csv, io, json, sys\n' +
          'text = sys.stdin.buffer.read().decode("utf-8")\n' +
          'print(json.dumps(list(csv.DictReader(io.StringIO(text, newline="")))))',
      ],
      { input: text },
    ).toString('utf8'),
  );

describe('CSV export keeps every value intact', () => {
  it('quotes CR and LF alone, as RFC 4180 requires, and two readers read every value back', async () => {
    const db = ctx.store.db as AnyDatabase;
    const values = { ...HOSTILE, ...FORMULAS };
    const names = Object.keys(values);
    await db
      .insertInto('vlans')
      .values(
        names.map((name, index) => ({
          id: uuidv7(),
          vlan_id: 100 + index,
          name,
          description: values[name] === '' ? null : values[name],
          tags: [],
        })),
      )
      .execute();
    const response = await ctx.as('viewer', {
      method: 'GET',
      url: '/vlans?format=csv&fields=name,description&sortby=vlan_id:asc',
    });
    expect(response.statusCode).toBe(200);
    const expected = names.map((name) => ({
      name,
      description: name in FORMULAS ? `'${values[name]}` : (values[name] ?? ''),
    }));
    expect(parse(response.body, { columns: true })).toEqual(expected);
    expect(pythonCsv(response.body)).toEqual(expected);
    // Every record is one line ending in CRLF outside quotes: a line-based reader sees no more
    // records than there are.
    expect(response.body.match(/\r\n(?=(?:[^"]*"[^"]*")*[^"]*$)/g)).toHaveLength(names.length + 1);
  });
});

describe('CSV import never merges rows nor indexes an object with a header', () => {
  const importCsv = (text: string) =>
    ctx.as('admin', {
      method: 'POST',
      url: '/vlans',
      headers: { 'content-type': 'text/csv' },
      payload: text,
    });

  it('ends a record at a bare LF or CR in a CRLF file, as at CRLF', async () => {
    const split = await importCsv('vlan_id,name\r\n3800,first\n3801,second\r3802,third\r\n');
    expect(split.statusCode, split.body).toBe(201);
    expect(split.json().map((row: { name: string }) => row.name)).toEqual([
      'first',
      'second',
      'third',
    ]);
    // The silent merge the old parser made: one record named "merged\nrow". Now a short record.
    const merged = await importCsv('vlan_id,name\r\n3810,merged\nrow\r\n');
    expect(merged.statusCode, merged.body).toBe(400);
    expect(merged.json().message).toMatch(/Malformed CSV.*line 3/);
    // A quoted line break is a value, whatever the file's line ends (of a multiline column).
    const quoted = await importCsv('vlan_id,name,description\r\n3811,kept,"kept\nwhole"\r\n');
    expect(quoted.statusCode, quoted.body).toBe(201);
    expect(quoted.json()[0].description).toBe('kept\nwhole');
  });

  it('refuses headers naming Object.prototype members with 400', async () => {
    for (const header of [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'valueOf',
      '__defineGetter__',
      'prototype',
    ]) {
      const response = await importCsv(`vlan_id,name,${header}\n3820,x,1\n`);
      expect(response.statusCode, `${header}: ${response.body}`).toBe(400);
      expect(response.json()).toEqual({
        status: 'error',
        message: `Unknown field in CSV header: ${header}`,
      });
    }
  });
});
