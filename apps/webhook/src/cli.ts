#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { startCapture } from './app.js';
import { HELP, parseCommand } from './config/load.js';
import type { AppConfig } from './config/types.js';
import { exitProcess, fail, installExitHandlers, onExit } from './lifecycle.js';
import { blockOnSlowReader, createPrinter, requestJson, requestLine } from './output/printers.js';

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

  if (config.output === 'tui') {
    // React's development build records a performance measure for every component on every
    // render, and Node keeps them all: under a flood it cut capture throughput by an order of
    // magnitude and grew the heap without bound (the reliability soak ran out of a 96 MiB heap). A
    // NODE_ENV in the user's shell is meant for their own apps, not this tool's UI, so the
    // production build is always used. It has to be set before React loads, hence the import below.
    process.env.NODE_ENV = 'production';
    // Loaded only when needed: scripts piping --json never pay for React.
    const { startUi } = await import('./ui/run.js');
    const { uiEnvironment } = await import('./ui/environment.js');
    const ui = startUi(
      capture.store,
      capture.address,
      { onQuit: () => exitProcess(0), onCrash: fail },
      // $VISUAL/$EDITOR and the terminal's clipboard support, read once here like the rest.
      { capture, environment: uiEnvironment(process.env, process.cwd()) },
    );
    onExit(() => ui.close());
    return;
  }

  blockOnSlowReader(process.stdout);
  const printer = createPrinter(
    process.stdout,
    config.output === 'json' ? requestJson : requestLine,
  );
  // Stopping (SIGTERM, Ctrl+C) still prints what was captured: stdout is written synchronously.
  onExit(printer.flush);
  // A closed pipe (`webhook --json | head`) means nobody is reading any more.
  process.stdout.on('error', () => exitProcess(0));
  const source = config.configFile ? ` (config: ${config.configFile})` : '';
  process.stderr.write(`webhook: listening on ${capture.address}${source}\n`);
  capture.store.subscribe((change) => {
    if (change.kind === 'added') printer.print(change.record);
  });
}

function version(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

installExitHandlers();
main().catch(fail);
