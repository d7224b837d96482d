import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestContext } from '../helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());

const post = (headers: Record<string, unknown>) =>
  ctx.as('admin', {
    method: 'POST',
    url: '/webhooks',
    payload: { name: 'refused headers', url: 'https://hooks.example.com/in', headers },
  });

describe('a webhook header the delivery sets itself, or a name that is no header name', () => {
  it('is refused with 400 naming the header and why, in the error shape', async () => {
    for (const [name, reason] of [
      ['Host', 'set by the delivery itself; remove it'],
      ['content-TYPE', 'set by the delivery itself; remove it'],
      ['Content-Length', 'set by the delivery itself; remove it'],
      ['Expect', 'set by the delivery itself; remove it'],
      [
        'Content-Encoding',
        'the delivery sends its JSON body as it is, which this would misdescribe; remove it',
      ],
      ['Connection', 'a hop-by-hop header, which a proxy would not pass on; remove it'],
      ['Transfer-Encoding', 'a hop-by-hop header, which a proxy would not pass on; remove it'],
      ['X-Hook-Signature', 'the delivery signs each request with it; remove it'],
      ['webhook-id', 'the delivery signs each request with it; remove it'],
    ] as const) {
      const answer = await post({ [name]: 'v' });
      expect(answer.statusCode, name).toBe(400);
      expect(answer.json(), name).toMatchObject({ message: `headers.${name}: ${reason}` });
    }
    for (const name of ['Bad Name', 'x'.repeat(65), 'X:Y']) {
      const answer = await post({ [name]: 'v' });
      expect(answer.statusCode, name).toBe(400);
      expect(answer.json().message, name).toBe(
        `headers.${name.includes(' ') ? JSON.stringify(name) : name}: not a header name (1 to 64 letters, digits and !#$%&'*+.^_\`|~-)`,
      );
    }
  });

  it('keeps a schema in the OpenAPI document that says which names are refused', async () => {
    const document = (await ctx.app.inject({ url: '/openapi.json' })).json();
    const text = JSON.stringify(document);
    expect(text).toContain('propertyNames');
    const headers =
      document.paths['/webhooks'].post.requestBody.content['application/json'].schema.anyOf[0]
        .properties.headers;
    expect(headers.description).toMatch(/Host, Content-Type/);
    expect(headers.propertyNames.pattern).toBeDefined();
  });
});
