#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { startCapture } from './app.js';
import { HELP, parseCommand } from './config/load.js';
import type { AppConfig } from './config/types.js';
import { CliError } from './errors.js';
import { requestJson, requestLine } from './output/printers.js';

/** Exit codes for the signals that stop the tool: 128 + the signal number, as shells report. */
const SIGNAL_EXIT = { SIGINT: 130, SIGTERM: 143, SIGHUP: 129 } as const;

/** Ways out that must put the terminal back, registered once by `run`. */
let restoreTerminal: () => void = () => {};

async function main(): Promise<void> {
  const command = parseCommand(process.argv.slice(2), {
    cwd: process.cwd(),
    home: homedir(),
    xdgConfigHome: process.env.XDG_CONFIG_HOME,
    interactive: Boolean(process.stdout.isTTY && process.stdin.isTTY),
  });
  if (command.kind === 'help') {
    process.stdout.write(HELP);
    return;
  }
  if (command.kind === 'version') {
    process.stdout.write(`${version()}\n`);
    return;
  }
  await run(command.config);
}

async function run(config: AppConfig): Promise<void> {
  const capture = await startCapture(config);
  const exit = (code: number) => {
    restoreTerminal();
    process.exit(code);
  };
  for (const signal of Object.keys(SIGNAL_EXIT) as (keyof typeof SIGNAL_EXIT)[]) {
    process.on(signal, () => exit(SIGNAL_EXIT[signal]));
  }

  if (config.output === 'tui') {
    // Loaded only when needed: scripts piping --json never pay for React.
    const { startUi } = await import('./ui/run.js');
    const ui = startUi(capture.store, capture.address, () => exit(0));
    restoreTerminal = () => ui.close();
    return;
  }

  const print = config.output === 'json' ? requestJson : requestLine;
  // A closed pipe (`webhook --json | head`) means nobody is reading any more.
  process.stdout.on('error', () => exit(0));
  process.stderr.write(`webhook: listening on ${capture.address}${configNote(config)}\n`);
  capture.store.subscribe((change) => {
    if (change.kind === 'added') process.stdout.write(`${print(change.record)}\n`);
  });
}

function configNote(config: AppConfig): string {
  return config.configFile ? ` (config: ${config.configFile})` : '';
}

function version(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

/** The one place errors become messages and exit codes. */
function fail(error: unknown): never {
  restoreTerminal();
  if (error instanceof CliError) {
    process.stderr.write(`webhook: ${error.message}\n`);
    process.exit(error.exitCode);
  }
  process.stderr.write(`webhook: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
  process.exit(70);
}

process.on('uncaughtException', fail);
process.on('unhandledRejection', fail);
// Last resort: whatever ends the process, the terminal is put back.
process.on('exit', () => restoreTerminal());

main().catch(fail);
