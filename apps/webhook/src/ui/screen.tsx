/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { CapturedRequest } from '../capture/record.js';
import { printable, STAND_IN } from '../format/printable.js';
import { clock } from '../format/time.js';
import type { Notice } from './commands.js';
import { buildDetail, type Tone, visibleLines } from './detail.js';
import type { Layout } from './layout.js';
import { layoutOf, recordAt, selectedRecord, type UiState } from './reducer.js';
import { columnsOf, fit } from './text-width.js';

/** The whole screen as a function of the state. */
export function Screen({ state, address }: { state: UiState; address: string }) {
  const layout = layoutOf(state);
  return (
    <Box flexDirection="column" width={layout.columns} height={layout.rows}>
      {state.warnings.slice(0, layout.bannerRows).map((warning) => (
        <Text key={warning} wrap="truncate" bold color="yellow">
          {fit(`⚠ ${printable(warning)}`, layout.columns)}
        </Text>
      ))}
      <Box flexDirection="row" height={layout.paneHeight}>
        <RequestList state={state} layout={layout} />
        <DetailPane state={state} layout={layout} address={address} />
      </Box>
      <StatusBar state={state} layout={layout} address={address} />
    </Box>
  );
}

function Pane({ width, children }: { width: number; children: React.ReactNode }) {
  return (
    <Box
      flexDirection="column"
      width={width}
      flexShrink={0}
      borderStyle="round"
      borderColor="gray"
      paddingX={1}
    >
      {children}
    </Box>
  );
}

/**
 * The mark before a row: the signature check (`✓`, `✗`), a replay (`↻`), a forward that failed or
 * got an error status (`!`); null when there is nothing to say.
 */
export function rowMark(record: CapturedRequest): { text: string; color: string } | null {
  if (record.verification) {
    return record.verification.ok ? { text: '✓', color: 'green' } : { text: '✗', color: 'red' };
  }
  if (record.replayOf !== undefined) return { text: '↻', color: 'cyan' };
  const forward = record.forward;
  if (forward?.kind === 'failure' || (forward?.kind === 'response' && forward.status >= 500)) {
    return { text: '!', color: 'red' };
  }
  return null;
}

function RequestList({ state, layout }: { state: UiState; layout: Layout }) {
  const end = Math.min(state.shown.length, state.listTop + layout.listRows);
  const visible: CapturedRequest[] = [];
  for (let index = state.listTop; index < end; index += 1) {
    const record = recordAt(state, index);
    if (record) visible.push(record);
  }
  // A gutter for marks only when a row on screen has one, so plain captures keep every column.
  const gutter = visible.some((record) => rowMark(record) !== null);
  const rows = visible.map((record) => {
    const selected = record.seq === state.selectedSeq;
    const mark = gutter ? rowMark(record) : null;
    const width = layout.listTextWidth - (gutter ? 2 : 0);
    const text = fit(
      `${clock(record.receivedAt)} ${printable(record.method)} ${printable(record.path)}`,
      Math.max(1, width),
    );
    return (
      <Text key={record.seq} wrap="truncate">
        {gutter ? (
          <Text color={mark?.color} bold>
            {mark ? `${mark.text} ` : '  '}
          </Text>
        ) : null}
        <Text inverse={selected} color={selected ? 'cyan' : undefined}>
          {text}
        </Text>
      </Text>
    );
  });
  return (
    <Pane width={layout.listWidth}>
      {rows.length > 0 ? rows : <Text dimColor>Waiting for requests…</Text>}
    </Pane>
  );
}

const TONES: Record<Tone, { color?: string; bold?: boolean; dimColor?: boolean }> = {
  title: { bold: true, color: 'cyan' },
  heading: { bold: true },
  meta: { dimColor: true },
  plain: {},
  hint: { color: 'yellow' },
  good: { color: 'green' },
  bad: { color: 'red' },
};

