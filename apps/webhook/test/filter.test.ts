import { describe, expect, it } from 'vitest';
import { type CapturedRequest, StoredRequest } from '../src/capture/record.js';
import { type Filter, matches, narrows, parseFilter } from '../src/ui/filter.js';
import { makeRecord } from './helpers.js';

function filter(text: string): Filter {
  const parsed = parseFilter(text);
  if (!parsed.ok) throw new Error(parsed.error);
  return parsed.filter;
}
const errorOf = (text: string) => {
  const parsed = parseFilter(text);
  return parsed.ok ? null : parsed.error;
};

const push = makeRecord({
  method: 'POST',
  path: '/hooks/github',
  target: '/hooks/github?delivery=1',
  headers: [
    ['Host', '127.0.0.1:9080'],
    ['X-GitHub-Event', 'push'],
    ['User-Agent', 'GitHub-Hookshot/5c2d1a0'],
    ['X-Author', Buffer.from('Zoë', 'utf8').toString('latin1')],
  ],
  body: Buffer.from('{"ref":"refs/heads/main","message":"Fix VLAN filter"}'),
});
const stripe = makeRecord({
  method: 'post',
  path: '/hooks/stripe/events',
  headers: [['Stripe-Signature', 't=1,v1=abc']],
  body: Buffer.from('{"type":"invoice.paid","amount":12.50}'),
});
const health = makeRecord({ method: 'GET', path: '/health' });
const binary = makeRecord({ method: 'PUT', path: '/upload', body: Buffer.from([0, 0xff, 0x41]) });
const all = [push, stripe, health, binary];
const matching = (text: string, list: CapturedRequest[] = all) =>
  list.filter((record) => matches(filter(text), record));

describe('filter language', () => {
  it('plain text searches method, path, headers and body, any case', () => {
    expect(matching('github')).toEqual([push]);
    expect(matching('PUSH')).toEqual([push]);
    expect(matching('vlan')).toEqual([push]);
    expect(matching('invoice.paid')).toEqual([stripe]);
    expect(matching('get')).toEqual([health]);
    expect(matching('delivery=1')).toEqual([push]);
    expect(matching('zoë')).toEqual([push]);
    expect(matching('nothing-like-this')).toEqual([]);
  });

  it('an empty filter matches everything', () => {
    expect(matching('')).toEqual(all);
    expect(matching('   ')).toEqual(all);
  });

  it('method: matches the method in any case', () => {
    expect(matching('method:POST')).toEqual([push, stripe]);
    expect(matching('method:get')).toEqual([health]);
  });

  it('path: is a whole-path pattern where * matches anything', () => {
    expect(matching('path:/hooks/*')).toEqual([push, stripe]);
    expect(matching('path:/hooks/github')).toEqual([push]);
    expect(matching('path:/hooks')).toEqual([]);
    expect(matching('path:*/events')).toEqual([stripe]);
    expect(matching('path:/HEALTH')).toEqual([health]);
  });

  it('header: matches a name, or a name and value', () => {
    expect(matching('header:x-github-event=push')).toEqual([push]);
    expect(matching('header:X-GitHub-Event=PUSH')).toEqual([push]);
    expect(matching('header:x-github-event=pull_request')).toEqual([]);
    expect(matching('header:stripe-signature')).toEqual([stripe]);
    expect(matching('header:user-agent=GitHub-Hookshot/*')).toEqual([push]);
    expect(matching('header:x-author=Zoë')).toEqual([push]);
  });

  it('terms combine with spaces; ! negates; quotes keep spaces', () => {
    expect(matching('method:POST path:/hooks/github')).toEqual([push]);
    expect(matching('method:POST !github')).toEqual([stripe]);
    expect(matching('"fix vlan"')).toEqual([push]);
    expect(matching('header:"user-agent=GitHub-Hookshot/*"')).toEqual([push]);
  });

  it('unknown prefixes are plain text', () => {
    const url = makeRecord({ body: Buffer.from('see http://example.test/x') });
    expect(matching('http://example.test', [url, health])).toEqual([url]);
  });

  it('searches the packed headers of stored records the same way', () => {
    const stored = StoredRequest.from(99, push);
    expect(stored.headerBlock.length).toBeGreaterThan(0);
    for (const text of ['push', 'x-github-event', 'zoë', 'hookshot/5c2d']) {
      expect(matching(text, [stored])).toEqual([stored]);
    }
    expect(matching('header:x-author=Zoë', [stored])).toEqual([stored]);
    expect(matching('nothing-like-this', [stored])).toEqual([]);
  });

  it('plain text finds bytes in binary bodies', () => {
    expect(matching('A', [binary])).toEqual([binary]);
  });

  it('says what is wrong with a term that does not parse', () => {
    expect(errorOf('status:abc')).toMatch(/status: expects a code like 404 or a class like 4xx/);
    expect(errorOf('status:4')).toMatch(/status:/);
    expect(errorOf('status:6xx')).toMatch(/status:/);
    expect(errorOf('verified:maybe')).toBe('verified: expects true, false or none');
    expect(errorOf('method:')).toMatch(/method:/);
    expect(errorOf('header:=x')).toMatch(/header:/);
    expect(errorOf('"open')).toBe('a quote is not closed');
    for (const good of [
      'status:404',
      'status:4xx',
      'status:2**',
      'verified:false',
      'verified:none',
    ]) {
      expect(errorOf(good)).toBeNull();
    }
  });

  it('treats regular expression characters literally', () => {
    const odd = makeRecord({ path: '/a(b)[c]+?' });
    expect(matching('path:/a(b)[c]+?', [odd, health])).toEqual([odd]);
    expect(matching('(b)[', [odd, health])).toEqual([odd]);
  });

  it('knows when a new filter only narrows the last one', () => {
    expect(narrows(filter('pus'), filter('push'))).toBe(true);
    expect(narrows(filter('push'), filter('push method:POST'))).toBe(true);
    expect(narrows(filter('method:POST'), filter('method:POST github'))).toBe(true);
    expect(narrows(filter('push'), filter('pus'))).toBe(false);
    expect(narrows(filter('path:/hooks'), filter('path:/hooks/*'))).toBe(false);
    expect(narrows(filter('!pus'), filter('!push'))).toBe(false);
    expect(narrows(filter('a b'), filter('ab'))).toBe(false);
  });
});

