import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CapturedRequest } from '../capture/record.js';
import { formatSize } from '../config/size.js';
import type { CurlExport, CurlOptions } from '../export/curl.js';
import { openNewFile, writeNewFileSync } from '../export/new-file.js';
import { printableInUi } from '../format/printable.js';
import { onSignalShutdown } from '../lifecycle.js';
import type { ReplayEdits } from '../replay/replay.js';
import { OSC52_LIMIT, osc52 } from './clipboard.js';
import type { Notice } from './commands.js';
import { type EditableRequest, fromEditableText, toEditableText } from './edit.js';
import type { UiEnvironment } from './environment.js';
import type { UiEffects } from './perform.js';

/** What the UI's effects need from the rest of the tool: sending, and the export formats. */
export interface UiServices {
  /**
   * Sends `record` again to `to` (a base URL typed by the user) or, without it, to the record's
   * own target, with `edits`, re-signed where a scheme applies, and adds the replay to the store;
   * resolves with it once the target answered or failed.
   */
  replay(
    record: CapturedRequest,
    request: { to?: string; edits?: ReplayEdits },
  ): Promise<CapturedRequest>;
  /**
   * Why that replay goes as captured though a scheme applies (the request failed its signature
   * check when captured): said in the status bar. Absent, or null: nothing to say.
   */
  resignRefusal?(record: CapturedRequest, request: { edits?: ReplayEdits }): string | null;
  curl(record: CapturedRequest, options: CurlOptions): CurlExport;
  /** The records as a HAR document in pieces, written one by one (never one string). */
  har(records: readonly CapturedRequest[]): Iterable<string>;
}

export interface EffectsContext {
  readonly environment: UiEnvironment;
  readonly services: UiServices;
  /** Writes to the terminal between frames (the OSC 52 sequence). */
  readonly writeTerminal: (text: string) => void;
  /**
   * Gives the terminal to another program for the duration of `work` (the UI is taken down and
   * put back as it was): $EDITOR needs the whole screen and the keyboard.
   */
  readonly suspend: <T>(work: () => Promise<T>) => Promise<T>;
  /** Clock for file names; tests fix it. */
  readonly now?: () => Date;
}

const stamp = (date: Date) =>
  date
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');

export function createEffects(context: EffectsContext): UiEffects {
  const { environment, services } = context;
  const now = context.now ?? (() => new Date());
  return {
    async copyCurl(record) {
      const stem = `webhook-${record.seq}`;
      let curl = services.curl(record, { bodyFilePath: `${stem}.body` });
      if (!curl.ok) {
        return {
          text: `#${record.seq} cannot be copied as curl: ${printableInUi(curl.reason)}`,
          tone: 'bad',
        };
      }
      let bodyName: string | null = null;
      if (curl.bodyFile) {
        bodyName = writeNewFileSync(environment.directory, stem, '.body', curl.bodyFile.bytes);
        // The command reads the body from the file actually written.
        if (bodyName !== curl.bodyFile.path) {
          curl = services.curl(record, { bodyFilePath: bodyName });
          if (!curl.ok) return { text: printableInUi(curl.reason), tone: 'bad' };
        }
      }
      const { command } = curl;
      const bodyNote = bodyName ? ` (body in ./${printableInUi(bodyName)})` : '';
      const fits = Buffer.byteLength(command) * 1.34 < OSC52_LIMIT;
      if (fits) context.writeTerminal(osc52(command));
      if (fits && environment.clipboard === 'osc52') {
        return {
          text: `#${record.seq} copied as curl to the clipboard (OSC 52, ${formatSize(Buffer.byteLength(command))})${bodyNote}`,
          tone: 'good',
        };
      }
      // bash: the command's `$'…'` words (bytes that are not printable) are not POSIX sh.
      const name = writeNewFileSync(
        environment.directory,
        stem,
        '.curl.sh',
        `#!/usr/bin/env bash\n${command}\n`,
        0o755,
      );
      const why = fits ? 'clipboard not known to work here' : 'too long for the clipboard';
      return { text: `#${record.seq} as curl: ./${name}${bodyNote} (${why})`, tone: 'good' };
    },

    async copyText(text, what) {
      context.writeTerminal(osc52(text));
      if (environment.clipboard === 'osc52') {
        return { text: `${what} copied to the clipboard (OSC 52)`, tone: 'good' };
      }
      // The terminal may not take OSC 52: the text is on screen to copy by hand.
      return {
        text: `${what}: ${printableInUi(text)} (clipboard not known to work here)`,
        tone: 'info',
      };
    },

    async exportHar(records, filter) {
      const { name, file } = await openNewFile(
        environment.directory,
        `webhook-${stamp(now())}`,
        '.har',
      );
      try {
        for (const piece of services.har(records)) await file.write(piece);
      } finally {
        await file.close();
      }
      const which = filter ? ` matching /${printableInUi(filter)}` : '';
      const count = `${records.length} request${records.length === 1 ? '' : 's'}`;
      return { text: `${count}${which} exported to ./${name} (HAR 1.2)`, tone: 'good' };
    },

    async replay(record, target, edit) {
      const original: EditableRequest = {
        method: record.method,
        target: record.target,
        headers: record.headers,
        body: record.body,
      };
      let edits: ReplayEdits | undefined;
      if (edit) {
        const edited = await context.suspend(() => editInEditor(environment.editor, original));
        if (!edited.ok) return { text: printableInUi(edited.error), tone: 'bad' };
        // A body saved as it was is no edit: a truncated one stays unsent, as with `r`.
        const { body, ...others } = edited.request;
        edits = body.equals(record.body) ? others : edited.request;
      }
      const notResigned = services.resignRefusal?.(record, edits ? { edits } : {}) ?? null;
      const replayed = await services.replay(record, {
        ...(target === null ? {} : { to: target }),
        ...(edits ? { edits } : {}),
      });
      return replayNotice(record, replayed, notResigned);
    },
  };
}

