// The relay's connections: listeners (long-lived streams) and one address's idle connections
// cannot take them all; senders and /health always find room, and a refused listener is told so.
import { connect, type Socket } from 'node:net';
import { describe, expect, it, onTestFinished } from 'vitest';
import { createRelayChannel, openListenerStream, startRelay, waitFor } from './helpers.js';

const send = (url: string) =>
  fetch(url, { method: 'POST', body: '{"x":1}' }).then(
    (response) => response.status,
    () => 0,
  );

describe('relay connections', { timeout: 60_000 }, () => {
  it('listeners filling the relay leave room for senders and /health; past the stream budget a listener gets 503', async () => {
    const relay = await startRelay([], {
      maxConnections: 40,
      maxStreams: 30,
      maxAddressConnections: 8,
    });
    onTestFinished(() => relay.app.close());
    const open: (() => void)[] = [];
    onTestFinished(() => {
      for (const close of open) close();
    });
    const channels = await Promise.all([1, 2, 3].map(() => createRelayChannel(relay.base)));
    const statuses: number[] = [];
    let refusal = '';
    // 45 listeners, 15 a channel (within --max-listeners 16), one after another.
    for (let i = 0; i < 45; i++) {
      const channel = channels[i % 3] as { id: string; token: string };
      const result = await openListenerStream(relay.port, channel.id, channel.token, open);
      statuses.push(result.status);
      if (result.status !== 200) refusal = result.body;
    }
    expect(statuses.filter((status) => status === 200).length).toBe(30);
    expect(statuses.filter((status) => status === 503).length).toBe(15);
    expect(JSON.parse(refusal)).toEqual({
      error: 'busy',
      message: 'this relay holds 30 listeners; try again later',
    });
    const sender = channels[0] as { sendUrl: string };
    for (let i = 0; i < 3; i++) expect(await send(`${sender.sendUrl}/hook`)).toBe(200);
    expect((await fetch(`${relay.base}/health`)).status).toBe(200);
  });

  it('one address holding idle connections (no bytes sent) leaves senders from other addresses alone', async () => {
    const relay = await startRelay([], {
      maxConnections: 40,
      maxStreams: 30,
      maxAddressConnections: 8,
    });
    onTestFinished(() => relay.app.close());
    const channel = await createRelayChannel(relay.base);
    const sockets: Socket[] = [];
    onTestFinished(() => {
      for (const socket of sockets) socket.destroy();
    });
    // From 127.0.0.2: the senders below come from 127.0.0.1.
    await Promise.all(
      Array.from(
        { length: 100 },
        () =>
          new Promise<void>((resolve) => {
            const socket = connect({
              host: '127.0.0.1',
              port: relay.port,
              localAddress: '127.0.0.2',
            });
            sockets.push(socket);
            // Read, so that a close from the relay is seen here.
            socket.resume();
            socket.on('connect', () => resolve());
            socket.on('error', () => resolve());
            socket.on('close', () => resolve());
          }),
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statuses: number[] = [];
    for (let i = 0; i < 10; i++) statuses.push(await send(`${channel.sendUrl}/hook`));
    expect(statuses).toEqual(Array(10).fill(200));
    expect((await fetch(`${relay.base}/health`)).status).toBe(200);
    // Past the eighth, connections from 127.0.0.2 were refused: the eight had only just opened.
    expect(sockets.filter((socket) => !socket.destroyed).length).toBe(8);
    // A second later the eight count as idle: a new one takes the place of the longest idle.
    await new Promise((resolve) => setTimeout(resolve, 1_100));
    const late = connect({ host: '127.0.0.1', port: relay.port, localAddress: '127.0.0.2' });
    sockets.push(late.resume());
    await waitFor(() => sockets.filter((socket) => !socket.destroyed).length === 8);
    expect(late.destroyed).toBe(false);

    // From 127.0.0.3, eight requests under way (their bodies not sent yet): a ninth connection
    // has no idle one to replace and is refused.
    const busy = (): Promise<string> =>
      new Promise((resolve) => {
        const socket = connect({ host: '127.0.0.1', port: relay.port, localAddress: '127.0.0.3' });
        sockets.push(socket);
        let answer = '';
        socket.setEncoding('latin1').on('data', (chunk: string) => {
          answer += chunk;
        });
        socket.on('close', () => resolve(answer));
        socket.on('error', () => {});
        socket.on('connect', () =>
          socket.write(
            `POST /c/${channel.id}/slow HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n`,
          ),
        );
      });
    const held = Array.from({ length: 8 }, busy);
    await new Promise((resolve) => setTimeout(resolve, 300));
    const ninth = await busy();
    expect(ninth).toMatch(/^HTTP\/1\.1 503 Service Unavailable\r\n/);
    expect(ninth).toContain('Retry-After: 1\r\n');
    expect(ninth.endsWith('\r\n\r\nrelay: busy; try again\n')).toBe(true);
    for (const socket of sockets) socket.destroy();
    await Promise.all(held);
    // Senders from elsewhere were never affected.
    expect(await send(`${channel.sendUrl}/hook`)).toBe(200);
  });
});
