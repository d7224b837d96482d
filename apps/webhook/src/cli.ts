#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { startCapture } from './app.js';
import { HELP, maxLineBytes, parseCommand } from './config/load.js';
import type { AppConfig } from './config/types.js';
import { exportRecords } from './export/command.js';
import { count } from './format/count.js';
import { printable } from './format/printable.js';
import { exitProcess, fail, installExitHandlers, onExit } from './lifecycle.js';
import {
  blockOnSlowReader,
  createPrinter,
  requestJsonPieces,
  requestLine,
} from './output/printers.js';
import { holdProcessWarnings } from './process-warnings.js';
import type { RelayState } from './relay/client.js';
import { relayStateText, startRelayListener } from './relay/listen.js';
import { replayRecords } from './replay/command.js';
import { loadInto, openSession, readSession } from './session/session.js';

async function main(): Promise<void> {
  // A closed pipe (`webhook --json | head`, `webhook export --har - | head -c 10`) means nobody
  // reads any more: every command then stops quietly, as a well-behaved Unix filter does.
  process.stdout.on('error', () => exitProcess(0));
  const command = parseCommand(process.argv.slice(2), {
    cwd: process.cwd(),
    home: homedir(),
    xdgConfigHome: process.env.XDG_CONFIG_HOME,
    variables: process.env,
    interactive: Boolean(process.stdout.isTTY && process.stdin.isTTY),
  });
  switch (command.kind) {
    case 'help':
      process.stdout.write(HELP);
      return;
    case 'version':
      process.stdout.write(`${version()}\n`);
      return;
    case 'replay':
      blockOnSlowReader(process.stdout);
      process.exitCode = await replayRecords(command, process.stdout, process.stderr);
      return;
    case 'export':
      blockOnSlowReader(process.stdout);
      process.exitCode = await exportRecords(command, process.stdout, process.stderr);
      return;
    case 'run':
      await run(command.config);
      return;
    default: {
      // Loaded only for `webhook relay …`: capturing never pays for the relay's server (Fastify).
      const { runRelayCommand } = await import('./relay/commands.js');
      await runRelayCommand(command, process.stdout, process.stderr);
    }
  }
}

/** Skipped --load lines named one by one; beyond these, only their count. */
const MAX_SKIPPED_LINES_SHOWN = 20;

