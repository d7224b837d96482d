import { readFileSync } from 'node:fs';

/** Where the client looks for the secret of its credentialToken (Meteor's prefix). */
export const CREDENTIAL_SECRET_PREFIX = 'Meteor.oauth.credentialSecret-';

/** The scripts of the result pages, served as files (`/packages/oauth/<name>`) as Meteor does. */
export const RESULT_SCRIPTS = {
  'end_of_popup_response.js': readFileSync(
    new URL('./assets/end_of_popup_response.js', import.meta.url),
    'utf8',
  ),
  'end_of_redirect_response.js': readFileSync(
    new URL('./assets/end_of_redirect_response.js', import.meta.url),
    'utf8',
  ),
} as const;
export type ResultScript = keyof typeof RESULT_SCRIPTS;
/** Where the scripts are served, below ROOT_URL's path (as Meteor serves them). */
export const RESULT_SCRIPT_PATH = '/packages/oauth/';

/**
 * ROOT_URL's path without its trailing slash (`/chat` for `https://host/chat/`, empty at the
 * host's root): a proxy strips it before the service, but the browser asks for every address the
 * service gives it under that path.
 */
export const rootPathOf = (rootUrl: string) => new URL(rootUrl).pathname.replace(/\/+$/, '');

/**
 * Headers of the result pages: only the page's own scripts run, nothing is framed, cached or
 * sent on as a referrer (the address holds the provider's code).
 */
export const RESULT_PAGE_HEADERS = {
  'content-type': 'text/html; charset=utf-8',
  'content-security-policy':
    "default-src 'none'; script-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
} as const;

export interface ResultPage {
  loginStyle: 'popup' | 'redirect';
  isCordova: boolean;
  /** Present when the sign-in succeeded. */
  credentials?: { token: string; secret: string } | undefined;
  /** A redirect-style flow's checked destination. */
  redirectUrl?: string | undefined;
  /** Shown to the person in the window when the sign-in failed. */
  problem?: string | undefined;
  /** The person cancelled at the provider: nothing to read, the popup closes as on success. */
  cancelled?: boolean | undefined;
  /** ROOT_URL's path (`rootPathOf`), put before the page's own addresses. */
  rootPath: string;
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"'/]/g,
    (character) =>
      ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#x27;', '/': '&#x2F;' })[
        character
      ] ?? character,
  );

/** A URL in a double-quoted attribute: readable, with nothing that could end the attribute. */
const escapeAttribute = (text: string) =>
  text.replace(/[&"<>]/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * Meteor's end-of-login page: a hidden `<div id="config">` holding the JSON
 * `{setCredentialToken, credentialToken, credentialSecret, storagePrefix, redirectUrl, isCordova}`
 * (HTML-escaped; the script reads its text), and the script of the login style. `keepOpen` is
 * this service's: a failure the person should read.
 */
export function renderResultPage(page: ResultPage): string {
  const config = {
    setCredentialToken: page.credentials !== undefined,
    credentialToken: page.credentials?.token,
    credentialSecret: page.credentials?.secret,
    storagePrefix: CREDENTIAL_SECRET_PREFIX,
    redirectUrl: page.redirectUrl,
    isCordova: page.isCordova,
    // A failure's reason stays on screen until the person closes the window.
    keepOpen: page.problem !== undefined && page.cancelled !== true,
  };
  const script: ResultScript =
    page.loginStyle === 'redirect' ? 'end_of_redirect_response.js' : 'end_of_popup_response.js';
  const message = page.problem
    ? `Sign-in failed: ${page.problem}`
    : page.loginStyle === 'redirect'
      ? 'Signed in; returning to the application…'
      : 'Signed in.';
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${page.problem ? 'Sign-in failed' : 'Sign-in complete'}</title>
</head>
<body>
<main>
<p id="message" role="status">${escapeHtml(message)}</p>
${
  page.credentials
    ? '<p id="completed" hidden>Login completed. <a href="#" id="close">Click here</a> to close this window.</p>'
    : '<p id="after-failure" hidden><button type="button" id="close">Close this window</button></p>'
}
</main>
<div id="config" hidden>${escapeHtml(JSON.stringify(config))}</div>
<script src="${escapeAttribute(`${page.rootPath}${RESULT_SCRIPT_PATH}${script}`)}"></script>
</body>
</html>
`;
}
