// A reader that stops reading (`webhook export --har - | head -c 10`) ends the headless commands
// quietly with exit 0, as it ends a capture: no "internal error", no stack trace.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestJson } from '../src/output/json.js';
import { CLI, childEnv, makeRecord } from './helpers.js';

let dir: string;
let file: string;
let receiver: Server;
let receiverUrl: string;

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'webhook-closed-pipe-'));
  file = join(dir, 'session.jsonl');
  // Far more than a pipe holds (64 KiB), so the command is still writing when the reader goes.
  const body = Buffer.from('x'.repeat(2000));
  const lines = Array.from({ length: 400 }, (_, index) =>
    requestJson(makeRecord({ seq: index + 1, body })),
  );
  writeFileSync(file, `${lines.join('\n')}\n`);
  receiver = createServer((_request, response) => response.end('ok'));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
  rmSync(dir, { recursive: true, force: true });
});

/** Runs the CLI, reads its first bytes of stdout, then closes the pipe as `head -c` does. */
function runAndCloseStdout(args: string[]) {
  const child = spawn(process.execPath, [CLI, ...args], {
    cwd: dir,
    env: childEnv(),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  child.stdout.once('data', () => child.stdout.destroy());
  return new Promise<{ code: number | null; stderr: string }>((resolve) => {
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('a closed stdout', () => {
  it.each([
    ['export --har -', ['export', '--from', 'session.jsonl', '--har', '-']],
    ['export --curl', ['export', '--from', 'session.jsonl', '--curl']],
    ['replay --all', () => ['replay', '--from', 'session.jsonl', '--all', '--to', receiverUrl]],
  ])('ends %s quietly with exit 0', async (_name, args) => {
    const run = await runAndCloseStdout(typeof args === 'function' ? args() : args);
    expect(run.stderr).not.toContain('internal error');
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.code).toBe(0);
  });
});
