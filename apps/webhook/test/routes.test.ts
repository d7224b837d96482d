import { describe, expect, it } from 'vitest';
import type { RouteSpec } from '../src/config/types.js';
import { BUILT_IN_RESPONSE } from '../src/config/types.js';
import {
  createResponder,
  createRouter,
  findRoute,
  prepareResponse,
  routeMatches,
} from '../src/respond/routes.js';

const response = (body: string) => ({ status: 200, headers: [], body });
const route = (path: string, method: string | null, body = path): RouteSpec => ({
  path,
  method,
  response: response(body),
});

describe('route matching', () => {
  it.each([
    // route path, route method, request method, request path, matches
    ['/hooks', null, 'GET', '/hooks', true],
    ['/hooks', null, 'DELETE', '/hooks', true],
    ['/hooks', 'POST', 'post', '/hooks', true],
    ['/hooks', 'POST', 'GET', '/hooks', false],
    ['/hooks', null, 'GET', '/hooks/', false],
    ['/hooks', null, 'GET', '/hooksx', false],
    ['/hooks/*', null, 'GET', '/hooks', true],
    ['/hooks/*', null, 'GET', '/hooks/', true],
    ['/hooks/*', null, 'GET', '/hooks/a/b/c', true],
    ['/hooks/*', null, 'GET', '/hooksx', false],
    ['/*', null, 'PATCH', '/anything/at/all', true],
    ['/a b', null, 'GET', '/a b', true],
  ] as const)('%s %s ~ %s %s: %s', (path, method, requestMethod, requestPath, expected) => {
    expect(routeMatches(route(path, method), requestMethod, requestPath)).toBe(expected);
  });

  it('takes the first matching route in file order', () => {
    const routes = [
      route('/hooks/github', 'POST', 'github post'),
      route('/hooks/*', null, 'any hook'),
      route('/hooks/github', null, 'never reached'),
    ];
    expect(findRoute(routes, 'POST', '/hooks/github')?.response?.body).toBe('github post');
    expect(findRoute(routes, 'GET', '/hooks/github')?.response?.body).toBe('any hook');
    expect(findRoute(routes, 'GET', '/other')).toBeNull();
  });

  it('answers the default response when nothing matches', () => {
    const respond = createResponder(BUILT_IN_RESPONSE, [route('/a', 'GET', 'a')]);
    expect(respond('GET', '/a').body.toString()).toBe('a');
    const fallback = respond('POST', '/a');
    expect(fallback.status).toBe(200);
    expect(fallback.body.toString()).toBe('{"status":"ok"}');
    expect(fallback.headers).toEqual([['Content-Type', 'application/json']]);
  });
});

describe('route decisions', () => {
  const github = { scheme: 'github', secret: 'top-level', toleranceSeconds: 300 } as const;
  const router = createRouter({
    defaultResponse: BUILT_IN_RESPONSE,
    defaultForward: 'http://127.0.0.1:4000',
    defaultVerify: github,
    routes: [
      { path: '/quiet', method: null, response: null, forward: false, verify: false },
      { path: '/quiet', method: null, response: null, forward: 'http://x', verify: github },
      { path: '/plain', method: null, response: null },
    ],
  });

  it('`forward: false` and `verify: false` switch off the top-level settings for the route', () => {
    expect(router('POST', '/quiet')).toMatchObject({ forward: null, verify: null });
  });

  it('a route that leaves them out keeps the top-level settings', () => {
    expect(router('POST', '/plain')).toMatchObject({
      forward: { base: 'http://127.0.0.1:4000', route: null },
      verify: github,
    });
  });
});

describe('response headers', () => {
  it('adds a Content-Type from the body when none is configured', () => {
    expect(prepareResponse(response('{"a":1}')).headers).toEqual([
      ['Content-Type', 'application/json'],
    ]);
    expect(prepareResponse(response('thanks')).headers).toEqual([
      ['Content-Type', 'text/plain; charset=utf-8'],
    ]);
    expect(prepareResponse(response('')).headers).toEqual([]);
  });

  it('keeps a configured Content-Type, whatever its case', () => {
    const spec = { status: 201, headers: [['content-type', 'text/xml']] as const, body: '<a/>' };
    expect(prepareResponse(spec).headers).toEqual([['content-type', 'text/xml']]);
  });
});
