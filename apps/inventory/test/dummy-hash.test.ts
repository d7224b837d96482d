import { describe, expect, it } from 'vitest';
import { dummyHashFor, PasswordHasher } from '../src/auth/passwords.js';

describe('the dummy hash an unknown user is verified against', () => {
  it('is one per cost, however many hashers a process builds', async () => {
    // A start builds one hasher for seeding the accounts and one for the app's routes: both
    // verify an unknown user against the same hash, computed once.
    const cost = { memoryCost: 1_031, timeCost: 1 };
    const shared = dummyHashFor(cost);
    expect(dummyHashFor({ ...cost })).toBe(shared);
    const seeding = new PasswordHasher(cost);
    const routes = new PasswordHasher({ ...cost });
    expect(await seeding.verify(undefined, 'guess')).toBe(false);
    expect(await routes.verify(undefined, 'guess')).toBe(false);
    expect(dummyHashFor(cost)).toBe(shared);
    expect(await shared).toMatch(/^\$argon2id\$v=19\$m=1031,t=1,/);

    // Another cost has its own: a dummy of another cost would verify at another price.
    const other = dummyHashFor({ memoryCost: 1_033, timeCost: 1 });
    expect(other).not.toBe(shared);
    expect(await other).toMatch(/^\$argon2id\$v=19\$m=1033,t=1,/);
  });

  it('still rejects every password, and real hashes still verify', async () => {
    const hasher = new PasswordHasher({ memoryCost: 1_031, timeCost: 1 });
    const stored = await hasher.hash('correct horse');
    expect(await hasher.verify(stored, 'correct horse')).toBe(true);
    expect(await hasher.verify(stored, 'wrong')).toBe(false);
    expect(await hasher.verify(undefined, 'correct horse')).toBe(false);
    expect(await hasher.verify(undefined, '')).toBe(false);
  });
});
