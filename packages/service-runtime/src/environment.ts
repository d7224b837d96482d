/**
 * One way both services read their environment: each declares its variables once (name and the
 * line `--help` prints for it), reads them through a reader that refuses any name not declared
 * (so the `--help` list is whole by construction), and gets every problem at once rather than
 * the first.
 */
export interface EnvVariable {
  readonly name: string;
  /** What it does and its default, one line (printed by --help). */
  readonly help: string;
}

export type Environment = Readonly<Record<string, string | undefined>>;

/**
 * The problems found in a service's configuration (its environment, a file it names): each one
 * names its variable or key. The message is the problem when there is one, else the list, one a
 * line; `describeConfigError` gives the text a service prints when it refuses to start.
 */
export class ConfigError extends Error {
  override name = 'ConfigError';
  readonly problems: readonly string[];
  constructor(problems: string | readonly string[]) {
    const list = typeof problems === 'string' ? [problems] : problems;
    super(list.length === 1 ? list[0] : `\n  - ${list.join('\n  - ')}`);
    this.problems = list;
  }
}

/**
 * What a service prints when its configuration is refused, in one shape for every service:
 * `configuration error: PROBLEM` for one problem, or every problem on a line of its own.
 */
export function describeConfigError(error: ConfigError): string {
  const { problems } = error;
  return problems.length === 1
    ? `configuration error: ${problems[0]}`
    : `configuration errors (${problems.length}):\n  - ${problems.join('\n  - ')}`;
}

/** The longest a recorded problem is; past it the text is cut and ends with `…`. */
export const MAX_PROBLEM_LENGTH = 500;

function printable(message: string): string {
  const escaped = message.replace(
    // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters replaced here
    /[\u0000-\u001f\u007f-\u009f\u2028\u2029]/g,
    (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );
  return escaped.length > MAX_PROBLEM_LENGTH
    ? `${escaped.slice(0, MAX_PROBLEM_LENGTH - 1)}…`
    : escaped;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class EnvironmentReader {
  readonly #env: Environment;
  readonly #declared: ReadonlySet<string>;
  readonly problems: string[] = [];

  constructor(env: Environment, variables: readonly EnvVariable[]) {
    this.#env = env;
    this.#declared = new Set(variables.flatMap(({ name }) => name.split(/,\s*/)));
  }

  /** The variable's text, trimmed; an empty variable is unset (`FOO= npm start`). */
  text(name: string): string | undefined {
    const value = this.#raw(name)?.trim();
    return value === undefined || value === '' ? undefined : value;
  }

  /**
   * The variable's text as it is given, spaces included: a secret or a password, where a space
   * is part of the value and trimming it would silently change it. Empty is unset.
   */
  verbatim(name: string): string | undefined {
    const value = this.#raw(name);
    return value === undefined || value === '' ? undefined : value;
  }

  #raw(name: string): string | undefined {
    if (!this.#declared.has(name)) {
      throw new Error(`${name} is read but not declared in the service's variables`);
    }
    return this.#env[name];
  }

  /**
   * `parse(text)` (text undefined when unset); an Error it throws is recorded as
   * `NAME: message` and `fallback` is answered instead, so reading goes on. The text is trimmed,
   * or `verbatim` (see there).
   */
  read<T>(
    name: string,
    parse: (text: string | undefined) => T,
    fallback: T,
    form: 'trimmed' | 'verbatim' = 'trimmed',
  ): T {
    const text = form === 'verbatim' ? this.verbatim(name) : this.text(name);
    try {
      return parse(text);
    } catch (error) {
      this.problem(`${name}: ${(error as Error).message}`);
      return fallback;
    }
  }

  /** An integer from `min` (to `max`), or `fallback` when unset. */
  integer(name: string, fallback: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
    return this.read(
      name,
      (text) => {
        if (text === undefined) return fallback;
        const value = Number(text);
        if (!/^\d+$/.test(text) || value < min || !Number.isSafeInteger(value)) {
          throw new Error(`must be an integer >= ${min}, not ${JSON.stringify(text)}`);
        }
        if (value > max) throw new Error(`must be at most ${max}, not ${value}`);
        return value;
      },
      fallback,
    );
  }

  /** `on` or `off` (any case), or `fallback` when unset. */
  onOff(name: string, fallback: boolean): boolean {
    return this.read(
      name,
      (text) => {
        if (text === undefined) return fallback;
        const value = text.toLowerCase();
        if (value === 'on' || value === 'off') return value === 'on';
        // JSON quoting: a control character in the value is shown escaped, never sent raw.
        throw new Error(`must be on or off, not ${JSON.stringify(text)}`);
      },
      fallback,
    );
  }

  /** One of `values` (trimmed, or `verbatim`: exactly), or `fallback` when unset. */
  oneOf<const T extends string>(
    name: string,
    values: readonly T[],
    fallback: T,
    form: 'trimmed' | 'verbatim' = 'trimmed',
  ): T {
    return this.read(
      name,
      (text) => {
        if (text === undefined) return fallback;
        if ((values as readonly string[]).includes(text)) return text as T;
        throw new Error(`must be one of ${values.join(', ')}, not ${JSON.stringify(text)}`);
      },
      fallback,
      form,
    );
  }

  /**
   * A URL with one of `schemes` (`['redis', 'rediss']`), or undefined when unset. The value is
   * never repeated in a problem: a URL may hold a password.
   */
  url(name: string, schemes: readonly string[]): string | undefined {
    return this.read(
      name,
      (text) => {
        if (text === undefined) return undefined;
        const scheme = /^([A-Za-z][A-Za-z0-9+.-]*):\/\//.exec(text)?.[1]?.toLowerCase();
        if (scheme === undefined || !schemes.includes(scheme)) {
          throw new Error(`must be a ${schemes.map((known) => `${known}://`).join(' or ')} URL`);
        }
        return text;
      },
      undefined,
    );
  }

  /**
   * Records problems. Each is made safe to print, whatever a parser repeated of the value: a
   * control character is shown escaped (never sent raw to a terminal) and a problem is cut at
   * MAX_PROBLEM_LENGTH characters (a megabyte-long value is not repeated whole).
   */
  problem(...messages: string[]): void {
    this.problems.push(...messages.map(printable));
  }

  /** Throws a ConfigError listing every problem recorded, if any. */
  finish(): void {
    if (this.problems.length > 0) throw new ConfigError(this.problems);
  }
}
