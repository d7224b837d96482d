// A sender's request in absolute form (`POST http://relay.example/c/<id>/path HTTP/1.1`, which
// HTTP/1.1 servers must accept) is a sender's like any other: relayed, and answered in plain text
// as the README's sender answers are, never with the API's JSON.
import { connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createRelayChannel, startRelay } from './helpers.js';

const cleanups: (() => Promise<unknown> | unknown)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Sends `head` (and nothing more) on a new connection; the whole answer once it closes. */
function rawRequest(port: number, head: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const answer: Buffer[] = [];
    socket.on('data', (chunk: Buffer) => answer.push(chunk));
    socket.on('error', () => {});
    socket.on('close', () => resolve(Buffer.concat(answer).toString('latin1')));
    socket.write(head);
  });
}

describe('the relay, a sender request in absolute form', () => {
  it('is relayed with the target after /c/<id>, and answered as senders are', async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const channel = await createRelayChannel(relay.base);
    const answer = await rawRequest(
      relay.port,
      `GET http://evil.example:81/c/${channel.id}/h/abs?q=1 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n`,
    );
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 200 OK');
    const read = await relay.store.readAfter(channel.id, null, 10, Date.now());
    expect(read.events.map((event) => JSON.parse(event.data).target)).toEqual(['/h/abs?q=1']);
  });

  it('to no channel: 404 in plain text, as any sender to no channel', async () => {
    const relay = await startRelay();
    cleanups.push(() => relay.app.close());
    const answer = await rawRequest(
      relay.port,
      'GET http://evil.example:81/c/AAAAAAAAAAAAAAAAAAAAAA/h/abs HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 404 Not Found');
    expect(answer).toContain('Content-Type: text/plain; charset=utf-8');
    expect(answer.endsWith('\r\n\r\nrelay: no such channel\n')).toBe(true);
  });
});
