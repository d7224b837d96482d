import type { Role } from '../auth/roles.js';
import { mayRead, UI_RESOURCES } from './catalogue.js';
import { type Html, html, type Interpolation, trusted } from './html.js';
import { CSRF_FIELD } from './sessions.js';

export interface PageContext {
  user?: { username: string; role: Role };
  csrfToken?: string;
  /** The search box's current text. */
  query?: string;
}

/** Versioned asset paths: a new build is a new URL, so assets can be cached for a year. */
export const ASSET_VERSION = '1';
export const STYLESHEET = `/ui/static/ui.css?v=${ASSET_VERSION}`;
export const SCRIPT = `/ui/static/ui.js?v=${ASSET_VERSION}`;

/** The hidden CSRF field every state-changing form carries. */
export const csrfField = (context: PageContext): Html =>
  html`<input type="hidden" name="${CSRF_FIELD}" value="${context.csrfToken ?? ''}">`;

function navigation(context: PageContext): Html {
  const user = context.user;
  if (!user) return html``;
  const resources = UI_RESOURCES.filter(
    (resource) => resource.name !== 'audit-logs' && mayRead(resource, user.role),
  );
  const admin =
    user.role === 'admin'
      ? html`<li><a href="/ui/admin/users">Users</a></li>
          <li><a href="/ui/admin/tokens">API tokens</a></li>
          <li><a href="/ui/audit-logs">Audit log</a></li>`
      : html``;
  return html`<nav aria-label="Main"><ul>
      ${resources.map((resource) => html`<li><a href="/ui/${resource.name}">${resource.label}</a></li>`)}
      ${admin}
    </ul></nav>`;
}

function header(context: PageContext): Html {
  const user = context.user;
  const account = user
    ? html`<form method="post" action="/ui/logout" class="signout">
        ${csrfField(context)}
        <span class="who">${user.username} <span class="role">(${user.role})</span></span>
        <button type="submit">Sign out</button>
      </form>`
    : html``;
  const search = user
    ? html`<form method="get" action="/ui/search" role="search" class="search">
        <label for="global-search">Search</label>
        <input id="global-search" type="search" name="q" value="${context.query ?? ''}" maxlength="200" placeholder="hostname, IP, serial, name">
        <button type="submit">Go</button>
      </form>`
    : html``;
  return html`<header class="top">
      <a class="brand" href="/ui/">Network inventory</a>
      ${search}
      ${account}
    </header>`;
}

/** A whole page: every page of the interface is this shell around its content. */
export function page(
  context: PageContext,
  title: string,
  content: Interpolation,
  breadcrumbs: readonly { label: string; href?: string }[] = [],
): string {
  const trail =
    breadcrumbs.length > 0
      ? html`<nav aria-label="Breadcrumb" class="crumbs"><ol>
          ${breadcrumbs.map((crumb) =>
            crumb.href
              ? html`<li><a href="${crumb.href}">${crumb.label}</a></li>`
              : html`<li aria-current="page">${crumb.label}</li>`,
          )}</ol></nav>`
      : html``;
  return html`${trusted('<!doctype html>')}
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · Network inventory</title>
<link rel="stylesheet" href="${STYLESHEET}">
<script src="${SCRIPT}" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
${header(context)}
<div class="frame">
${navigation(context)}
<main id="main">
${trail}
<h1>${title}</h1>
${content}
</main>
</div>
</body>
</html>`.text;
}
