import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

/**
 * Writes a throwaway self-signed certificate for localhost and 127.0.0.1 into `dir`. node:crypto
 * cannot issue X.509 certificates, so the tests ask openssl.
 */
export function writeSelfSignedCertificate(dir: string): { certFile: string; keyFile: string } {
  const [certFile, keyFile] = [join(dir, 'cert.pem'), join(dir, 'key.pem')];
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=localhost',
      '-addext',
      'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-days',
      '1',
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  );
  return { certFile, keyFile };
}
