import { describe, expect, it } from 'vitest';
import { maskUrl } from '../src/index.js';

/**
 * The store's description (`storage: PostgreSQL at …`, printed at every start) and the test
 * helper's messages show a database URL through maskUrl: no secret it may hold is shown.
 */
describe('maskUrl', () => {
  it('masks the password and every query value (pg reads ?password= as the password)', () => {
    const shown = maskUrl(
      'postgres://postgres:S3cretPw@127.0.0.1:5432/review_chat?password=QueryPw&sslpassword=KeyPw&sslmode=require',
    );
    expect(shown).toBe(
      'postgres://postgres:***@127.0.0.1:5432/review_chat?password=***&sslpassword=***&sslmode=***',
    );
  });

  it('drops a fragment, and leaves a URL without secrets as it is', () => {
    expect(maskUrl('postgres://db.example.com/app#Secret')).toBe('postgres://db.example.com/app');
    expect(maskUrl('postgres://app@db.example.com:5433/app')).toBe(
      'postgres://app@db.example.com:5433/app',
    );
  });

  it('never shows an unparsable URL', () => {
    expect(maskUrl('postgres://u:p@[bad/x?password=Secret')).toBe('postgres://(unparsable URL)');
  });
});