async function run(config: AppConfig): Promise<void> {
  // Opened before any port is: a path that cannot be written is a bad flag (exit 2).
  const session = config.saveFile ? openSession(config.saveFile) : null;
  // Closed after the records still under way are written (registered below, once they can be).
  let closeSession = () => session?.close();
  onExit(() => closeSession());
  let loaded = 0;
  // Lines of the --load file that are not records: skipped, each said once (the first few).
  const skippedLines: string[] = [];
  let skippedCount = 0;
  const capture = await startCapture(config, async (store) => {
    if (!config.loadFile) return;
    loaded = await loadInto(
      readSession(config.loadFile, {
        maxLineBytes: maxLineBytes(config.limits.maxBody),
        onSkip: (problem) => {
          skippedCount += 1;
          if (skippedLines.length < MAX_SKIPPED_LINES_SHOWN) {
            skippedLines.push(`${problem}; line skipped`);
          }
        },
      }),
      (draft) => store.add(draft),
      config.limits.maxRequests,
    );
  });
  // Before the session closes: a record whose forward is under way reaches --save and the
  // printers marked pending, instead of never (the loader reads it back as such).
  const closeAfterPending = closeSession;
  closeSession = () => {
    capture.completePending();
    closeAfterPending();
  };
  onExit(() => {
    void capture.close();
  });
  const warnings = [...capture.notices];
  const loadWarnings = [...skippedLines];
  if (skippedCount > skippedLines.length) {
    const more = skippedCount - skippedLines.length;
    loadWarnings.push(`${count(more, 'more line')} of ${config.loadFile} skipped`);
  }
  warnings.push(...loadWarnings);
  if (config.loadFile) {
    const held = capture.store.snapshot().records.length;
    const skipped =
      skippedCount > 0 ? `; ${skippedCount} line${skippedCount === 1 ? '' : 's'} skipped` : '';
    warnings.push(
      `loaded ${loaded} records from ${config.loadFile} (${held} held within the limits${skipped})`,
    );
  }
  if (session) {
    capture.onRecord((record) => {
      try {
        session.append(record);
      } catch (error) {
        fail(error);
      }
    });
  }
  const relayStatus = startRelay(config, capture);
  let lastRelayLine = '';
  const notices = warnings.map((warning) => `webhook: ${printable(warning)}\n`).join('');

  if (config.output === 'tui') {
    // React's development build records a performance measure for every component on every
    // render, and Node keeps them all: under a flood it cut capture throughput by an order of
    // magnitude and grew the heap without bound (the reliability soak ran out of a 96 MiB heap). A
    // NODE_ENV in the user's shell is meant for their own apps, not this tool's UI, so the
    // production build is always used. It has to be set before React loads, hence the import below.
    process.env.NODE_ENV = 'production';
    // Nothing the process prints may land on the UI's screen: Node's warnings (written to stderr
    // as they are raised) are held while the UI is up and handed to Node's printer once it has
    // gone.
    const releaseWarnings = holdProcessWarnings();
    // Loaded only when needed: scripts piping --json never pay for React.
    const { startUi } = await import('./ui/run.js');
    const { uiEnvironment } = await import('./ui/environment.js');
    const ui = startUi(
      capture.store,
      capture.address,
      { onQuit: () => exitProcess(0), onCrash: fail },
      // $VISUAL/$EDITOR and the terminal's clipboard support, read once here like the rest.
      // The capture's notices stay on screen above the panes (and go to stderr again on exit).
      {
        capture,
        environment: uiEnvironment(process.env, process.cwd()),
        // Skipped --load lines: the first on screen, again on stderr at exit with the others
        // (as many as are listed there: the first few, then a count).
        warnings: [
          ...capture.notices,
          ...loadWarnings.slice(0, 1),
          ...(skippedCount > 1
            ? [
                `${count(skippedCount - 1, 'more line')} of ${config.loadFile} skipped (${
                  skippedCount <= MAX_SKIPPED_LINES_SHOWN
                    ? 'listed'
                    : `the first ${MAX_SKIPPED_LINES_SHOWN} listed`
                } at exit)`,
              ]
            : []),
        ],
        ...(config.relay
          ? {
              relay: {
                sendUrl: config.relay.sendUrl,
                status: relayStatus.current,
                subscribe: (listener: (status: string) => void) => relayStatus.subscribe(listener),
              },
            }
          : {}),
      },
    );
    // Printed again on the normal screen once the UI has gone, so the warning is not missed.
    onExit(() => {
      ui.close();
      const late = relayStatus.atExit.map((line) => `webhook: ${printable(line)}\n`).join('');
      if (notices || late) process.stderr.write(notices + late);
      const beyond = releaseWarnings();
      if (beyond.length > 0) {
        process.stderr.write(beyond.map((line) => `webhook: ${printable(line)}\n`).join(''));
      }
    });
    return;
  }

  blockOnSlowReader(process.stdout);
  const printer = createPrinter(
    process.stdout,
    config.output === 'json' ? (record) => requestJsonPieces(record) : requestLine,
  );
  // Stopping (SIGTERM, Ctrl+C) still prints what was captured: stdout is written synchronously.
  onExit(printer.flush);
  const source = config.configFile ? ` (config: ${printable(config.configFile)})` : '';
  process.stderr.write(`${notices}webhook: listening on ${capture.address}${source}\n`);
  capture.onRecord(printer.print);
  relayStatus.subscribe((text, state) => {
    // Reconnection attempts differ only in their delay: one line per kind of state.
    const kind = text.replace(/in \d+ s /, '');
    if (kind === lastRelayLine) return;
    lastRelayLine = kind;
    const url = state === 'connected' ? ` (send URL ${config.relay?.sendUrl})` : '';
    process.stderr.write(`webhook: ${printable(text)}${url}\n`);
  });
}

/**
 * `--relay`: starts the relay client into the capture; its state as text for the status bar or
 * stderr. Nothing happens without --relay.
 */
function startRelay(config: AppConfig, capture: Awaited<ReturnType<typeof startCapture>>) {
  type Listener = (text: string, state: RelayState['kind'] | 'warning') => void;
  const listeners = new Set<Listener>();
  const status = {
    current: 'relay: connecting',
    /** Lines for stderr once the UI is gone (without the UI they were printed as they came). */
    atExit: [] as string[],
    subscribe(listener: Listener) {
      listeners.add(listener);
    },
  };
  if (!config.relay) return status;
  const publish = (text: string, state: RelayState['kind'] | 'warning') => {
    status.current = text;
    for (const listener of listeners) listener(text, state);
  };
  const client = startRelayListener(
    config.relay,
    capture,
    config.limits.maxBody,
    (state) => {
      const text = relayStateText(state);
      publish(text, state.kind);
      // Too long for any status bar: printed whole once the UI has gone.
      if (state.kind === 'refused') status.atExit.push(text);
    },
    (gap) =>
      publish(
        `relay: connected; events after ${gap.after} were trimmed before they were read`,
        'connected',
      ),
    (id, reason) => publish(`relay: connected; event ${id} refused (${reason})`, 'connected'),
    (warning) => {
      publish(`relay: warning: ${warning}`, 'warning');
      // The UI shows it until the next change of state: said again once the screen is back.
      status.atExit.push(`relay: warning: ${warning}`);
    },
    (id, reason) =>
      publish(`relay: connected; the answer to event ${id} was ${reason}`, 'connected'),
  );
  onExit(() => void client.stop());
  return status;
}

function version(): string {
  const manifest = JSON.parse(
    readFileSync(new URL('../package.json', import.meta.url), 'utf8'),
  ) as { version: string };
  return manifest.version;
}

installExitHandlers();
main().catch(fail);
