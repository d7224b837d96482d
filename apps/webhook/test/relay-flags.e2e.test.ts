// `webhook relay …` flags checked before anything starts: a bad one is exit 2 naming the flag,
// never a stack trace.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RELAY_ADMIN_TOKEN, runCli } from './helpers.js';

const dir = mkdtempSync(join(tmpdir(), 'webhook-relay-flags-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const env = { WEBHOOK_RELAY_ADMIN_TOKEN: RELAY_ADMIN_TOKEN };

/** A self-signed certificate and its key, as PEM files. */
function selfSigned(name: string): { cert: string; key: string } {
  const cert = join(dir, `${name}.crt`);
  const key = join(dir, `${name}.key`);
  execFileSync('openssl', [
    'req',
    '-x509',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-nodes',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    '1',
    '-subj',
    '/CN=relay.test',
  ]);
  return { cert, key };
}

const noCrash = (stderr: string) => expect(stderr).not.toMatch(/internal error|\n\s+at /);

describe('relay serve --tls-cert / --tls-key', () => {
  it('a file that is not PEM, or a key that is not the certificate’s, is exit 2 naming the flag', async () => {
    const one = selfSigned('one');
    const two = selfSigned('two');
    const cases = [
      [['--tls-cert', '/etc/hostname', '--tls-key', '/etc/hostname'], '--tls-cert /etc/hostname: '],
      [['--tls-cert', one.cert, '--tls-key', '/etc/hostname'], '--tls-key /etc/hostname: '],
      [['--tls-cert', one.key, '--tls-key', one.key], `--tls-cert ${one.key}: `],
      [['--tls-cert', one.cert, '--tls-key', two.key], `--tls-key ${two.key}: `],
    ] as const;
    const runs = await Promise.all(
      cases.map(([flags]) =>
        runCli(['relay', 'serve', '--host', '127.0.0.1', '--port', '0', ...flags], {
          cwd: dir,
          env,
        }),
      ),
    );
    runs.forEach((run, index) => {
      expect(run.stderr).toContain(cases[index]?.[1]);
      noCrash(run.stderr);
      expect(run.code).toBe(2);
    });
  });
});