describe('filters on what happened to a request', () => {
  const sent = (status: number) => ({ status, headers: [], body: Buffer.alloc(0) });
  const answered = (status: number) => ({
    kind: 'response' as const,
    target: 'http://127.0.0.1:3000/hooks',
    status,
    statusText: '',
    headers: [],
    body: Buffer.alloc(0),
    size: 0,
    truncated: false,
    durationMs: 3,
  });
  const ok = makeRecord({ response: sent(200), forward: answered(201) });
  const rejected = makeRecord({
    response: sent(401),
    verification: { scheme: 'github', ok: false, reason: 'signature mismatch' },
  });
  const forwardFailed = makeRecord({
    response: sent(202),
    forward: answered(503),
    verification: { scheme: 'stripe', ok: true, reason: 'signature valid' },
  });
  const refused = makeRecord({
    forward: {
      kind: 'failure',
      target: 'http://127.0.0.1:1',
      failure: 'refused',
      message: 'connect ECONNREFUSED',
      durationMs: 1,
    },
  });
  const list = [ok, rejected, forwardFailed, refused];

  it('status: matches the response sent or the forward answer', () => {
    expect(matching('status:2xx', list)).toEqual([ok, forwardFailed]);
    expect(matching('status:201', list)).toEqual([ok]);
    expect(matching('status:4xx', list)).toEqual([rejected]);
    expect(matching('status:5**', list)).toEqual([forwardFailed]);
    expect(matching('!status:2xx', list)).toEqual([rejected, refused]);
  });

  it('verified: true, false, or none', () => {
    expect(matching('verified:false', list)).toEqual([rejected]);
    expect(matching('verified:true', list)).toEqual([forwardFailed]);
    expect(matching('verified:none', list)).toEqual([ok, refused]);
  });
});
