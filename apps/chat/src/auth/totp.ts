import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  randomInt,
} from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../db/schema.js';
import {
  ChatError,
  invalidRequest,
  totpInvalid,
  totpRequired,
  twoFactorUnavailable,
} from '../errors.js';
import type { Lockout } from './lockout.js';

/**
 * TOTP two-factor authentication (RFC 6238) as authenticator apps expect it: SHA-1, 6 digits,
 * 30-second steps, a code of the previous or next step accepted for clock drift. Secrets are kept
 * encrypted (SecretBox), every accepted step is recorded so a code works once, and wrong codes
 * count against a lock-out key of the user.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps either side of the current one whose codes are accepted. */
export const TOTP_WINDOW = 1;
export const BACKUP_CODE_COUNT = 10;

const SEALED_VERSION = 'v1';
const IV_BYTES = 12;

/**
 * AES-256-GCM with the key from TWO_FACTOR_KEY. The user id is authenticated data, so a sealed
 * secret copied into another user's row does not open. Sealed values name the key by a short
 * digest, so a server started with another key says so instead of failing obscurely.
 */
export class SecretBox {
  readonly keyId: string;
  readonly #key: Buffer;
  readonly #backupKey: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error('TWO_FACTOR_KEY must be 32 bytes');
    this.#key = key;
    this.keyId = createHash('sha256')
      .update('key-id\0')
      .update(key)
      .digest('base64url')
      .slice(0, 8);
    // A separate key for backup-code digests: one purpose per key.
    this.#backupKey = createHmac('sha256', key).update('backup-codes').digest();
  }

  seal(plaintext: string, userId: string): string {
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.#key, iv);
    cipher.setAAD(Buffer.from(userId, 'utf8'));
    const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((part) => part.toString('base64url'));
    return [SEALED_VERSION, this.keyId, ...parts].join('.');
  }

  /** The plaintext, or undefined when the value was sealed under another key or was altered. */
  open(sealed: string, userId: string): string | undefined {
    const [version, keyId, iv, tag, ciphertext] = sealed.split('.');
    if (version !== SEALED_VERSION || keyId !== this.keyId || !iv || !tag || !ciphertext) {
      return undefined;
    }
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.#key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(userId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([
        decipher.update(Buffer.from(ciphertext, 'base64url')),
        decipher.final(),
      ]).toString('utf8');
    } catch {
      return undefined;
    }
  }

  /** What is stored of a backup code: a keyed digest, useless without TWO_FACTOR_KEY. */
  backupDigest(code: string): string {
    return createHmac('sha256', this.#backupKey).update(code).digest('base64url');
  }
}

/** The service's TOTP parameters for a base32 secret (what authenticator apps are told). */
export function totpFor(secret: string, label: string, issuer = ''): TOTP {
  return new TOTP({
    issuer,
    label,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secret),
  });
}

/** The step a timestamp falls in. */
export const totpStep = (timestampMs: number) =>
  Math.floor(timestampMs / 1000 / TOTP_PERIOD_SECONDS);

