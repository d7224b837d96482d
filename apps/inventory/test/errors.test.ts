import type { KyselyPlugin } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { translateDatabaseError } from '../src/db/errors.js';
import { constraintMessages } from '../src/resources/index.js';
import { create, startTestApp, type TestContext, testConfig } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await startTestApp();
});
afterAll(() => ctx?.close());
beforeEach(() => ctx.reset());

describe('service routes', () => {
  it('GET / names API version 1 in plain text, without a token', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toMatch(/version 1\b/);
  });

  it('GET /debug/count is public and counts devices', async () => {
    const before = await ctx.app.inject({ method: 'GET', url: '/debug/count' });
    expect(before.json()).toEqual({ count: 0 });
    await create(ctx, 'devices', { hostname: 'a', ip: '10.0.0.1' });
    await create(ctx, 'devices', { hostname: 'b', ip: '10.0.0.2' });
    await create(ctx, 'locations', { name: 'not a device' });
    const after = await ctx.app.inject({ method: 'GET', url: '/debug/count' });
    expect(after.json()).toEqual({ count: 2 });
  });
});

describe('errors are JSON {status, message}', () => {
  it('404 for an unknown route, whoever asks', async () => {
    for (const role of [undefined, 'viewer'] as const) {
      const response = await ctx.as(role, { method: 'GET', url: '/nothing/here' });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({
        status: 'error',
        message: 'Route GET /nothing/here not found',
      });
    }
  });

  it('405 with Allow for a method the path does not serve', async () => {
    const collection = await ctx.as('admin', { method: 'PUT', url: '/devices' });
    expect(collection.statusCode).toBe(405);
    expect(collection.json()).toEqual({ status: 'error', message: 'Method PUT not allowed' });
    const allow = collection.headers.allow?.toString().split(', ');
    expect(allow).toEqual(expect.arrayContaining(['DELETE', 'GET', 'PATCH', 'POST']));
    expect(allow).not.toContain('PUT');

    const count = await ctx.as('admin', {
      method: 'POST',
      url: '/devices/01900000-0000-7000-8000-000000000000/interfacecount',
    });
    expect(count.statusCode).toBe(405);
    expect(count.headers.allow).toContain('GET');
  });

  it('400 for malformed JSON, 415 for another media type, 413 for a body over 1 MB', async () => {
    const malformed = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      headers: { 'content-type': 'application/json' },
      payload: '{"name": ',
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ status: 'error', message: 'Malformed JSON body' });

    const text = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      headers: { 'content-type': 'text/plain' },
      payload: 'name=x',
    });
    expect(text.statusCode).toBe(415);
    expect(text.json().status).toBe('error');

    const huge = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      payload: { name: 'x', address: 'a'.repeat(1024 * 1024) },
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ status: 'error', message: 'Request body too large' });

    const wrongShape = await ctx.as('admin', { method: 'POST', url: '/locations', payload: [1] });
    expect(wrongShape.statusCode).toBe(400);
  });

  it('500 for the unexpected, with no detail leaked', async () => {
    // Fails every statement once the app is built. Failing where a statement is compiled would
    // not do: the service compiles each statement's shape once per process, so a list another
    // test already ran would never be compiled again.
    let failing = false;
    const failEveryStatement: KyselyPlugin = {
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        if (failing) throw new Error('connection secret detail');
        return args.result;
      },
    };
    const broken = await buildApp(testConfig(), {
      store: { ...ctx.store, db: ctx.store.db.withPlugin(failEveryStatement) },
    });
    failing = true;
    try {
      const response = await broken.inject({
        method: 'GET',
        url: '/devices',
        headers: { authorization: `Bearer ${ctx.tokens.viewer}` },
      });
      expect(response.statusCode).toBe(500);
      expect(response.json()).toEqual({ status: 'error', message: 'Internal Server Error' });
    } finally {
      await broken.close();
    }
  });
});

describe('database constraint violations become client errors', () => {
  const messages = constraintMessages();
  const violation = async (work: () => Promise<unknown>) => {
    try {
      await work();
    } catch (error) {
      return translateDatabaseError(error, messages);
    }
    throw new Error('expected the database to refuse');
  };
  // Written past the API on purpose: the database is the last line, and its answers must be
  // clear whichever driver reports them.
  const db = () => ctx.store.db.withTables<{ devices: Record<string, unknown> }>();

  it('unique -> 409 naming the field; check, type and range -> 400', async () => {
    const row = { hostname: 'r', ip: '10.0.0.1' };
    await db()
      .insertInto('devices')
      .values({ id: crypto.randomUUID(), ...row })
      .execute();
    const unique = await violation(() =>
      db()
        .insertInto('devices')
        .values({ id: crypto.randomUUID(), ...row })
        .execute(),
    );
    expect(unique).toMatchObject({ statusCode: 409, message: 'Hostname already exists' });

    const check = await violation(() =>
      db()
        .insertInto('devices')
        .values({ id: crypto.randomUUID(), hostname: 's', ip: '10.0.0.1', status: 'x' })
        .execute(),
    );
    expect(check).toMatchObject({ statusCode: 400, message: 'Invalid value for status' });

    const badIp = await violation(() =>
      db()
        .insertInto('devices')
        .values({ id: crypto.randomUUID(), hostname: 't', ip: 'nope' })
        .execute(),
    );
    expect(badIp?.statusCode).toBe(400);

    const foreign = await violation(() =>
      db()
        .insertInto('devices')
        .values({
          id: crypto.randomUUID(),
          hostname: 'u',
          ip: '10.0.0.1',
          location_id: crypto.randomUUID(),
        })
        .execute(),
    );
    expect(foreign).toMatchObject({ statusCode: 400, message: 'location_id: Location not found' });

    const notNull = await violation(() =>
      db().insertInto('devices').values({ id: crypto.randomUUID(), hostname: 'v' }).execute(),
    );
    expect(notNull).toMatchObject({ statusCode: 400, message: 'ip must not be null' });
  });

  it('text PostgreSQL cannot store is a 400, in bodies and in filters', async () => {
    const body = await ctx.as('admin', {
      method: 'POST',
      url: '/locations',
      payload: { name: 'a\u0000b' },
    });
    expect(body.statusCode).toBe(400);
    const filter = await ctx.as('admin', { method: 'GET', url: '/locations?name=a%00b' });
    expect(filter.statusCode).toBe(400);
  });

  it('leaves other errors alone (they are 500s)', () => {
    expect(translateDatabaseError(new Error('boom'), messages)).toBeUndefined();
  });
});
