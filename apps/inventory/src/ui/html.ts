/**
 * Typed HTML templates: `html` is a tagged template whose interpolations are escaped unless they
 * are themselves `Html` (another template's output). Escaping is the default, so a value from
 * the database can never become markup by forgetting a call; only `trusted` opts out, and it is
 * used for the service's own constant strings (an SVG path it computed, a `<!doctype>`).
 */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ESCAPES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
  '`': '&#96;',
};

/** Text made safe for element content and quoted attribute values alike. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"'`]/g, (character) => ESCAPES[character] ?? character);
}

/** What a template accepts: text is escaped, Html kept, lists joined, nothing dropped. */
export type Interpolation = Html | string | number | boolean | null | undefined | Interpolation[];

/**
 * Characters that change the direction of the text after them: the bidirectional controls
 * (U+202E, the right-to-left override, makes `10.0.0.1` read `1.0.0.01`) and right-to-left
 * letters (Hebrew, Arabic, …).
 */
const DIRECTIONAL =
  /[\p{Bidi_Control}\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufefe]|[\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/**
 * Text whose direction cannot reach the text around it: wrapped in FIRST STRONG ISOLATE …
 * POP DIRECTIONAL ISOLATE when it holds a directional character, else unchanged. For plain
 * text that is built before it becomes markup (a title such as `Delete ${name}?`).
 */
export const isolate = (text: string): string =>
  DIRECTIONAL.test(text) ? `\u2068${text}\u2069` : text;

/** Whether the markup so far ends inside `<tag …>…` (the element is still open). */
function isOpen(out: string, tag: string): boolean {
  const opened = Math.max(out.lastIndexOf(`<${tag}>`), out.lastIndexOf(`<${tag} `));
  return opened >= 0 && opened > out.lastIndexOf(`</${tag}>`);
}

/**
 * A stored value's text as the markup so far places it. Its direction is isolated from what
 * follows (a right-to-left override in a hostname must not turn the IP address after it
 * around): in element content by `<bdi>`; where no element may be (a window's title, an option,
 * SVG text) by the isolating characters. A form's value (a textarea, an attribute) is left as
 * stored, so a form sends back exactly what it showed.
 */
function escapeText(out: string, text: string): string {
  const escaped = escapeHtml(text);
  if (!DIRECTIONAL.test(text)) return escaped;
  if (out.lastIndexOf('<') > out.lastIndexOf('>') || isOpen(out, 'textarea')) return escaped;
  if (isOpen(out, 'title') || isOpen(out, 'option') || isOpen(out, 'text')) {
    return escapeHtml(isolate(text));
  }
  return `<bdi>${escaped}</bdi>`;
}

function render(out: string, value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map((item) => render(out, item)).join('');
  return escapeText(out, String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0] ?? '';
  for (let index = 0; index < values.length; index++) {
    out += render(out, values[index] as Interpolation) + (strings[index + 1] ?? '');
  }
  return new Html(out);
}

/** The service's own markup, never a stored value. */
export const trusted = (text: string): Html => new Html(text);

/**
 * A link target built from a stored value: only relative paths of this interface and http(s)
 * URLs are links; anything else (`javascript:`, `data:`) is shown as text by the caller.
 */
export function safeHref(value: string): string | undefined {
  if (value.startsWith('/ui/') && !value.startsWith('//')) return value;
  return /^https?:\/\/[^\s]+$/i.test(value) ? value : undefined;
}
