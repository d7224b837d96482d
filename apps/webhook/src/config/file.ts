import { readFileSync } from 'node:fs';
import { validateHeaderName, validateHeaderValue } from 'node:http';
import {
  isAlias,
  isMap,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  parseDocument,
  type YAMLMap,
} from 'yaml';
import { SIGNATURE_SCHEMES, type SignatureScheme } from '../capture/record.js';
import { configError } from '../errors.js';
import { CREDENTIALS_PROBLEM, QUERY_PROBLEM } from '../forward/url.js';
import { parseSendUrl } from '../relay/protocol.js';
import {
  DEFAULT_TOLERANCE_SECONDS,
  type FileConfig,
  type FileRelay,
  type HeaderPairs,
  type ResponseSpec,
  type RouteSpec,
  type VerifySpec,
} from './types.js';

/**
 * `${NAME}` in a string of the file: replaced by that environment variable; `${NAME:-default}`
 * gives a default when it is unset or empty, as in a shell and the chat service's config.
 */
const ENV_REFERENCE = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/** Environment variables for `${VAR}`, passed in: nothing but the CLI's entry reads process.env. */
export type Variables = Readonly<Record<string, string | undefined>>;

/** An HTTP token (RFC 9110), which is what a method is. */
const METHOD = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/** Headers that frame the body on the wire: the tool writes them from the body it sends. */
const FRAMING_HEADERS = new Set(['content-length', 'transfer-encoding']);

/**
 * Reads and validates a YAML config file (`file` is the name messages use). Every problem is a CliError (exit 2) naming the file, the
 * line and the key, raised before anything listens.
 */
export function loadConfigFile(path: string, file = path, variables: Variables = {}): FileConfig {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? String(error);
    throw configError(file, 0, '(file)', `cannot be read (${reason})`);
  }
  return parseConfigText(text, file, variables);
}

