import { describe, expect, it } from 'vitest';
import { serializerCompiler } from '../src/http/serialization.js';
import { createValidatorCompiler } from '../src/http/validation.js';

/**
 * Fastify asks for every route's validators and serializers when the server starts; they are
 * compiled at their route's first request instead (a fifth of a start's CPU). A schema the
 * compiler cannot resolve shows when the work happens: not when Fastify asks, but at first use.
 */
const unresolvable = {
  type: 'object',
  properties: { name: { $ref: '#/definitions/missing' } },
};

describe('route schemas compiled at first use', () => {
  it('compiles a validator at its first call, and reports its errors', () => {
    const compile = createValidatorCompiler();
    const validate = compile({ schema: unresolvable, httpPart: 'body', method: 'POST', url: '/' });
    expect(() => validate({ name: 'x' })).toThrow(/missing/);

    const valid = compile({
      schema: { type: 'object', properties: { n: { type: 'integer' } } },
      httpPart: 'querystring',
      method: 'GET',
      url: '/',
    }) as ((data: unknown) => boolean) & { errors?: unknown };
    expect(valid({ n: '5' })).toBe(true);
    expect(valid({ n: 'five' })).toBe(false);
    expect(valid.errors).toEqual([
      expect.objectContaining({ instancePath: '/n', keyword: 'type' }),
    ]);
  });

  it('compiles a serializer at its first call', () => {
    const serialize = serializerCompiler({
      schema: unresolvable,
      method: 'GET',
      url: '/',
      httpStatus: '200',
    }) as (data: unknown) => string;
    expect(() => serialize({ name: 'x' })).toThrow();
  });
});
