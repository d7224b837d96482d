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

function render(value: Interpolation): string {
  if (value === null || value === undefined || value === false) return '';
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(render).join('');
  return escapeHtml(String(value));
}

export function html(strings: TemplateStringsArray, ...values: Interpolation[]): Html {
  let out = strings[0] ?? '';
  for (let index = 0; index < values.length; index++) {
    out += render(values[index] as Interpolation) + (strings[index + 1] ?? '');
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