/** Parses config text; `file` only names it in messages. */
export function parseConfigText(text: string, file: string, variables: Variables = {}): FileConfig {
  const lineCounter = new LineCounter();
  const doc = parseDocument(text, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const [syntax] = doc.errors;
  if (syntax) {
    const line = syntax.linePos?.[0]?.line ?? lineCounter.linePos(syntax.pos[0]).line;
    throw configError(file, line, '(syntax)', firstLine(syntax.message));
  }
  return new ConfigReader(file, lineCounter, doc, variables).read(doc.contents);
}

function firstLine(message: string): string {
  return message.split('\n', 1)[0] ?? message;
}

type Doc = ReturnType<typeof parseDocument>;

/** Walks the YAML tree with positions, so every message can say where. */
class ConfigReader {
  constructor(
    private readonly file: string,
    private readonly lines: LineCounter,
    private readonly doc: Doc,
    private readonly variables: Variables,
  ) {}

  read(root: unknown): FileConfig {
    if (root === null || root === undefined) return { routes: [] };
    const map = this.map(root, '(top level)');
    const fields = this.fields(map, '', [
      'port',
      'host',
      'response',
      'forward',
      'verify',
      'routes',
      'relay',
    ]);
    const config: {
      port?: number;
      host?: string;
      response?: ResponseSpec;
      forward?: string;
      verify?: VerifySpec;
      routes: RouteSpec[];
      relay?: FileRelay;
    } = { routes: [] };
    const port = fields.get('port');
    if (port) config.port = this.integer(port, 'port', 0, 65535);
    const host = fields.get('host');
    if (host) config.host = this.nonEmptyString(host, 'host');
    const response = fields.get('response');
    if (response) config.response = this.response(response, 'response');
    const forward = fields.get('forward');
    if (forward) config.forward = this.url(forward, 'forward');
    const verify = fields.get('verify');
    if (verify) config.verify = this.verify(verify, 'verify');
    const routes = fields.get('routes');
    if (routes) config.routes = this.routes(routes);
    const relay = fields.get('relay');
    if (relay) config.relay = this.relay(relay);
    return config;
  }

  /** `relay: {url, token}`: the channel to receive from and its listen token. */
  private relay(node: Node): FileRelay {
    const fields = this.fields(this.map(node, 'relay'), 'relay.', ['url', 'token']);
    const relay: { url?: string; token?: string } = {};
    const url = fields.get('url');
    if (url) {
      const text = this.nonEmptyString(url, 'relay.url');
      if (!parseSendUrl(text)) {
        throw this.error(
          url,
          'relay.url',
          `must be a relay send URL, https://host/c/<id> (got ${text})`,
        );
      }
      relay.url = text;
    }
    const token = fields.get('token');
    if (token) relay.token = this.nonEmptyString(token, 'relay.token');
    return relay;
  }

  private routes(node: Node): RouteSpec[] {
    const seq = this.resolve(node);
    if (seq === null) return [];
    if (!isSeq(seq)) throw this.error(node, 'routes', 'must be a list of routes');
    return seq.items.map((item, index) => {
      const key = `routes[${index}]`;
      const map = this.map(item, key);
      const fields = this.fields(map, `${key}.`, [
        'path',
        'method',
        'response',
        'forward',
        'verify',
      ]);
      const pathNode = fields.get('path');
      if (!pathNode) throw this.error(map, key, 'needs a path');
      const path = this.nonEmptyString(pathNode, `${key}.path`);
      if (!path.startsWith('/')) throw this.error(pathNode, `${key}.path`, 'must start with /');
      const methodNode = fields.get('method');
      let method: string | null = null;
      if (methodNode) {
        method = this.nonEmptyString(methodNode, `${key}.method`);
        if (!METHOD.test(method)) {
          throw this.error(methodNode, `${key}.method`, `is not an HTTP method: ${method}`);
        }
        method = method.toUpperCase();
      }
      const responseNode = fields.get('response');
      const forwardNode = fields.get('forward');
      const verifyNode = fields.get('verify');
      if (!responseNode && !forwardNode && !verifyNode) {
        throw this.error(map, key, 'needs a response, a forward or a verify');
      }
      return {
        path,
        method,
        response: responseNode ? this.response(responseNode, `${key}.response`) : null,
        forward: forwardNode ? this.urlOrOff(forwardNode, `${key}.forward`) : null,
        verify: verifyNode ? this.verifyOrOff(verifyNode, `${key}.verify`) : null,
      };
    });
  }

  /** An http(s) URL to forward to. */
  private url(node: Node, key: string): string {
    const text = this.nonEmptyString(node, key);
    let url: URL;
    try {
      url = new URL(text);
    } catch {
      throw this.error(node, key, `is not a URL: ${text}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw this.error(node, key, `must be an http:// or https:// URL (got ${text})`);
    }
    if (url.username || url.password) throw this.error(node, key, CREDENTIALS_PROBLEM);
    if (url.search || url.hash) {
      throw this.error(node, key, QUERY_PROBLEM);
    }
    return text;
  }

  private urlOrOff(node: Node, key: string): string | false {
    return this.scalar(node) === false ? false : this.url(node, key);
  }

  private verifyOrOff(node: Node, key: string): VerifySpec | false {
    return this.scalar(node) === false ? false : this.verify(node, key);
  }

  /** `{scheme, secret, tolerance?, header?, encoding?, prefix?}`. */
  private verify(node: Node, key: string): VerifySpec {
    const map = this.map(node, key);
    const fields = this.fields(map, `${key}.`, [
      'scheme',
      'secret',
      'tolerance',
      'header',
      'encoding',
      'prefix',
    ]);
    const schemeNode = fields.get('scheme');
    if (!schemeNode) throw this.error(map, key, 'needs a scheme');
    const scheme = this.string(schemeNode, `${key}.scheme`);
    if (!(SIGNATURE_SCHEMES as readonly string[]).includes(scheme)) {
      throw this.error(
        schemeNode,
        `${key}.scheme`,
        `unknown scheme ${scheme} (expected one of: ${SIGNATURE_SCHEMES.join(', ')})`,
      );
    }
    const secretNode = fields.get('secret');
    if (!secretNode)
      throw this.error(map, key, 'needs a secret (e.g. secret: $' + '{GITHUB_WEBHOOK_SECRET})');
    const secret = this.nonEmptyString(secretNode, `${key}.secret`);
    const spec: { -readonly [K in keyof VerifySpec]: VerifySpec[K] } = {
      scheme: scheme as SignatureScheme,
      secret,
      toleranceSeconds: DEFAULT_TOLERANCE_SECONDS,
    };
    const tolerance = fields.get('tolerance');
    if (tolerance)
      spec.toleranceSeconds = this.integer(tolerance, `${key}.tolerance`, 1, 86_400 * 365);
    const generic = scheme === 'hmac-sha256' || scheme === 'hmac-sha512';
    for (const name of ['header', 'encoding', 'prefix'] as const) {
      const field = fields.get(name);
      if (field && !generic) {
        throw this.error(field, `${key}.${name}`, `only applies to hmac-sha256 and hmac-sha512`);
      }
    }
    const header = fields.get('header');
    if (generic && !header)
      throw this.error(map, key, `needs a header (the one carrying the signature)`);
    if (header) {
      spec.header = this.nonEmptyString(header, `${key}.header`);
      try {
        validateHeaderName(spec.header);
      } catch {
        throw this.error(header, `${key}.header`, 'is not a valid header name');
      }
    }
    const encoding = fields.get('encoding');
    if (encoding) {
      const value = this.string(encoding, `${key}.encoding`);
      if (value !== 'hex' && value !== 'base64') {
        throw this.error(encoding, `${key}.encoding`, `must be hex or base64 (got ${value})`);
      }
      spec.encoding = value;
    }
    const prefix = fields.get('prefix');
    if (prefix) spec.prefix = this.string(prefix, `${key}.prefix`);
    return spec;
  }

  private response(node: Node, key: string): ResponseSpec {
    const map = this.map(node, key);
    const fields = this.fields(map, `${key}.`, ['status', 'headers', 'body']);
    const status = fields.get('status');
    const headers = fields.get('headers');
    const body = fields.get('body');
    return {
      // From 200: a 1xx is not a final answer (the sender went on waiting for one).
      status: status ? this.integer(status, `${key}.status`, 200, 599) : 200,
      headers: headers ? this.headers(headers, `${key}.headers`) : [],
      body: body ? this.string(body, `${key}.body`) : '',
    };
  }

  private headers(node: Node, key: string): HeaderPairs {
    const map = this.resolve(node);
    if (map === null) return [];
    if (!isMap(map)) throw this.error(node, key, 'must be a map of header names to strings');
    return map.items.map((pair) => {
      const nameNode = pair.key as Node;
      const name = this.string(nameNode, key);
      const headerKey = `${key}.${name}`;
      try {
        validateHeaderName(name);
      } catch {
        throw this.error(nameNode, headerKey, 'is not a valid header name');
      }
      if (FRAMING_HEADERS.has(name.toLowerCase())) {
        // Sent as written, it would contradict the body actually sent: the client waits for
        // bytes that never come, or reads the next answer as this one's.
        throw this.error(nameNode, headerKey, 'is computed from the body; remove it');
      }
      const valueNode = pair.value as Node | null;
      if (!valueNode) throw this.error(nameNode, headerKey, 'needs a value');
      const value = this.string(valueNode, headerKey);
      try {
        validateHeaderValue(name, value);
      } catch {
        throw this.error(valueNode, headerKey, 'is not a valid header value');
      }
      return [name, value] as const;
    });
  }

  /** The map's values by key, refusing keys outside `allowed`. */
  private fields(map: YAMLMap, prefix: string, allowed: readonly string[]): Map<string, Node> {
    const fields = new Map<string, Node>();
    for (const pair of map.items) {
      const keyNode = pair.key as Node;
      const name = isScalar(keyNode) ? String(keyNode.value) : '?';
      if (!allowed.includes(name)) {
        throw this.error(
          keyNode,
          `${prefix}${name}`,
          `unknown key (expected one of: ${allowed.join(', ')})`,
        );
      }
      // A key with no value (`port:`) is null; treat it as absent, as YAML users expect.
      const value = pair.value as Node | null;
      if (value && !(isScalar(value) && value.value === null)) fields.set(name, value);
    }
    return fields;
  }

  private map(node: unknown, key: string): YAMLMap {
    const resolved = this.resolve(node as Node);
    if (!isMap(resolved)) throw this.error(node as Node, key, 'must be a map');
    return resolved;
  }

  private integer(node: Node, key: string, min: number, max: number): number {
    const value = this.scalar(node);
    if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
      throw this.error(node, key, `must be an integer from ${min} to ${max} (got ${show(value)})`);
    }
    return value;
  }

  private string(node: Node, key: string): string {
    const value = this.scalar(node);
    if (typeof value !== 'string') {
      throw this.error(node, key, `must be a string (got ${show(value)}; quote it)`);
    }
    return value.replace(ENV_REFERENCE, (_match, name: string, fallback?: string) => {
      const replacement = this.variables[name] || fallback;
      if (replacement === undefined || replacement === '') {
        throw this.error(node, key, `environment variable ${name} is not set`);
      }
      return replacement;
    });
  }

  private nonEmptyString(node: Node, key: string): string {
    const value = this.string(node, key);
    if (value.trim() === '') throw this.error(node, key, 'must not be empty');
    return value;
  }

  private scalar(node: Node): unknown {
    const resolved = this.resolve(node);
    if (isScalar(resolved)) return resolved.value;
    if (isMap(resolved)) return new Map();
    if (isSeq(resolved)) return [];
    return undefined;
  }

  private resolve(node: Node | null | undefined): Node | null {
    if (node && isAlias(node)) return (node.resolve(this.doc) as Node | undefined) ?? null;
    return node ?? null;
  }

  private error(node: Node | null | undefined, key: string, message: string) {
    const offset = node?.range?.[0] ?? 0;
    return configError(this.file, this.lines.linePos(offset).line, key, message);
  }
}

function show(value: unknown): string {
  if (value instanceof Map) return 'a map';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value);
  return String(value);
}
