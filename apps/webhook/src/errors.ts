/**
 * Every way the CLI can stop before or while serving is one of these values. They are raised where
 * the problem is found and rendered by a single handler in cli.ts, which prints the message and
 * exits with the code.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    message: string,
    /** 1: a runtime failure (port busy, ...); 2: bad usage or configuration. */
    readonly exitCode: 1 | 2,
  ) {
    super(message);
  }
}

/** A wrong flag: exit 2, like most CLIs. */
export function usageError(message: string): CliError {
  return new CliError(`${message} (see --help)`, 2);
}

/** A config file problem, located as `file:line: key: message`. */
export function configError(file: string, line: number, key: string, message: string): CliError {
  return new CliError(`${file}:${line}: ${key}: ${message}`, 2);
}

/** The server could not listen. */
export function listenError(message: string): CliError {
  return new CliError(message, 1);
}
