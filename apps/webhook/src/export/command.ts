import { closeSync, openSync, writeSync } from 'node:fs';
import { StoredRequest } from '../capture/record.js';
import type { ExportCommand } from '../config/load.js';
import { CliError } from '../errors.js';
import { printable } from '../format/printable.js';
import { readSession } from '../session/session.js';
import { toCurl } from './curl.js';
import { HAR_END, HAR_START, harEntryText } from './har.js';
import { writeNewFileSync } from './new-file.js';

/** Where an export writes: a file, or stdout for `-`. */
function output(path: string, stdout: NodeJS.WritableStream) {
  if (path === '-') return { write: (text: string) => void stdout.write(text), close() {} };
  let fd: number;
  try {
    fd = openSync(path, 'w');
  } catch (error) {
    throw new CliError(`${path}: cannot write (${(error as NodeJS.ErrnoException).code})`, 1);
  }
  return {
    write: (text: string) => {
      writeSync(fd, text);
    },
    close: () => closeSync(fd),
  };
}

/**
 * `webhook export --from FILE (--har OUT | --curl) [--id N]`. The HAR is written entry by entry
 * as the file is read, so a session of any length exports in bounded memory. curl commands go to
 * stdout; bodies that are not printable text go to `webhook-<seq>.body` in the current directory.
 * A line that is not a record, or a record that cannot be a command, is skipped with a message on
 * stderr, never ending the export; the exit code is then 1.
 */
export async function exportRecords(
  command: ExportCommand,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  const wanted = command.ids ? new Set(command.ids) : null;
  const har = command.har ? output(command.har, stdout) : null;
  let entries = 0;
  let harEntries = 0;
  let commands = 0;
  let skipped = 0;
  har?.write(HAR_START);
  try {
    for await (const { fileSeq, draft } of readSession(command.from, {
      maxLineBytes: command.maxLineBytes,
      // A line that is not a record is left out like a record that cannot be a command.
      onSkip: (problem) => {
        entries += 1;
        skipped += 1;
        stderr.write(`webhook: ${printable(problem)}; line skipped\n`);
      },
    })) {
      if (wanted && !wanted.has(fileSeq)) continue;
      const record = StoredRequest.from(fileSeq, draft);
      // Every record read counts, skipped ones too: "N of M records skipped" is of all of them.
      entries += 1;
      if (har) {
        har.write(harEntryText(record, harEntries));
        harEntries += 1;
      }
      if (command.curl) {
        const curl = toCurl(record);
        if (!curl.ok) {
          skipped += 1;
          stderr.write(`webhook: #${fileSeq}: skipped: ${printable(curl.reason)}\n`);
          continue;
        }
        let text = curl.command;
        if (curl.bodyFile) {
          const name = writeNewFileSync('.', `webhook-${record.seq}`, '.body', curl.bodyFile.bytes);
          // The command reads the body from the file actually written.
          const again = name === curl.bodyFile.path ? curl : toCurl(record, { bodyFilePath: name });
          if (again.ok) text = again.command;
          stderr.write(`webhook: #${fileSeq}: body written to ${printable(name)}\n`);
        }
        stdout.write(`${commands === 0 ? '' : '\n'}${text}\n`);
        commands += 1;
      }
    }
  } finally {
    // Closed whatever happened (a file that stops being readable half way): the HAR written is
    // always a whole one, of the entries read so far.
    try {
      har?.write(HAR_END);
    } finally {
      har?.close();
    }
  }
  const exported = entries - skipped;
  if (exported === 0)
    stderr.write(`webhook: no records exported from ${printable(command.from)}\n`);
  else if (command.har && command.har !== '-') {
    stderr.write(`webhook: ${harEntries} records written to ${printable(command.har)}\n`);
  }
  if (skipped > 0) stderr.write(`webhook: ${skipped} of ${entries} records skipped\n`);
  return skipped > 0 ? 1 : 0;
}
