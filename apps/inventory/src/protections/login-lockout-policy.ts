/**
 * How password guessing is bounded per account (README "Authentication and roles"; enforced by
 * src/auth/login-lockout.ts). Read from the LOGIN_* variables with protections/config.ts.
 */
export interface LoginLockoutPolicy {
  /** Failed logins for one account from one address before that pair waits. */
  failuresPerAddress: number;
  /** First wait of a pair; doubles with each further failure, up to maxDelayMs. */
  addressFirstDelayMs: number;
  /** Failed logins for one account from all addresses together before the account waits. */
  failuresPerAccount: number;
  /** First wait of an account; doubles with each further failure, up to maxDelayMs. */
  accountFirstDelayMs: number;
  /** Longest wait. */
  maxDelayMs: number;
  /** Failures are forgotten this long after the last one. */
  forgetAfterMs: number;
  /**
   * An address that signed in to an account within this long is exempt from the account's wait
   * (never from its own pair's): strangers cannot lock the owner out from where they work.
   */
  knownAddressMs: number;
  /** Known addresses kept per account (the most recent). */
  knownAddressesPerAccount: number;
  /** Records an instance keeps in memory (without Redis); active waits are never evicted. */
  maxRecords: number;
}

export const DEFAULT_LOGIN_LOCKOUT: LoginLockoutPolicy = {
  failuresPerAddress: 5,
  addressFirstDelayMs: 60_000,
  failuresPerAccount: 20,
  accountFirstDelayMs: 1000,
  maxDelayMs: 15 * 60_000,
  forgetAfterMs: 24 * 60 * 60_000,
  knownAddressMs: 30 * 24 * 60 * 60_000,
  knownAddressesPerAccount: 10,
  maxRecords: 100_000,
};
