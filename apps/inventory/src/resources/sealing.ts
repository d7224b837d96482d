import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

/**
 * Sealing of write-only columns (ColumnDefinition.secret): AES-256-GCM with a key derived
 * (HKDF-SHA256) from the configured sealing key, a fresh 96-bit nonce per value. A sealed value
 * is `v1.<base64url(nonce | tag | ciphertext)>`; the database, its backups and the audit trail
 * never hold the clear text, and a tampered value fails to open instead of yielding garbage.
 */
export class SecretSealer {
  readonly #key: Buffer;

  constructor(keyMaterial: string) {
    if (keyMaterial.length < 32) throw new Error('the sealing key must be at least 32 characters');
    this.#key = Buffer.from(
      hkdfSync('sha256', keyMaterial, 'netops-inventory', 'sealed-columns-v1', 32),
    );
  }

  seal(clear: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.#key, nonce);
    const body = Buffer.concat([cipher.update(clear, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([nonce, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  /** The clear text, or an error when the value was sealed with another key or altered. */
  open(sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('not a sealed value');
    const raw = Buffer.from(sealed.slice(3), 'base64url');
    if (raw.length < 28) throw new Error('sealed value too short');
    const decipher = createDecipheriv('aes-256-gcm', this.#key, raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(12, 28));
    return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString('utf8');
  }
}
