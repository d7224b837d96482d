/**
 * What the UI takes from the environment, read once at start-up by the CLI (nothing in the UI
 * reads `process.env`).
 */
export interface UiEnvironment {
  /** The command `e` runs on a file (`$VISUAL`, else `$EDITOR`, else `vi`), through the shell. */
  readonly editor: string;
  /**
   * Whether `x` can trust the terminal with the clipboard through OSC 52. `osc52`: the sequence
   * alone; `file`: the sequence too (harmless when ignored), and a file, and the status bar says
   * where.
   */
  readonly clipboard: 'osc52' | 'file';
  /** Where `x` and `X` write files: the directory the tool was started in. */
  readonly directory: string;
}

/**
 * Terminals that take OSC 52 clipboard writes by default. There is no portable way to ask a
 * terminal (the read-back query is disabled almost everywhere), so the tool only trusts the ones it
 * can recognise. xterm and GNOME Terminal/VTE are not among them (xterm needs `allowWindowOps`,
 * VTE ignores the sequence), nor are tmux and screen (tmux passes it on only with
 * `set-clipboard on`). `WEBHOOK_CLIPBOARD=osc52` or `=file` overrides the guess.
 */
export function clipboardSupport(
  env: Readonly<Record<string, string | undefined>>,
): 'osc52' | 'file' {
  const forced = env.WEBHOOK_CLIPBOARD?.toLowerCase();
  if (forced === 'osc52' || forced === 'file') return forced;
  const term = env.TERM ?? '';
  if (env.TMUX || env.STY || /^(screen|tmux)/.test(term)) return 'file';
  if (env.KITTY_WINDOW_ID || env.WEZTERM_PANE || env.WT_SESSION || env.ALACRITTY_WINDOW_ID) {
    return 'osc52';
  }
  if (/^(iTerm\.app|WezTerm|ghostty)$/i.test(env.TERM_PROGRAM ?? '')) return 'osc52';
  if (/^(xterm-kitty|alacritty|foot|xterm-ghostty|wezterm|contour)/.test(term)) return 'osc52';
  return 'file';
}

export function uiEnvironment(
  env: Readonly<Record<string, string | undefined>>,
  directory: string,
): UiEnvironment {
  const editor = (env.VISUAL || env.EDITOR || 'vi').trim() || 'vi';
  return { editor, clipboard: clipboardSupport(env), directory };
}
