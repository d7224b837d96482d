import type { CapturedRequest, RequestDraft } from '../capture/record.js';

/** Appends records to a `--save` file, one `--json` line each, written through to the disk. */
export interface SessionWriter {
  append(record: CapturedRequest): void;
  close(): void;
}

/** Opens (creates or appends to) a session file; a CliError when it cannot be written. */
export function openSession(path: string): SessionWriter {
  void path;
  throw new Error('not implemented');
}

/** One record read back: the `seq` it had in the file, and the record to add to a store. */
export interface LoadedRecord {
  readonly fileSeq: number;
  readonly draft: RequestDraft;
}

export interface LoadOptions {
  /** Longest line accepted, in bytes (a record of --max-body plus its headers, base64). */
  readonly maxLineBytes: number;
}

/**
 * Reads a session file (the `--json` format) line by line, in bounded memory; `replayOf` links are
 * renumbered by the caller. A malformed line is a CliError naming the file, line and problem.
 */
export function readSession(path: string, options: LoadOptions): AsyncIterable<LoadedRecord> {
  void path;
  void options;
  throw new Error('not implemented');
}

/** Parses one line of the `--json` format back into a record; throws an Error saying what is wrong. */
export function recordFromJson(line: string): LoadedRecord {
  void line;
  throw new Error('not implemented');
}
