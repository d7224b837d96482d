import { replayPlan } from '../app.js';
import type { CapturedRequest } from '../capture/record.js';
import { StoredRequest } from '../capture/record.js';
import { maxLineBytes, type ReplayCommand } from '../config/load.js';
import { CliError } from '../errors.js';
import { printable } from '../format/printable.js';
import { requestJson } from '../output/json.js';
import { createRouter } from '../respond/routes.js';
import { type LoadedRecord, openSession, readSession } from '../session/session.js';
import { replay } from './replay.js';

/**
 * `webhook replay --from FILE --id N | --all --to URL [--resign]`: sends the records again, one
 * after another in file order, printing each replay as a `--json` line on stdout and a summary on
 * stderr. Exit code: 0 when every target answered (whatever its status), 1 when one did not or a
 * line of the file that may have been a record asked for was not one (skipped with a message).
 */
export async function replayRecords(
  command: ReplayCommand,
  stdout: NodeJS.WritableStream,
  stderr: NodeJS.WritableStream,
): Promise<number> {
  const { config } = command;
  const route = createRouter({
    defaultResponse: config.defaultResponse,
    routes: config.routes,
    defaultForward: null,
    defaultVerify: config.verify,
  });
  const wanted = command.ids ? new Set(command.ids) : null;
  // With --id, the last record of each seq wins (a file appended by several sessions repeats them).
  const chosen = new Map<number, LoadedRecord>();
  let failures = 0;
  const lines = readSession(command.from, {
    maxLineBytes: maxLineBytes(config.limits.maxBody),
    // A line that is not a record is not sent. Without --id it may have been one of the records
    // asked for, so it counts as a replay that failed (exit 1). With --id, one after a record
    // asked for may have been a later copy of it (the last of a seq is the one sent), so it
    // counts too; one before any is only said, as export says it.
    onSkip: (problem) => {
      if (!wanted || chosen.size > 0) failures += 1;
      stderr.write(`webhook: ${printable(problem)}; line skipped\n`);
    },
  });
  const session = command.saveFile ? openSession(command.saveFile) : null;
  let sent = 0;
  const send = async ({ fileSeq, draft }: LoadedRecord) => {
    const original: CapturedRequest = StoredRequest.from(fileSeq, draft);
    const plan = replayPlan({ replayTo: null }, route, original, {
      to: command.to,
      resign: command.resign,
    });
    if (command.resign && plan?.notResigned) {
      // A forged request stays forged: the secret's signature goes only on what carried it.
      stderr.write(`webhook: not re-signed: ${printable(plan.notResigned)}; sent as captured\n`);
    } else if (command.resign && !plan?.resign) {
      stderr.write(
        `webhook: #${fileSeq}: no verify scheme applies to ${printable(original.path)}; sent as captured\n`,
      );
    }
    const result = await replay(original, {
      to: command.to,
      resign: command.resign ? (plan?.resign ?? null) : null,
      timeoutMs: config.forward.timeoutMs,
      maxResponseBody: config.limits.maxBody,
    });
    const record = StoredRequest.from(fileSeq, result);
    sent += 1;
    stdout.write(`${requestJson(record)}\n`);
    session?.append(record);
    const forward = record.forward;
    if (forward?.kind === 'response') {
      stderr.write(
        `webhook: #${fileSeq} ${printable(record.method)} → ${printable(forward.target)}: ${forward.status} ${printable(forward.statusText)} (${forward.durationMs} ms)\n`,
      );
    } else if (forward?.kind === 'failure') {
      failures += 1;
      stderr.write(
        `webhook: #${fileSeq} ${printable(record.method)} → ${printable(forward.target)}: ${forward.failure} (${printable(forward.message)})\n`,
      );
    }
  };
  try {
    for await (const loaded of lines) {
      if (!wanted) await send(loaded);
      else if (wanted.has(loaded.fileSeq)) chosen.set(loaded.fileSeq, loaded);
    }
    if (wanted) {
      const missing = [...wanted].filter((seq) => !chosen.has(seq));
      if (missing.length > 0) {
        throw new CliError(`${command.from}: no record with seq ${missing.join(', ')}`, 2);
      }
      for (const seq of command.ids ?? []) {
        const loaded = chosen.get(seq);
        if (loaded) await send(loaded);
      }
    }
  } finally {
    session?.close();
  }
  if (sent === 0) stderr.write(`webhook: ${printable(command.from)} holds no records\n`);
  return failures > 0 ? 1 : 0;
}