/** Backup codes: 10 characters without look-alikes (~49 bits), shown as `abcde-fghjk`. */
const BACKUP_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
function newBackupCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += BACKUP_ALPHABET[randomInt(BACKUP_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}
const normaliseBackupCode = (code: string) => code.toLowerCase().replace(/[\s-]/g, '');

const TOTP_CODE = /^\d{6}$/;
const BACKUP_CODE = /^[a-z0-9]{10}$/;

export interface TwoFactorSetup {
  /** Base32, for typing into an app. */
  secret: string;
  /** `otpauth://totp/...`, for a QR code. */
  url: string;
}

/** The lock-out key of a user's second factor: wrong codes from any route count together. */
export const twoFactorLockKey = (userId: string) =>
  createHash('sha256').update(`totp\0${userId}`).digest('base64url');

export class TwoFactor {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly box: SecretBox | undefined,
    private readonly lockout: Lockout,
    /** Shown in authenticator apps above the account name. */
    private readonly issuer: string,
    private readonly now: () => Date,
  ) {}

  /** Whether logins of this user need a code. */
  async isEnabled(userId: string): Promise<boolean> {
    const row = await this.db
      .selectFrom('two_factor')
      .select('enabled')
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return row?.enabled === true;
  }

  #requireBox(): SecretBox {
    if (!this.box) throw twoFactorUnavailable();
    return this.box;
  }

  /**
   * Starts enabling TOTP: a new secret, returned this once. Calling it again before the first code
   * replaces the secret (the user may have lost the QR code); once enabled it is refused.
   */
  async begin(user: { id: string; username: string }): Promise<TwoFactorSetup> {
    const box = this.#requireBox();
    const secret = new Secret({ size: 20 });
    const sealed = box.seal(secret.base32, user.id);
    const row = await this.db
      .insertInto('two_factor')
      .values({ user_id: user.id, secret_ciphertext: sealed })
      .onConflict((conflict) =>
        conflict
          .column('user_id')
          .doUpdateSet({ secret_ciphertext: sealed, backup_codes: '[]', last_used_step: 0 })
          .where('two_factor.enabled', '=', false),
      )
      .returning('user_id')
      .executeTakeFirst();
    if (!row) throw new ChatError(409, 'totp-already-enabled', 'TOTP is already enabled');
    const totp = this.#totp(secret.base32, user.username);
    return { secret: secret.base32, url: totp.toString() };
  }

  /**
   * Ends the enabling with a first code; returns the backup codes, this once. Wrong codes count
   * against the user's lock-out like any other.
   */
  async confirm(userId: string, code: string): Promise<string[]> {
    const box = this.#requireBox();
    const row = await this.#row(userId);
    if (!row) throw invalidRequest('TOTP is not being enabled: call users.2fa.enableTOTP first');
    if (row.enabled) throw new ChatError(409, 'totp-already-enabled', 'TOTP is already enabled');
    await this.#checked(userId, () => this.#acceptTotp(box, row, code, false));
    const codes = Array.from({ length: BACKUP_CODE_COUNT }, newBackupCode);
    const digests = codes.map((backup) => box.backupDigest(normaliseBackupCode(backup)));
    const updated = await this.db
      .updateTable('two_factor')
      .set({ enabled: true, enabled_at: this.now(), backup_codes: JSON.stringify(digests) })
      .where('user_id', '=', userId)
      .where('enabled', '=', false)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      throw new ChatError(409, 'totp-already-enabled', 'TOTP is already enabled');
    }
    return codes;
  }

  /** Turns TOTP off; needs a valid code (or a backup code). */
  async disable(userId: string, code: string): Promise<void> {
    const box = this.#requireBox();
    const row = await this.#row(userId);
    if (!row?.enabled) throw invalidRequest('TOTP is not enabled');
    await this.#checked(userId, () => this.#accept(box, row, code));
    await this.db.deleteFrom('two_factor').where('user_id', '=', userId).execute();
  }

  /**
   * The second factor of a login: nothing when the user has no TOTP; else the `X-2FA-Code` must
   * be a valid, unused code. No code: `totp-required` (not counted: it is how a client learns
   * that it must ask); a wrong one: `totp-invalid`, counted against the user's lock-out.
   * Returns whether a code was checked: when none was, the caller opens the session under
   * `fenceSession` (enabling TOTP may be committing at the same moment).
   */
  async requireForLogin(userId: string, headers: TwoFactorHeaders): Promise<boolean> {
    const row = await this.#row(userId);
    if (!row?.enabled) return false;
    if (headers.code === undefined || headers.code === '') throw totpRequired();
    if (headers.method !== undefined && headers.method !== 'totp') {
      throw invalidRequest('X-2FA-Method: only "totp" is offered');
    }
    const box = this.#requireBox();
    const code = headers.code;
    await this.#checked(userId, () => this.#accept(box, row, code));
    return true;
  }

  /**
   * Opens a session for a login that found TOTP off, fenced against a confirmation committing
   * meanwhile. Confirming commits `enabled`, then ends the user's other sessions; here the session
   * is inserted (committed), then TOTP is read again. Each statement sees every commit before it
   * (READ COMMITTED, and the embedded store runs one at a time), so either this read sees the
   * confirmation, and the session is ended here, or the confirmation committed after the session
   * did, and its revocation ends it. No lock is held between the two.
   * `useCredential` (what makes the login's credential single-use) runs only once the fence let
   * the session stand: a `totp-required` from the fence leaves the credential for the retry with
   * a code, and a credential found used ends the session it would have opened.
   */
  async fenceSession(
    userId: string,
    open: () => Promise<string>,
    revoke: (token: string) => Promise<void>,
    useCredential: () => Promise<void>,
  ): Promise<string> {
    const token = await open();
    try {
      if (await this.isEnabled(userId)) throw totpRequired();
      await useCredential();
    } catch (error) {
      await revoke(token);
      throw error;
    }
    return token;
  }

  /** Runs a code check under the user's lock-out: a wrong code is a counted failure. */
  async #checked(userId: string, check: () => Promise<boolean>): Promise<void> {
    const attempt = await this.lockout.begin(twoFactorLockKey(userId));
    let accepted: boolean;
    try {
      accepted = await check();
    } catch (error) {
      await attempt.release();
      throw error;
    }
    if (!accepted) {
      await attempt.failed();
      throw totpInvalid();
    }
    await attempt.succeeded();
  }

  /** A TOTP code of an enabled secret, or one of the backup codes (used up). */
  async #accept(box: SecretBox, row: TwoFactorRow, code: string): Promise<boolean> {
    if (TOTP_CODE.test(code)) return this.#acceptTotp(box, row, code, true);
    const backup = normaliseBackupCode(code);
    if (!BACKUP_CODE.test(backup)) return false;
    const digest = box.backupDigest(backup);
    // Removing the digest is the check: of two concurrent uses of one code, one removes it.
    const used = await this.db
      .updateTable('two_factor')
      .set({ backup_codes: sql`backup_codes - ${digest}::text` })
      .where('user_id', '=', row.user_id)
      .where('enabled', '=', true)
      .where(sql<boolean>`jsonb_exists(backup_codes, ${digest}::text)`)
      .executeTakeFirst();
    return Number(used.numUpdatedRows) > 0;
  }

  /**
   * A code of the step before, at or after now; accepted only if that step is later than the
   * last accepted one, recorded in the same statement (so a replay fails on every instance).
   */
  async #acceptTotp(
    box: SecretBox,
    row: TwoFactorRow,
    code: string,
    enabled: boolean,
  ): Promise<boolean> {
    if (!TOTP_CODE.test(code)) return false;
    const secret = box.open(row.secret_ciphertext, row.user_id);
    if (secret === undefined) throw twoFactorUnavailable('the TOTP secret cannot be decrypted');
    const timestamp = this.now().getTime();
    const delta = this.#totp(secret, '').validate({ token: code, timestamp, window: TOTP_WINDOW });
    if (delta === null) return false;
    const step = totpStep(timestamp) + delta;
    const recorded = await this.db
      .updateTable('two_factor')
      .set({ last_used_step: step })
      .where('user_id', '=', row.user_id)
      .where('enabled', '=', enabled)
      .where('last_used_step', '<', step)
      .executeTakeFirst();
    return Number(recorded.numUpdatedRows) > 0;
  }

  #totp(secret: string, label: string): TOTP {
    return totpFor(secret, label, this.issuer);
  }

  #row(userId: string): Promise<TwoFactorRow | undefined> {
    return this.db
      .selectFrom('two_factor')
      .select(['user_id', 'secret_ciphertext', 'enabled'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
  }
}

interface TwoFactorRow {
  user_id: string;
  secret_ciphertext: string;
  enabled: boolean;
}

export interface TwoFactorHeaders {
  code: string | undefined;
  method: string | undefined;
}

/**
 * `X-2FA-Code` and `X-2FA-Method` as sent; a repeated header counts as absent, and an absurdly long
 * one is cut (it then matches no code and counts as a wrong one).
 */
export function twoFactorHeaders(headers: Record<string, unknown>): TwoFactorHeaders {
  const one = (value: unknown) =>
    typeof value === 'string' ? value.slice(0, 65).trim() : undefined;
  return { code: one(headers['x-2fa-code']), method: one(headers['x-2fa-method']) };
}
