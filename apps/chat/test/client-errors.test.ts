import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Harness, listen } from './support/harness.js';

let h: Harness;
let port: number;
beforeAll(async () => {
  h = await Harness.open();
  port = Number(new URL(await listen(await h.app())).port);
});
afterAll(() => h.close());

/** Sends raw bytes over a socket and returns everything the server answered before closing. */
const raw = (request: string | Buffer) =>
  new Promise<string>((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    const chunks: Buffer[] = [];
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    socket.on('error', reject);
    socket.write(request); // not end(): Node aborts requests of half-closed sockets
  });

describe('requests the HTTP parser refuses (found by fuzzing)', () => {
  it('a control byte in a header: 400 in the service error shape, connection closed', async () => {
    const answer = await raw(
      'GET /api/v1/me HTTP/1.1\r\nHost: x\r\nX-Auth-Token: a\x01b\r\nX-User-Id: u\r\n\r\n',
    );
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toEqual({
      status: 'error',
      error: 'invalid-request',
      message: 'The request is not valid HTTP',
    });
  });

  it('headers over the size limit: 431 headers-too-large', async () => {
    const answer = await raw(
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(JSON.parse(answer.slice(answer.indexOf('\r\n\r\n') + 4))).toMatchObject({
      status: 'error',
      error: 'headers-too-large',
    });
  });
});
