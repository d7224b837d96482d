import { describe, expect, it } from 'vitest';
import { useTestApp } from './helpers.js';

/**
 * A query value outside its grammar is refused with a sentence that reads: the parameter, the
 * value, and what is wrong with it or what the parameter takes. A parameter's documentation is
 * not that (`expected An attempt id: older ones.` said nothing a client could act on).
 */
const ctx = useTestApp();

const CONTROL = 'must not contain control characters (U+0000 to U+001F, U+007F)';

const messageOf = async (url: string) => {
  const response = await ctx.as('admin', { method: 'GET', url });
  expect(response.statusCode, response.body).toBe(400);
  return response.json().message as string;
};

describe('messages of query values outside their grammar', () => {
  it('a control character is named as such, in any filter or lookup', async () => {
    expect(await messageOf('/devices?hostname__in=a%0A')).toBe(
      `Invalid hostname__in "a\\n": ${CONTROL}`,
    );
    expect(await messageOf('/devices?hostname=a%0A')).toBe(`Invalid hostname "a\\n": ${CONTROL}`);
    expect(await messageOf('/devices?q=a%09b')).toBe(`Invalid q "a\\tb": ${CONTROL}`);
  });

  it('a value of the wrong form says what the parameter takes', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    expect(await messageOf(`/webhooks/${id}/deliveries?before=abc`)).toBe(
      'Invalid before "abc": expected an attempt id (a positive integer)',
    );
    expect(await messageOf('/devices?sortby=nope:asc')).toMatch(
      /^Invalid sortby "nope:asc": expected `<field>:asc` or `<field>:desc`, where <field> is one of hostname, /,
    );
    expect(await messageOf('/interfaces?mac_address=zz')).toBe(
      'Invalid mac_address "zz": expected a MAC address such as 00:1a:2b:3c:4d:5e',
    );
    expect(await messageOf('/devices?tags=Bad%20Tag')).toBe(
      'Invalid tags "Bad Tag": expected a tag: 1 to 64 lower-case letters, digits, - and _',
    );
  });
});
