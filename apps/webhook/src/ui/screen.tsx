/** @jsxRuntime automatic @jsxImportSource react */
import { Box, Text } from 'ink';
import type { CapturedRequest } from '../capture/record.js';
import { printableInUi, STAND_IN } from '../format/printable.js';
import { clock } from '../format/time.js';
import type { Notice } from './commands.js';
import { type Tone, visibleLines } from './detail.js';
import type { Layout } from './layout.js';
import { layoutOf, recordAt, selectedDetail, type UiState } from './reducer.js';
import { columnsOf, fit, middleEllipsis } from './text-width.js';

/** The whole screen as a function of the state. */
export function Screen({ state, address }: { state: UiState; address: string }) {
  const layout = layoutOf(state);
  return (
    <Box flexDirection="column" width={layout.columns} height={layout.rows}>
      {state.warnings.slice(0, layout.bannerRows).map((warning) => (
        <Text key={warning} wrap="truncate" bold color="yellow">
          {fit(`⚠ ${printableInUi(warning)}`, layout.columns)}
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

/**
 * What happened to the request, longest first: the status this tool answered, then the forward's
 * (or a replay's) status and duration, as ngrok's inspector shows `200 33ms`. A row uses the
 * longest that leaves the path room.
 */
function outcomes(record: CapturedRequest): string[] {
  const answered = record.response ? String(record.response.status) : '';
  const forward = record.forward;
  if (!forward) return [answered];
  let sent: string[];
  if (forward.kind === 'pending') sent = ['→ …'];
  else if (forward.kind === 'failure') sent = [`→ ${forward.failure}`, '→ ✗'];
  else sent = [`→ ${forward.status} ${forward.durationMs}ms`, `→ ${forward.status}`];
  const joined = (part: string) => (answered ? `${answered} ${part}` : part);
  return [...sent.map(joined), ...sent, ''];
}

/** The columns a path keeps at least before the row drops its time and then its outcome. */
const MIN_PATH_COLUMNS = 10;
const CLOCK_COLUMNS = 9;

/**
 * A list row in `width` columns: time, method, path and outcome (`12:00:01 POST /hooks/a  200 →
 * 201 33ms`). A long path is cut in the middle, keeping its informative end; the time goes first
 * when room is short, then the longer outcomes.
 */
export function rowText(record: CapturedRequest, width: number): string {
  const method = printableInUi(record.method);
  const path = printableInUi(record.path);
  const choices = outcomes(record);
  let outcome = choices.at(-1) ?? '';
  for (const choice of choices) {
    const room = width - columnsOf(method) - 1 - (choice ? columnsOf(choice) + 1 : 0);
    if (room >= Math.min(columnsOf(path), MIN_PATH_COLUMNS)) {
      outcome = choice;
      break;
    }
  }
  const tail = outcome ? ` ${outcome}` : '';
  let lead = `${method} `;
  const clockRoom = width - columnsOf(lead) - columnsOf(tail) - CLOCK_COLUMNS;
  if (clockRoom >= Math.min(columnsOf(path), MIN_PATH_COLUMNS)) {
    lead = `${clock(record.receivedAt)} ${lead}`;
  }
  const pathRoom = Math.max(1, width - columnsOf(lead) - columnsOf(tail));
  const shown = middleEllipsis(path, pathRoom);
  const gap = ' '.repeat(Math.max(0, pathRoom - columnsOf(shown)));
  return fit(`${lead}${shown}${gap}${tail}`, Math.max(1, width));
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
    const text = rowText(record, Math.max(1, width));
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
      {rows.length > 0 ? (
        rows
      ) : (
        <Text dimColor wrap="truncate">
          {noMatch(state) ? 'No match' : 'Waiting for requests…'}
        </Text>
      )}
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
  const document = selectedDetail(state);
  const empty = noMatch(state);
  if (!document && empty) {
    return (
      <Pane width={layout.detailWidth}>
        <Text wrap="truncate">{empty}</Text>
      </Pane>
    );
  }
  if (!document) {
    return (
      <Pane width={layout.detailWidth}>
        <Text dimColor wrap="truncate">
          Send a request, for example:
        </Text>
        <Text wrap="truncate">{`curl -d '{"hello":"world"}' ${address}/hooks/test`}</Text>
      </Pane>
    );
  }
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
  'jk select  ⏎ body  [] body start/end  v view  / filter  r replay  e edit  x curl  X har  c clear  q quit',
  'jk select  ⏎ body  v view  / filter  r replay  e edit  x curl  X har  c clear  q quit',
  'jk ⏎ body  v view  / filter  r replay  x curl  q quit',
  'jk ⏎ [] v / r e x X c q',
  'q quit',
  '',
];
const PROMPT_HINTS = ['Enter keep  Esc clear', ''];
const REPLAY_HINTS = ['Enter send  Esc cancel', ''];

/**
 * `body line 120 of 27,000` while the selected body is longer than the pane: the body row at the
 * top of the pane (its first one while the headers are still in view). Null otherwise.
 */
export function bodyPosition(state: UiState): string | null {
  const document = selectedDetail(state);
  if (!document) return null;
  const layout = layoutOf(state);
  const { bodyStart, bodyLength } = document;
  if (bodyLength <= layout.detailRows) return null;
  const line = Math.min(bodyLength, Math.max(1, state.detailTop - bodyStart + 1));
  const count = (n: number) => n.toLocaleString('en-US');
  return `body line ${count(line)} of ${count(bodyLength)}`;
}

/**
 * `No request matches /zzz (3 kept; Esc clears the filter)` while an applied filter matches none of
 * the records kept; null otherwise (no filter, a match, or nothing kept: the first-run panes).
 */
export function noMatch(state: UiState): string | null {
  const applied = state.filter.applied;
  if (!applied || state.shown.length > 0 || state.records.length === 0) return null;
  return `No request matches /${printableInUi(applied.text)} (${state.records.length} kept; Esc clears the filter)`;
}

/** `12 of 340 match` while a filter is applied. */
export function matchCount(state: UiState): string {
  return `${state.shown.length} of ${state.records.length} match`;
}

/** Fewer columns than this left for the relay's state: it is left out rather than cut to nothing. */
const MIN_RELAY_COLUMNS = 16;

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
    left = ` /${printableInUi(state.filter.text)}▏ ${outcome}`;
    hints = PROMPT_HINTS;
    if (state.filter.error) tone = 'bad';
  } else if (prompt?.kind === 'replayTarget') {
    left = ` ${prompt.edit ? 'Edit, then replay' : 'Replay'} to base URL (the path is appended): ${printableInUi(prompt.text)}▏`;
    hints = REPLAY_HINTS;
  } else {
    left = ` ${address} · ${state.records.length} kept / ${state.seen} seen`;
    let after = '';
    if (state.filter.applied)
      after += ` · /${printableInUi(state.filter.text)} · ${matchCount(state)}`;
    if (state.bodyMode !== 'pretty') after += ` · body: ${state.bodyMode}`;
    const position = bodyPosition(state);
    if (position) after += ` · ${position}`;
    if (state.notice) after += ` · ${state.notice.text}`;
    // The relay segment takes the room the rest leaves: an outcome, the match count or the body
    // position answer what the user just did, where the relay's state stays there to be read.
    // The send URL is what a user pastes into the provider: shown whole while connected, when
    // it fits (`y` copies it, or shows it whole when the clipboard may not work).
    if (state.relay) {
      let relay = ` · ${printableInUi(state.relay.status)}`;
      if (state.relay.status === 'relay: connected')
        relay += ` ${printableInUi(state.relay.sendUrl)}`;
      const room = layout.columns - columnsOf(left) - columnsOf(after) - 1;
      if (columnsOf(relay) > room)
        relay = room >= MIN_RELAY_COLUMNS ? fit(relay, room).trimEnd() : '';
      left += relay;
    }
    left += after;
  }
  if (state.notice) {
    if (prompt) left += ` · ${state.notice.text}`;
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
