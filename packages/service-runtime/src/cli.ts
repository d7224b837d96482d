/**
 * The services are configured by environment variables only; their command line takes `--help`
 * (or `-h`) and nothing else. Anything else is refused rather than ignored, so that
 * `npm start -- --port 4000` does not start on the default port as if it had been understood.
 */
export type CommandLine =
  | { action: 'run' }
  | { action: 'help' }
  | { action: 'refuse'; message: string };

export function readCommandLine(args: readonly string[]): CommandLine {
  if (args.includes('--help') || args.includes('-h')) return { action: 'help' };
  const [first] = args;
  if (first === undefined) return { action: 'run' };
  return {
    action: 'refuse',
    message: `unknown argument "${first.slice(0, 100)}": settings are environment variables (see --help)`,
  };
}

export interface Usage {
  /** One line: what the service is. */
  summary: string;
  /** How it is started, e.g. `npm start`. */
  command: string;
  /** Variable name, what it does (with its default). */
  variables: ReadonlyArray<readonly [string, string]>;
  /** Where the full documentation is. */
  docs: readonly string[];
}

export function formatUsage(usage: Usage): string {
  const width = Math.max(...usage.variables.map(([name]) => name.length));
  return [
    usage.summary,
    '',
    `Usage: ${usage.command}`,
    '       (configured by environment variables; the only option is --help)',
    '',
    'Environment variables:',
    ...usage.variables.map(([name, text]) => `  ${name.padEnd(width)}  ${text}`),
    '',
    'Documentation:',
    ...usage.docs.map((line) => `  ${line}`),
    '',
  ].join('\n');
}
