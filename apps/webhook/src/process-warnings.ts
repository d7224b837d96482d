/** Node's process warnings, held while the UI is on screen and handed back once it has gone. */

type WarningListener = (warning: Error) => void;

/** What holding needs of `process`: its 'warning' listeners (a stand-in in tests). */
export interface WarningSource {
  listeners(event: 'warning'): WarningListener[];
  removeListener(event: 'warning', listener: WarningListener): unknown;
  on(event: 'warning', listener: WarningListener): unknown;
}

/** Warnings held while the UI is up, one by one; beyond these, only their count. */
export const MAX_HELD_WARNINGS = 20;

/**
 * Takes the process's 'warning' listeners off (Node's own printer among them, which writes to
 * stderr, onto the UI's screen) and keeps the warnings raised meanwhile, bounded. The returned
 * function puts the listeners back and hands each held warning to them, so Node's printer
 * formats and filters it as it would have (`--disable-warning`, `--no-deprecation`, the code,
 * `--trace-warnings` stacks; `--redirect-warnings` too, but Node appends to that file
 * asynchronously, so what it was handed just before the process exits may be lost); it returns
 * what is left to say: the count of warnings beyond the bound. Warnings raised after it print as
 * usual.
 */
export function holdProcessWarnings(source: WarningSource = process): () => string[] {
  // --no-warnings (in NODE_OPTIONS): Node prints none, and neither does the tool.
  if ((source as { noProcessWarnings?: boolean }).noProcessWarnings) return () => [];
  const saved = source.listeners('warning');
  for (const listener of saved) source.removeListener('warning', listener);
  const held: Error[] = [];
  let more = 0;
  const hold: WarningListener = (warning) => {
    if (held.length < MAX_HELD_WARNINGS) held.push(warning);
    else more += 1;
  };
  source.on('warning', hold);
  let released = false;
  return () => {
    if (released) return [];
    released = true;
    source.removeListener('warning', hold);
    for (const listener of saved) source.on('warning', listener);
    for (const warning of held.splice(0)) {
      for (const listener of saved) {
        try {
          listener(warning);
        } catch {
          // On the way out: one listener failing must not cost the others their warnings.
        }
      }
    }
    return more > 0 ? [`${more} more warning${more === 1 ? '' : 's'}`] : [];
  };
}
