import { closeSync, openSync, readFileSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { describeListenError, openLogOutput, readCommandLine } from '../src/index.js';

describe('readCommandLine', () => {
  it('runs with no arguments, helps with --help or -h, refuses anything else', () => {
    expect(readCommandLine([])).toEqual({ action: 'run' });
    expect(readCommandLine(['--help'])).toEqual({ action: 'help' });
    expect(readCommandLine(['-h', 'x'])).toEqual({ action: 'help' });
    expect(readCommandLine(['--port', '1'])).toMatchObject({ action: 'refuse' });
    const long = readCommandLine([`--${'x'.repeat(10_000)}\u001b[2J`]);
    expect(long.action === 'refuse' && long.message.length).toBeLessThan(200);
  });
});

describe('describeListenError', () => {
  it('turns a busy port into one line naming the address and PORT', async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as { port: number };
    const second = createServer();
    const error = await new Promise((resolve) => {
      second.once('error', resolve);
      second.listen(port, '127.0.0.1');
    });
    server.close();
    expect(describeListenError(error, '127.0.0.1', port)).toBe(
      `127.0.0.1:${port} is already in use (set PORT)`,
    );
    expect(describeListenError({ code: 'EADDRINUSE' }, '::1', 80)).toBe(
      '[::1]:80 is already in use (set PORT)',
    );
    expect(describeListenError(new Error('other'), '127.0.0.1', 1)).toBeUndefined();
  });
});

describe('openLogOutput', () => {
  it('writes JSON lines and printed text in order to its descriptor', async () => {
    const file = join(tmpdir(), `log-output-${process.pid}-${Date.now()}`);
    onTestFinished(() => rmSync(file, { force: true }));
    const fd = openSync(file, 'w');
    const output = await openLogOutput({ fd, pretty: false });
    output.stream.write('{"msg":"one"}\n');
    output.print('banner');
    await output.flush(5000);
    closeSync(fd);
    expect(readFileSync(file, 'utf8')).toBe('{"msg":"one"}\nbanner\n');
  });

  it('drops lines once its queue is full, never growing without bound', async () => {
    // A descriptor nobody can write to in time: the queue fills and the rest is counted, dropped.
    const fd = openSync('/dev/null', 'w');
    const output = await openLogOutput({ fd, pretty: false, maxQueuedBytes: 1000 });
    for (let i = 0; i < 1000; i++) output.stream.write(`${'x'.repeat(99)}\n`);
    expect(output.dropped).toBeGreaterThan(0);
    await output.flush(5000);
    closeSync(fd);
  });

  it('marks itself broken on a write error and drops everything after, without blocking', async () => {
    const fd = openSync('/dev/null', 'r'); // writing to a read-only descriptor fails (EBADF)
    const output = await openLogOutput({ fd, pretty: false });
    output.stream.write('{"msg":"lost"}\n');
    const started = Date.now();
    await output.flush(5000);
    expect(Date.now() - started).toBeLessThan(1000);
    expect(output.broken).toBe(true);
    output.stream.write('{"msg":"also lost"}\n');
    expect(output.dropped).toBeGreaterThanOrEqual(2);
    closeSync(fd);
  });
});
