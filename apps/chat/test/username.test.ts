import { describe, expect, it } from 'vitest';
import type { NormalisedIdentity } from '../src/providers/types.js';
import {
  baseUsername,
  normaliseHandle,
  USERNAME_PATTERN,
  withSuffix,
} from '../src/users/username.js';

const identity = (fields: Partial<NormalisedIdentity>): NormalisedIdentity => ({
  provider: 'p',
  id: '1',
  name: undefined,
  username: undefined,
  email: undefined,
  emailVerified: false,
  avatarUrl: undefined,
  ...fields,
});

describe('usernames', () => {
  it.each([
    ['Ada_Lovelace', 'ada_lovelace'],
    ['José Álvarez', 'jose.alvarez'],
    ['..--weird--..', 'weird'],
    // Letter case is not kept; an underscore at either end is part of the handle.
    ['GraceHopper_', 'gracehopper_'],
    ['_private_', '_private_'],
    ['<script>alert(1)</script>', 'scriptalert1script'],
    ['ÅNGSTRÖM', 'angstrom'],
    ['a'.repeat(40), 'a'.repeat(32)],
    ['日本語', ''],
  ])('normalises %j to %j', (raw, expected) => {
    expect(normaliseHandle(raw)).toBe(expected);
  });

  it('falls back from handle to e-mail local part to name to "user"', () => {
    expect(baseUsername(identity({ username: 'octocat', email: 'x@y.z' }))).toBe('octocat');
    expect(baseUsername(identity({ username: '日本', email: 'grace.h@example.com' }))).toBe(
      'grace.h',
    );
    expect(baseUsername(identity({ email: 'ab@example.com', name: 'Grace Hopper' }))).toBe(
      'grace.hopper',
    );
    expect(baseUsername(identity({ name: '李' }))).toBe('user');
  });

  it('keeps suffixed names within the length limit and the allowed characters', () => {
    const long = 'x'.repeat(32);
    expect(withSuffix(long, 12345)).toBe(`${'x'.repeat(27)}12345`);
    expect(withSuffix('ada', 2)).toBe('ada2');
    for (const name of [withSuffix(long, 999_999_999), baseUsername(identity({}))]) {
      expect(name).toMatch(USERNAME_PATTERN);
    }
  });

  it('refuses path-like candidates and reserved names, falling back to the next candidate', () => {
    const reserved = new Set(['admin', 'root']);
    expect(baseUsername(identity({ username: '../../admin', name: 'Eve Smith' }), reserved)).toBe(
      'eve.smith',
    );
    expect(baseUsername(identity({ username: 'a/b/c', email: 'carol@x.example' }))).toBe('carol');
    expect(baseUsername(identity({ username: 'ROOT', email: 'admin@x.example' }), reserved)).toBe(
      'user',
    );
    expect(baseUsername(identity({ username: 'rooty' }), reserved)).toBe('rooty');
    expect(baseUsername(identity({ username: 'admin' }))).toBe('admin');
  });
});
