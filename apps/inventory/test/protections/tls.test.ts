import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fastifyServerOptions, readProtectionsConfig } from '../../src/protections/index.js';
import { writeSelfSignedCertificate } from '../tls-certificate.js';
import { buildTestApp, listen } from './helpers.js';

describe('HTTPS with TLS_CERT_FILE and TLS_KEY_FILE', () => {
  let dir: string;
  let env: Record<string, string>;
  let app: FastifyInstance;
  let port: number;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'inventory-tls-'));
    const { certFile, keyFile } = writeSelfSignedCertificate(dir);
    env = { TLS_CERT_FILE: certFile, TLS_KEY_FILE: keyFile };
    app = await buildTestApp({ env });
    port = await listen(app);
  });
  afterAll(async () => {
    await app?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const get = (path: string, ca?: Buffer) =>
    new Promise<{
      status: number;
      headers: Record<string, unknown>;
      body: string;
      authorized: boolean;
    }>((resolve, reject) => {
      const req = httpsRequest(
        { host: '127.0.0.1', port, path, ca, servername: 'localhost' },
        (res) => {
          const authorized = (res.socket as TLSSocket).authorized;
          let body = '';
          res.on('data', (chunk) => {
            body += chunk;
          });
          res.on('end', () =>
            resolve({
              status: res.statusCode ?? 0,
              headers: res.headers,
              body,
              authorized,
            }),
          );
        },
      );
      req.on('error', reject);
      req.end();
    });

  it('serves the API over TLS with the configured certificate', async () => {
    const response = await get('/hello', readFileSync(env.TLS_CERT_FILE as string));
    expect(response.authorized).toBe(true);
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body)).toEqual({ hello: 'world' });
    expect(response.headers['strict-transport-security']).toBe(
      'max-age=31536000; includeSubDomains',
    );
    expect(response.headers['x-request-id']).toBeDefined();
  });

  it('is not reachable over plain HTTP on the same port', async () => {
    await expect(fetch(`http://127.0.0.1:${port}/hello`)).rejects.toThrow();
  });

  it('says which file it cannot read', () => {
    const config = readProtectionsConfig({ ...env, TLS_KEY_FILE: join(dir, 'missing.pem') });
    expect(() => fastifyServerOptions(config)).toThrow(/^TLS_KEY_FILE: cannot read .*missing\.pem/);
  });

  it('stays on HTTP without the variables', () => {
    expect(fastifyServerOptions(readProtectionsConfig({})).https).toBeUndefined();
  });
});
