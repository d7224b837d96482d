import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSelfSignedCertificate } from './tls-certificate.js';

const APP_DIR = fileURLToPath(new URL('..', import.meta.url));
const PASSWORD = 'main-test-password';

/** One HTTPS request trusting the throwaway certificate. */
function call(port: number, path: string, options: { method?: string; body?: unknown } = {}) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>(
    (resolve, reject) => {
      const payload = options.body === undefined ? undefined : JSON.stringify(options.body);
      const req = httpsRequest(
        {
          host: '127.0.0.1',
          port,
          path,
          method: options.method ?? 'GET',
          rejectUnauthorized: false,
          headers: payload ? { 'content-type': 'application/json' } : {},
        },
        (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => {
            body += chunk;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
        },
      );
      req.on('error', reject);
      req.end(payload);
    },
  );
}

/**
 * main.ts as an operator runs it: configuration from the environment, HTTPS from the
 * certificate variables, the protections on, and SIGTERM ending it cleanly.
 */
describe('main.ts', () => {
  let dir: string;
  let child: ChildProcess;
  let output = '';
  let port = 0;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inventory-main-'));
    const { certFile, keyFile } = writeSelfSignedCertificate(dir);
    child = spawn(
      process.execPath,
      ['--import', 'tsx', '--conditions=development', 'src/main.ts'],
      {
        cwd: APP_DIR,
        env: {
          PATH: process.env.PATH,
          HOST: '127.0.0.1',
          PORT: '0',
          DATABASE_URL: 'memory://',
          DATA_DIR: dir,
          SEED_PASSWORD: PASSWORD,
          ARGON2_MEMORY_COST: '1024',
          ARGON2_TIME_COST: '1',
          TLS_CERT_FILE: certFile,
          TLS_KEY_FILE: keyFile,
          LOG_LEVEL: 'info',
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    child.stdout?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      output += chunk.toString();
    });
    port = await new Promise<number>((resolve, reject) => {
      const timer = setInterval(() => {
        const match = /listening on https:\/\/127\.0\.0\.1:(\d+)/.exec(output);
        if (match) {
          clearInterval(timer);
          resolve(Number(match[1]));
        }
      }, 50);
      child.on('exit', (code) => {
        clearInterval(timer);
        reject(new Error(`main.ts exited with ${code}:\n${output}`));
      });
    });
  }, 60_000);

  afterAll(() => {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(dir, { recursive: true, force: true });
  });

  it('serves HTTPS with the protections, then shuts down cleanly on SIGTERM', async () => {
    const root = await call(port, '/');
    expect(root.status).toBe(200);
    expect(root.headers).toMatchObject({
      'x-ratelimit-limit': '100',
      'x-frame-options': 'DENY',
      'x-request-id': expect.any(String),
    });
    const login = await call(port, '/users/login', {
      method: 'POST',
      body: { username: 'admin', password: PASSWORD },
    });
    expect(login.status).toBe(200);
    // The password is never logged, nor is the hash.
    expect(output).not.toContain(PASSWORD);
    expect(output).not.toContain('$argon2');

    const exit = new Promise<number | null>((resolve) => child.on('exit', resolve));
    child.kill('SIGTERM');
    expect(await exit).toBe(0);
    expect(output).toContain('shutdown complete');
  });
});
