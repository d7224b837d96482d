import { closeSync, constants, openSync, writeFileSync } from 'node:fs';
import { type FileHandle, open } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Files the tool names by itself (`webhook-12.body`, `webhook-12.curl.sh`, a HAR named by the
 * time) are always new: created exclusively and never through a link, so neither an earlier export
 * nor a link planted in the directory (to `~/.bashrc`, say) is overwritten. A taken name moves on to
 * `webhook-12-1.body`, `webhook-12-2.body`… and the caller says which name was written.
 */
const NEW_FILE = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
const MAX_TRIES = 1000;

function candidates(stem: string, extension: string): string[] {
  return Array.from(
    { length: MAX_TRIES },
    (_, index) => `${stem}${index === 0 ? '' : `-${index}`}${extension}`,
  );
}

function taken(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException).code;
  // ELOOP: a link where O_NOFOLLOW was asked (some systems say so rather than EEXIST).
  return code === 'EEXIST' || code === 'ELOOP';
}

const noFreeName = (stem: string, extension: string) =>
  new Error(`no free file name for ${stem}${extension} (${MAX_TRIES} taken)`);

/** Writes `data` to a new file `<stem><extension>` (or the next free name) in `directory`. */
export function writeNewFileSync(
  directory: string,
  stem: string,
  extension: string,
  data: string | Uint8Array,
  mode = 0o644,
): string {
  for (const name of candidates(stem, extension)) {
    let fd: number;
    try {
      fd = openSync(join(directory, name), NEW_FILE, mode);
    } catch (error) {
      if (taken(error)) continue;
      throw error;
    }
    try {
      writeFileSync(fd, data);
    } finally {
      closeSync(fd);
    }
    return name;
  }
  throw noFreeName(stem, extension);
}

/** Opens a new file `<stem><extension>` (or the next free name) in `directory` for writing. */
export async function openNewFile(
  directory: string,
  stem: string,
  extension: string,
  mode = 0o644,
): Promise<{ name: string; file: FileHandle }> {
  for (const name of candidates(stem, extension)) {
    try {
      return { name, file: await open(join(directory, name), NEW_FILE, mode) };
    } catch (error) {
      if (!taken(error)) throw error;
    }
  }
  throw noFreeName(stem, extension);
}
