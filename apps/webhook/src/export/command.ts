import { closeSync, openSync, writeSync } from 'node:fs';
import { StoredRequest } from '../capture/record.js';
import type { ExportCommand } from '../config/load.js';
import { CliError } from '../errors.js';
import { count } from '../format/count.js';
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
 * stderr, never ending the export, and counted apart: lines that are not records, records that
 * were skipped. The exit code is 1 when a record asked for was not exported: without `--id` every
 * record of the file is asked for, and a line that is not one may have been one; with `--id`, an
 * id not found or a record skipped. Lines that are not records elsewhere in the file then stay
 * warnings: what was asked for was exported (a `--save` file cut short by a crash still exports
 * the records asked for with exit 0).
 */
export async function exportRecords(
  command: ExportCommand,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  const wanted = command.ids ? new Set(command.ids) : null;
  const har = command.har ? output(command.har, stdout) : null;
  /** Records read (those asked for), records among them skipped, lines that are not records. */
  let records = 0;
  let harEntries = 0;
  let commands = 0;
  let skipped = 0;
  let notRecords = 0;
  const found = new Set<number>();
  har?.write(HAR_START);
  try {
    for await (const { fileSeq, draft } of readSession(command.from, {
      maxLineBytes: command.maxLineBytes,
      // Not a record: said and counted, but it is not one of the records read.
      onSkip: (problem) => {
        notRecords += 1;
        stderr.write(`webhook: ${printable(problem)}; line skipped\n`);
      },
    })) {
      if (wanted && !wanted.has(fileSeq)) continue;
      const record = StoredRequest.from(fileSeq, draft);
      // Every record read counts, skipped ones too: "N of M records skipped" is of all of them.
      records += 1;
      found.add(fileSeq);
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
  const from = printable(command.from);
  const missing = command.ids ? [...new Set(command.ids)].filter((id) => !found.has(id)) : [];
  // Worded as replay words it (which refuses before sending): a HAR is written as the file is read.
  if (missing.length > 0) {
    stderr.write(`webhook: ${from}: no record with seq ${missing.join(', ')}\n`);
  }
  const exported = records - skipped;
  if (exported === 0) stderr.write(`webhook: no records exported from ${from}\n`);
  else if (command.har && command.har !== '-') {
    stderr.write(`webhook: ${count(harEntries, 'record')} written to ${printable(command.har)}\n`);
  }
  if (skipped > 0) stderr.write(`webhook: ${skipped} of ${count(records, 'record')} skipped\n`);
  if (notRecords > 0) {
    stderr.write(`webhook: ${count(notRecords, 'line')} of ${from} skipped (not records)\n`);
  }
  const allAskedExported = skipped === 0 && missing.length === 0;
  return allAskedExported && (command.ids !== null || notRecords === 0) ? 0 : 1;
}
