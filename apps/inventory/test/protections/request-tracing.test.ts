import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestIdFor, requestTraceOf } from '../../src/protections/index.js';
import { buildTestApp } from './helpers.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('request id and response time', () => {
  let app: FastifyInstance;
  const logLines: Array<Record<string, unknown>> = [];
  beforeAll(async () => {
    const sink = new Writable({
      write(chunk, _encoding, done) {
        for (const line of String(chunk).split('\n').filter(Boolean))
          logLines.push(JSON.parse(line));
        done();
      },
    });
    app = await buildTestApp({
      server: { logger: { level: 'info', stream: sink } },
      routes: (app) => {
        app.get('/slow-for-timing', async () => {
          await new Promise((resolve) => setTimeout(resolve, 60));
          return {};
        });
        app.get('/trace', async (request) => requestTraceOf(request));
      },
    });
  });
  afterAll(() => app.close());

  it('keeps a well-formed incoming X-Request-Id, echoes it and logs it as reqId', async () => {
    const id = 'edge-proxy:01HZX.42_a-b';
    const response = await app.inject({ url: '/whoami', headers: { 'x-request-id': id } });
    expect(response.headers['x-request-id']).toBe(id);
    expect(response.json()).toMatchObject({ id });
    const lines = logLines.filter((line) => line.reqId === id);
    expect(lines.map((line) => line.msg)).toEqual(['incoming request', 'request completed']);
  });

  it.each([
    ['too long', 'a'.repeat(129)],
    ['with spaces', 'two words'],
    ['with a forged log line', 'x\n{"level":60}'.replace('\n', '%0A')],
    ['empty', ''],
    ['with quotes', '"id"'],
  ])('replaces an incoming id %s with a fresh UUID', async (_name, id) => {
    const response = await app.inject({ url: '/whoami', headers: { 'x-request-id': id } });
    expect(response.headers['x-request-id']).toMatch(UUID);
    expect(response.json().id).toBe(response.headers['x-request-id']);
  });

  it('makes a different UUID for each request without one', async () => {
    const ids = new Set<unknown>();
    for (let i = 0; i < 5; i++)
      ids.add((await app.inject({ url: '/hello' })).headers['x-request-id']);
    expect(ids.size).toBe(5);
    for (const id of ids) expect(id).toMatch(UUID);
  });

  it('accepts exactly 128 characters of the allowed alphabet', () => {
    const id = 'A1._:-'.repeat(21).concat('zz');
    expect(id).toHaveLength(128);
    expect(requestIdFor({ headers: { 'x-request-id': id } } as never)).toBe(id);
  });

  it.each([
    ['a success', { url: '/hello' }, 200],
    ['a 404', { url: '/nowhere' }, 404],
    ['a 400', { url: '/search?q=<b>x</b>' }, 400],
  ])('puts X-Request-Id and X-Response-Time on %s', async (_name, request, status) => {
    const response = await app.inject(request);
    expect(response.statusCode).toBe(status);
    expect(response.headers['x-request-id']).toMatch(UUID);
    expect(response.headers['x-response-time']).toMatch(/^\d+\.\d{3}ms$/);
  });

  it('measures the time spent in the request', async () => {
    const response = await app.inject({ url: '/slow-for-timing' });
    const ms = Number.parseFloat(String(response.headers['x-response-time']));
    expect(ms).toBeGreaterThanOrEqual(55);
    expect(ms).toBeLessThan(5000);
  });

  it('hands audit rows the request id and client IP', async () => {
    const response = await app.inject({
      url: '/trace',
      headers: { 'x-request-id': 'trace-1' },
      remoteAddress: '198.51.100.9',
    });
    expect(response.json()).toEqual({ requestId: 'trace-1', clientIp: '198.51.100.9' });
  });
});