function DetailPane({
  state,
  layout,
  address,
}: {
  state: UiState;
  layout: Layout;
  address: string;
}) {
  const record = selectedRecord(state);
  if (!record) {
    return (
      <Pane width={layout.detailWidth}>
        <Text dimColor wrap="truncate">
          Send a request, for example:
        </Text>
        <Text wrap="truncate">{`curl -d '{"hello":"world"}' ${address}/hooks/test`}</Text>
      </Pane>
    );
  }
  const document = buildDetail(record, layout.detailTextWidth, state.expanded, state.bodyMode);
  const lines = visibleLines(document, state.detailTop, layout.detailRows).map((line, index) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: rows are positions on screen
    <Text key={index} wrap="truncate" {...TONES[line.tone]}>
      <StyledText text={line.text === '' ? ' ' : line.text} />
    </Text>
  ));
  return <Pane width={layout.detailWidth}>{lines}</Pane>;
}

/** Shortcut hints, longest first: the status bar shows the longest that fits. */
const HINTS = [
  'jk select  ⏎ body  v view  / filter  r replay  e edit  x curl  X har  c clear  q quit',
  'jk ⏎ body  v view  / filter  r replay  x curl  q quit',
  'jk ⏎ v / r e x X c q',
  'q quit',
  '',
];
const PROMPT_HINTS = ['Enter keep  Esc clear', ''];
const REPLAY_HINTS = ['Enter send  Esc cancel', ''];

/** `12 of 340 match` while a filter is applied. */
export function matchCount(state: UiState): string {
  return `${state.shown.length} of ${state.records.length} match`;
}

function StatusBar({
  state,
  layout,
  address,
}: {
  state: UiState;
  layout: Layout;
  address: string;
}) {
  let left: string;
  let hints = HINTS;
  let tone: Notice['tone'] | null = null;
  const prompt = state.prompt;
  if (prompt?.kind === 'filter') {
    const outcome = state.filter.error ?? matchCount(state);
    left = ` /${printable(state.filter.text)}▏ ${outcome}`;
    hints = PROMPT_HINTS;
    if (state.filter.error) tone = 'bad';
  } else if (prompt?.kind === 'replayTarget') {
    left = ` ${prompt.edit ? 'Edit, then replay' : 'Replay'} to URL: ${printable(prompt.text)}▏`;
    hints = REPLAY_HINTS;
  } else {
    left = ` ${address} · ${state.records.length} kept / ${state.seen} seen`;
    // The send URL is what a user pastes into the provider: shown whole while connected.
    if (state.relay) {
      left += ` · ${printable(state.relay.status)}`;
      if (state.relay.status === 'relay: connected') left += ` ${printable(state.relay.sendUrl)}`;
    }
    if (state.filter.applied) left += ` · /${printable(state.filter.text)} · ${matchCount(state)}`;
    if (state.bodyMode !== 'pretty') left += ` · body: ${state.bodyMode}`;
  }
  if (state.notice) {
    left += ` · ${state.notice.text}`;
    tone = state.notice.tone;
    hints = [''];
  }
  const room = layout.columns - columnsOf(left) - 1;
  const hint = hints.find((candidate) => columnsOf(candidate) <= room) ?? '';
  const gap = ' '.repeat(Math.max(1, room - columnsOf(hint)));
  const color = tone === 'bad' ? 'red' : tone === 'good' ? 'green' : undefined;
  return (
    <Text wrap="truncate" inverse color={color}>
      {fit(`${left}${gap}${hint}`, layout.columns)}
    </Text>
  );
}

/**
 * Text with the stand-ins `printable` wrote (`␛`, `<U+202E>`) shown in reverse video, so they
 * cannot be mistaken for the text around them.
 */
function StyledText({ text }: { text: string }) {
  STAND_IN.lastIndex = 0;
  if (!STAND_IN.test(text)) return <>{text}</>;
  const pieces: React.ReactNode[] = [];
  let last = 0;
  for (const match of text.matchAll(STAND_IN)) {
    const at = match.index ?? 0;
    if (at > last) pieces.push(text.slice(last, at));
    pieces.push(
      <Text key={at} inverse dimColor>
        {match[0]}
      </Text>,
    );
    last = at + match[0].length;
  }
  if (last < text.length) pieces.push(text.slice(last));
  return <>{pieces}</>;
}
