import type { CapturedRequest } from '../capture/record.js';
import type { RequestStore } from '../capture/store.js';
import { decodeContent } from '../format/decode.js';
import { printableInUi } from '../format/printable.js';
import type { Notice, UiCommand } from './commands.js';
import type { UiEvent } from './reducer.js';

/**
 * The effects behind the reducer's commands that need more than the store: the network, the
 * clipboard, files, $EDITOR. Each resolves to the notice the status bar shows; run.tsx provides
 * the real ones, tests their own.
 */
export interface UiEffects {
  /** `target` null: the record's own target (its route keeps its say in the URL's path). */
  replay(record: CapturedRequest, target: string | null, edit: boolean): Promise<Notice>;
  copyCurl(record: CapturedRequest): Promise<Notice>;
  copyText(text: string, what: string): Promise<Notice>;
  exportHar(records: readonly CapturedRequest[], filter: string | null): Promise<Notice>;
}

/** What the command runner needs from the mounted UI. */
export interface CommandContext {
  readonly store: RequestStore;
  readonly onQuit: () => void;
  readonly effects?: UiEffects | undefined;
  /** Where an effect that outlives its mount reports (see `AppProps.channel`). */
  readonly channel?: { current: ((event: UiEvent) => void) | null } | undefined;
}

const failed = (error: unknown): Notice => ({
  text: printableInUi(error instanceof Error ? error.message : String(error)),
  tone: 'bad',
});

/** Performs one command of the reducer's; effects report back with a `notice` event. */
export function perform(
  command: UiCommand,
  props: CommandContext,
  dispatch: (event: UiEvent) => void,
): void {
  const report = (work: Promise<Notice> | undefined) => {
    if (!work) {
      dispatch({ type: 'notice', notice: { text: 'Not available here', tone: 'bad' } });
      return;
    }
    const deliver = (event: UiEvent) => (props.channel?.current ?? dispatch)(event);
    work.then(
      (notice) => deliver({ type: 'notice', notice }),
      (error: unknown) => deliver({ type: 'notice', notice: failed(error) }),
    );
  };
  const { effects } = props;
  switch (command.type) {
    case 'quit':
      props.onQuit();
      return;
    case 'suspend':
      // Raw mode turns Ctrl+Z into a key: the signal the terminal would have sent, handled in
      // one place (run.tsx) whether it came from the key or from `kill -TSTP`.
      process.kill(process.pid, 'SIGTSTP');
      return;
    case 'clear':
      props.store.clear();
      return;
    case 'replay':
      report(effects?.replay(command.record, command.target, command.edit));
      return;
    case 'decode': {
      const deliver = (event: UiEvent) => (props.channel?.current ?? dispatch)(event);
      const { body } = command;
      void decodeContent(body, command.contentEncoding, command.truncated).then((decoding) =>
        deliver({ type: 'decoded', body, decoding }),
      );
      return;
    }
    case 'copyCurl':
      report(effects?.copyCurl(command.record));
      return;
    case 'copyText':
      report(effects?.copyText(command.text, command.what));
      return;
    case 'exportHar':
      report(effects?.exportHar(command.records, command.filter));
      return;
  }
}