/**
 * `#13 replay of #12 → 200 OK in 35 ms`, or why it failed; then, for a request sent as captured
 * though a scheme applies, ` · not re-signed: #12 failed its signature check when captured (…)`.
 */
export function replayNotice(
  original: CapturedRequest,
  replayed: CapturedRequest,
  notResigned: string | null = null,
): Notice {
  // A replay of a replay is linked to the first original, as the store links it.
  const head = `#${replayed.seq} replay of #${replayed.replayOf ?? original.seq}`;
  const why = notResigned === null ? '' : ` · not re-signed: ${printableInUi(notResigned)}`;
  const result = replayed.forward;
  if (!result || result.kind === 'pending') return { text: `${head} sent${why}`, tone: 'info' };
  if (result.kind === 'failure') {
    return {
      text: `${head} failed: ${result.failure} (${printableInUi(result.message)})${why}`,
      tone: 'bad',
    };
  }
  const status = `${result.status}${result.statusText ? ` ${printableInUi(result.statusText)}` : ''}`;
  return {
    text: `${head} → ${status} in ${result.durationMs} ms${why}`,
    tone: result.status >= 400 ? 'bad' : 'good',
  };
}

/** Opens the request in the editor (through the shell, as git does) and reads back the result. */
async function editInEditor(
  editor: string,
  request: EditableRequest,
): Promise<{ ok: true; request: EditableRequest } | { ok: false; error: string }> {
  const directory = await mkdtemp(join(tmpdir(), 'webhook-edit-'));
  const file = join(directory, 'request.http');
  let child: ChildProcess | null = null;
  // Stopped by a signal meanwhile: the editor goes too (left running, it fought the shell for the
  // terminal) and so does the file, which holds the request's headers (Authorization…).
  const stopEditor = onSignalShutdown(async () => {
    const running = child;
    if (running && running.exitCode === null && running.signalCode === null) {
      const gone = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      const killed = await Promise.race([gone, delay(EDITOR_STOP_MS).then(() => false)]);
      if (killed === false) running.kill('SIGKILL');
    }
    await rm(directory, { recursive: true, force: true });
    // Whatever mode the editor left the terminal in: back to the one the tool started with.
    resetTerminalMode();
  });
  try {
    const text = toEditableText(request);
    await writeFile(file, text, { mode: 0o600 });
    const code = await new Promise<number | null>((resolve, reject) => {
      // `exec`: the shell becomes the editor, so stopping this child stops the editor itself.
      child = spawn(`exec ${editor} ${shellQuote(file)}`, { shell: true, stdio: 'inherit' });
      child.on('error', reject);
      child.on('exit', (exitCode) => resolve(exitCode));
    });
    if (code !== 0) return { ok: false, error: `Editor exited with ${code}: nothing replayed` };
    const edited = await readFile(file);
    if (edited.equals(Buffer.alloc(0))) return { ok: false, error: 'Empty file: nothing replayed' };
    return fromEditableText(edited, request);
  } finally {
    stopEditor();
    await rm(directory, { recursive: true, force: true });
  }
}

/** How long the editor has to exit on SIGTERM before it is killed. */
const EDITOR_STOP_MS = 1_500;

const delay = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Puts the terminal back in the mode it had when the tool started: Node restores the mode it saved
 * before its first switch to raw mode whenever raw mode is turned off.
 */
function resetTerminalMode(): void {
  const stdin = process.stdin;
  if (!stdin.isTTY) return;
  try {
    stdin.setRawMode(true);
    stdin.setRawMode(false);
  } catch {
    // No terminal any more: nothing to restore.
  }
}

function shellQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}
