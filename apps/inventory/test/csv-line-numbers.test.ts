import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.js';

/**
 * A CSV import's error names the line of the file the row starts on, as an editor numbers it:
 * blank lines and line breaks inside quoted cells count. And a body's content coding is read in
 * any letter case, as RFC 9110 says codings are (`Content-Encoding: GZIP`).
 */
const ctx = useTestApp();

const importCsv = (resource: string, payload: string | Buffer, headers = {}) =>
  ctx.as('admin', {
    method: 'POST',
    url: `/${resource}`,
    headers: { 'content-type': 'text/csv', ...headers },
    payload,
  });

describe('CSV import errors name the file line', () => {
  it('after blank lines', async () => {
    const response = await importCsv('devices', 'hostname,ip\n\nr1,10.99.0.1\n\nr2,999.0.0.1\n');
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({
      status: 'error',
      message: 'Row 5 (ip): Invalid IP address format',
    });
  });

  it('after a quoted cell holding line breaks, with CRLF line ends', async () => {
    const response = await importCsv(
      'vlans',
      'vlan_id,name,description\r\n10,a,"two\r\nlines"\r\n\r\n5000,b,\r\n',
    );
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toBe('Row 5 (vlan_id): must be <= 4094');
  });

  it('for a constraint the database finds', async () => {
    const response = await importCsv('vlans', 'vlan_id,name\n\n3000,a\n\n\n3000,b\n');
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json().message).toBe('Row 6 (vlan_id): VLAN id already exists');
  });

  it('for a webhook URL the SSRF policy refuses', async () => {
    const response = await importCsv('webhooks', 'name,url\n\n\nlocal,http://127.0.0.1/h\n');
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json().message).toMatch(/^Row 4 \(url\): /);
  });
});

describe('content codings in any letter case', () => {
  it.each([
    ['GZIP', 3101],
    ['Gzip', 3102],
    [' gzip ', 3103],
  ])('Content-Encoding: %j is inflated', async (coding, vlan) => {
    const response = await importCsv(
      'vlans',
      gzipSync(`vlan_id,name\n${vlan},${coding.trim()}\n`),
      { 'content-encoding': coding },
    );
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json()[0].name).toBe(coding.trim());
  });

  it('an unknown coding is still 415', async () => {
    const response = await importCsv('vlans', 'vlan_id,name\n3200,x\n', {
      'content-encoding': 'Compress',
    });
    expect(response.statusCode).toBe(415);
  });
});
