import type { Role } from '../auth/roles.js';
import { mayRead, UI_RESOURCES } from './catalogue.js';
import { type Html, html, type Interpolation, trusted } from './html.js';
import { CSRF_FIELD } from './sessions.js';

export interface PageContext {
  user?: { username: string; role: Role };
  csrfToken?: string;
  /** The search box's current text. */
  query?: string;
  /** What the last form did, said once on the page it led to (a flash, see routes.ts). */
  flash?: string;
}

/** Versioned asset paths: a new build is a new URL, so assets can be cached for a year. */
export const ASSET_VERSION = '5';
export const STYLESHEET = `/ui/static/ui.css?v=${ASSET_VERSION}`;
export const SCRIPT = `/ui/static/ui.js?v=${ASSET_VERSION}`;
/** The site's icon: named by every page, so a browser does not ask for `/favicon.ico`. */
export const ICON = `/ui/static/favicon.svg?v=${ASSET_VERSION}`;

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
        <label class="shortcut" hidden><input type="checkbox" id="search-shortcut"> <kbd>/</kbd> jumps here</label>
      </form>`
    : html``;
  return html`<header class="top">
      <a class="brand" href="/ui/">Network inventory</a>
      ${search}
      ${account}
    </header>`;
}

/** One refusal in a page's error summary: its text, and the control it is about. */
export interface PageError {
  text: string;
  /** The id of the field the refusal is about; none for the form as a whole. */
  field?: string | undefined;
  /** The element's own id (a test or a script finds the message by it). */
  id?: string;
}

/**
 * The refusals of a form, first thing under the title: announced (role=alert), and focused by
 * ui.js, so a keyboard or screen reader user is not left on a page that looks unchanged; each
 * links to its field.
 */
function errorSummary(errors: readonly PageError[]): Html {
  if (errors.length === 0) return html``;
  return html`<div class="error-summary" id="error-summary" role="alert" tabindex="-1" aria-labelledby="error-summary-title">
<h2 id="error-summary-title">${errors.length === 1 ? 'There is a problem' : `There are ${errors.length} problems`}</h2>
<ul>${errors.map(
    (error) =>
      html`<li${error.id ? html` id="${error.id}"` : ''}>${error.field ? html`<a href="#${error.field}">${error.text}</a>` : error.text}</li>`,
  )}</ul></div>`;
}

/** A whole page: every page of the interface is this shell around its content. */
export function page(
  context: PageContext,
  title: string,
  content: Interpolation,
  breadcrumbs: readonly { label: string; href?: string }[] = [],
  /** The refusals of the page's form, summarised under the title. */
  errors: readonly PageError[] = [],
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
<link rel="icon" href="${ICON}" type="image/svg+xml">
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
${context.flash ? html`<p class="notice" role="status" id="flash">${context.flash}</p>` : ''}
${errorSummary(errors)}
${content}
</main>
</div>
</body>
</html>`.text;
}
