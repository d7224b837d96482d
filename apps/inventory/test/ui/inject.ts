// The web interface driven over HTTP (`inject`) as a browser would: a signed-in cookie, pages
// fetched, forms posted with what the page holds.
import type { FastifyInstance } from 'fastify';
import { expect } from 'vitest';

export interface Browser {
  cookie: string;
}

export async function signIn(
  app: FastifyInstance,
  username: string,
  password: string,
): Promise<Browser> {
  const response = await app.inject({
    method: 'POST',
    url: '/ui/login',
    payload: new URLSearchParams({ username, password, next: '/ui/' }).toString(),
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(response.statusCode, response.body).toBe(303);
  const cookie = response.cookies.find((candidate) => candidate.name === 'inventory_ui');
  expect(cookie?.value).toBeTruthy();
  return { cookie: `inventory_ui=${cookie?.value}` };
}

export const visit = (app: FastifyInstance, browser: Browser, url: string) =>
  app.inject({ method: 'GET', url, headers: { cookie: browser.cookie } });

/** A page's CSRF token, as its forms carry it. */
export const csrfOf = (page: string) => /name="_csrf" value="([^"]+)"/.exec(page)?.[1] ?? '';

export const post = (
  app: FastifyInstance,
  browser: Browser,
  url: string,
  form: Record<string, string> | URLSearchParams,
) =>
  app.inject({
    method: 'POST',
    url,
    payload: new URLSearchParams(form).toString(),
    headers: { cookie: browser.cookie, 'content-type': 'application/x-www-form-urlencoded' },
  });

const attribute = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1];
/** An attribute's or a text's characters as the browser reads them from the page. */
export const unescaped = (text: string) =>
  text
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&amp;', '&');

/**
 * What a browser submits for the page's first form posting to `action`, left as the page shows
 * it: every named input (checkboxes only when checked), each select's chosen option, each
 * textarea's text.
 */
export function formAsShown(page: string, action: string): URLSearchParams {
  const start = page.indexOf(`action="${action}"`);
  expect(start, `a form posting to ${action}`).toBeGreaterThan(-1);
  const form = page.slice(start, page.indexOf('</form>', start));
  const fields = new URLSearchParams();
  for (const [tag] of form.matchAll(/<input\b[^>]*>/g)) {
    const name = attribute(tag, 'name');
    const type = attribute(tag, 'type') ?? 'text';
    if (!name || type === 'submit') continue;
    if ((type === 'checkbox' || type === 'radio') && !/\schecked\b/.test(tag)) continue;
    fields.append(name, unescaped(attribute(tag, 'value') ?? (type === 'checkbox' ? 'on' : '')));
  }
  for (const [, tag = '', options = ''] of form.matchAll(
    /<select\b([^>]*)>([\s\S]*?)<\/select>/g,
  )) {
    const name = attribute(tag, 'name');
    const chosen =
      /<option\b[^>]*\sselected\b[^>]*>/.exec(options)?.[0] ?? /<option\b[^>]*>/.exec(options)?.[0];
    if (name && chosen) fields.append(name, unescaped(attribute(chosen, 'value') ?? ''));
  }
  for (const [, tag = '', text = ''] of form.matchAll(
    /<textarea\b([^>]*)>([\s\S]*?)<\/textarea>/g,
  )) {
    const name = attribute(tag, 'name');
    // As an HTML parser reads it: a line break just after the tag is not part of the text.
    if (name) fields.append(name, unescaped(text.replace(/^\r?\n/, '')));
  }
  return fields;
}
