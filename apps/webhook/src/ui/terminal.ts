import { writeSync } from 'node:fs';

/** Switch to the alternate screen buffer, clear it and home the cursor. */
export const ENTER_ALT_SCREEN = '\x1b[?1049h\x1b[2J\x1b[H';
/** Show the cursor, then leave the alternate screen (the shell's screen comes back as it was). */
export const RESTORE_TERMINAL = '\x1b[?25h\x1b[?1049l';

export interface TerminalSession {
  /** Puts the terminal back as it was; safe to call any number of times, from any exit path. */
  restore(): void;
}

/**
 * Takes over the terminal for a full-screen UI. Restoring writes synchronously to the file
 * descriptor, so it still happens on the way out of a crash or a signal, when async writes might not.
 */
export function enterFullScreen(
  stdout: NodeJS.WriteStream & { readonly fd: number },
  stdin: NodeJS.ReadStream,
): TerminalSession {
  stdout.write(ENTER_ALT_SCREEN);
  // Raw mode from the start (Ink would turn it on only after its first render), so Ctrl+C is
  // always a key the UI handles rather than a SIGINT arriving mid-start.
  if (stdin.isTTY) stdin.setRawMode(true);
  let restored = false;
  return {
    restore() {
      if (restored) return;
      restored = true;
      try {
        if (stdin.isTTY && stdin.isRaw) stdin.setRawMode(false);
      } catch {
        // stdin may already be closed; the escape sequences below still matter.
      }
      try {
        writeSync(stdout.fd, RESTORE_TERMINAL);
      } catch {
        stdout.write(RESTORE_TERMINAL);
      }
    },
  };
}
