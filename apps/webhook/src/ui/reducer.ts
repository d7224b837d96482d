import type { CapturedRequest } from '../capture/record.js';
import type { StoreSnapshot } from '../capture/store.js';
import type { ContentDecoding } from '../format/decode.js';
import { CREDENTIALS_PROBLEM, QUERY_PROBLEM } from '../forward/url.js';
import type { Notice, UiCommand } from './commands.js';
import {
  BODY_MODES,
  type BodyMode,
  buildDetail,
  type DecodedBodies,
  type DetailDocument,
  NO_DECODED,
  pendingCodings,
} from './detail.js';
import { type Filter, matches, narrows, parseFilter } from './filter.js';
import { type Layout, layoutFor } from './layout.js';

/** The filter typed after `/`: its text, and the last version of it that parsed. */
export interface FilterState {
  readonly text: string;
  /** The filter the list shows, or null for the whole list. Kept while the text does not parse. */
  readonly applied: Filter | null;
  /** Why `text` does not parse, shown in the status bar; null when it does. */
  readonly error: string | null;
}

/** A line of text being typed in the status bar. */
export type Prompt =
  | { readonly kind: 'filter' }
  | { readonly kind: 'replayTarget'; readonly text: string; readonly edit: boolean };

/** The whole UI state: views are functions of it, and only `step`/`reduce` change it. */
export interface UiState {
  /** Oldest first, as the store holds them. */
  readonly records: readonly CapturedRequest[];
  /** The records the list shows, oldest first: `records` itself, or those the filter matches. */
  readonly shown: readonly CapturedRequest[];
  /** Requests seen since start (kept or not). */
  readonly seen: number;
  /** The selected request's seq, or null when there is none. */
  readonly selectedSeq: number | null;
  /** Index, in newest-first order, of the first row shown in the list. */
  readonly listTop: number;
  /** First detail line shown. */
  readonly detailTop: number;
  /** Whether the body is shown whole; each newly selected request starts collapsed. */
  readonly expanded: boolean;
  /** How bodies are shown (`v` cycles); kept from one request to the next. */
  readonly bodyMode: BodyMode;
  readonly filter: FilterState;
  /** Text being typed in the status bar, if any: keys are then text, not commands. */
  readonly prompt: Prompt | null;
  /** The last replay URL typed, used for records without a target of their own. */
  readonly replayTarget: string | null;
  /** Each record's own replay target, from the config (see `ReplayTargetOf`). */
  readonly replayTargetOf: ReplayTargetOf;
  /**
   * The selected request's bodies with their `Content-Encoding` undone (`decode` commands; the
   * work runs off the event loop), the few most recent only.
   */
  readonly decoded: DecodedBodies;
  /** The last command's outcome, shown in the status bar until the next key. */
  readonly notice: Notice | null;
  /**
   * Conditions that hold for the whole run (listening beyond loopback): one line each above the
   * panes, never dismissed, since the condition does not go away.
   */
  readonly warnings: readonly string[];
  readonly columns: number;
  readonly rows: number;
  /** Receiving from a relay channel as well; null: local capture only. */
  readonly relay: RelayView | null;
}

/**
 * Where `r` sends a record without asking: its route's forward target, else --forward-to, else
 * --replay-to; null when none is set. A pure function of the record and the config, fixed for the
 * run, so the reducer decides with it whether to send at once or open the URL prompt.
 */
export type ReplayTargetOf = (record: CapturedRequest) => string | null;

const NO_REPLAY_TARGET: ReplayTargetOf = () => null;

/** Keys that mean the same in every state; bound to terminal keys in one table in keys.ts. */
export type UiKey =
  | 'up'
  | 'down'
  | 'newest'
  | 'oldest'
  | 'pageUp'
  | 'pageDown'
  | 'bodyStart'
  | 'bodyEnd'
  | 'toggleBody'
  | 'cycleBody'
  | 'clear'
  | 'filter'
  | 'nextMatch'
  | 'previousMatch'
  | 'replay'
  | 'editReplay'
  | 'copyCurl'
  | 'copySendUrl'
  | 'exportHar'
  | 'escape'
  | 'suspend'
  | 'quit';

export type UiEvent =
  | { readonly type: 'key'; readonly key: UiKey }
  /** Characters typed (or pasted) into the prompt. */
  | { readonly type: 'type'; readonly text: string }
  /** Backspace in the prompt. */
  | { readonly type: 'erase' }
  /** Enter in the prompt. */
  | { readonly type: 'submit' }
  | { readonly type: 'sync'; readonly snapshot: StoreSnapshot }
  | { readonly type: 'resize'; readonly columns: number; readonly rows: number }
  | { readonly type: 'notice'; readonly notice: Notice }
  /** A `decode` command's result. */
  | { readonly type: 'decoded'; readonly body: Buffer; readonly decoding: ContentDecoding }
  /** The relay client's connection changed (`--relay`). */
  | { readonly type: 'relay'; readonly status: string };

/** `--relay`: the channel's send URL and the connection's state, for the status bar. */
export interface RelayView {
  readonly sendUrl: string;
  /** `relay: connected`, `relay: reconnecting in 4 s (ECONNREFUSED)`, `relay: refused (…)`. */
  readonly status: string;
}

export interface Step {
  readonly state: UiState;
  readonly commands: readonly UiCommand[];
}

const NO_FILTER: FilterState = { text: '', applied: null, error: null };

export function initialState(
  columns: number,
  rows: number,
  warnings: readonly string[] = [],
  replayTargetOf: ReplayTargetOf = NO_REPLAY_TARGET,
  relay: RelayView | null = null,
): UiState {
  return {
    records: [],
    shown: [],
    seen: 0,
    selectedSeq: null,
    listTop: 0,
    detailTop: 0,
    expanded: false,
    bodyMode: 'pretty',
    filter: NO_FILTER,
    prompt: null,
    replayTarget: null,
    replayTargetOf,
    decoded: NO_DECODED,
    notice: null,
    warnings,
    columns,
    rows,
    relay,
  };
}

/** Where everything goes for this state's terminal size and warnings. */
export function layoutOf(state: UiState): Layout {
  return layoutFor(state.columns, state.rows, state.warnings.length);
}

/** The state after `event`, for callers that perform no commands (tests, `useReducer`). */
export function reduce(state: UiState, event: UiEvent): UiState {
  return step(state, event).state;
}

/** The state after `event`, and the effects the caller must perform. Pure. */
export function step(state: UiState, event: UiEvent): Step {
  return askDecodes(apply(state, event));
}

/** Bodies decoded and kept at once: the selected request's (request, response, forward answer). */
const DECODED_KEPT = 6;

/**
 * Asks for the selected request's encoded bodies to be decoded, once each, unless they are shown
 * as received (`hex`): the reducer never decodes, the command runner does, off the event loop.
 */
function askDecodes(next: Step): Step {
  const { state } = next;
  const record = selectedRecord(state);
  if (!record || state.bodyMode === 'hex') return next;
  // Headers are read lazily: a stored record unpacks them on each read.
  const bodies: [Buffer, () => CapturedRequest['headers'], boolean][] = [
    [record.body, () => record.headers, record.truncated],
  ];
  const { response, forward } = record;
  if (response) bodies.push([response.body, () => response.headers, false]);
  if (forward?.kind === 'response') {
    bodies.push([forward.body, () => forward.headers, forward.truncated]);
  }
  let decoded: Map<Buffer, ContentDecoding | 'decoding'> | null = null;
  const commands: UiCommand[] = [];
  for (const [body, headers, truncated] of bodies) {
    if (body.length === 0 || state.decoded.has(body) || decoded?.has(body)) continue;
    const codings = pendingCodings(headers, body);
    if (codings.length === 0) continue;
    decoded ??= new Map(state.decoded);
    decoded.set(body, 'decoding');
    commands.push({ type: 'decode', body, contentEncoding: codings.join(', '), truncated });
  }
  if (!decoded) return next;
  for (const key of decoded.keys()) {
    if (decoded.size <= DECODED_KEPT) break;
    decoded.delete(key);
  }
  return { state: { ...state, decoded }, commands: [...next.commands, ...commands] };
}

function apply(state: UiState, event: UiEvent): Step {
  switch (event.type) {
    case 'decoded': {
      if (state.decoded.get(event.body) !== 'decoding') return only(state);
      const decoded = new Map(state.decoded);
      decoded.set(event.body, event.decoding);
      return only(settle({ ...state, decoded }));
    }
    case 'sync':
      return only(arrive(state, event.snapshot));
    case 'resize':
      return only(settle({ ...state, columns: event.columns, rows: event.rows }));
    case 'notice':
      return only({ ...state, notice: event.notice });
    case 'relay':
      return only(
        state.relay ? { ...state, relay: { ...state.relay, status: event.status } } : state,
      );
    case 'type':
      return only(typeText(state, event.text));
    case 'erase':
      return only(eraseText(state));
    case 'submit':
      return submit(state);
    case 'key':
      return press({ ...state, notice: null }, event.key);
  }
}

const only = (state: UiState): Step => ({ state, commands: [] });

function press(state: UiState, key: UiKey): Step {
  const selected = selectedIndex(state);
  const last = state.shown.length - 1;
  switch (key) {
    case 'quit':
      return { state, commands: [{ type: 'quit' }] };
    case 'suspend':
      return { state, commands: [{ type: 'suspend' }] };
    case 'escape':
      if (state.prompt?.kind === 'replayTarget') return only({ ...state, prompt: null });
      if (state.prompt || state.filter.text !== '') {
        return only(applyFilter({ ...state, prompt: null }, NO_FILTER));
      }
      return { state, commands: [{ type: 'quit' }] };
    case 'up':
      return only(select(state, selected === null ? null : Math.max(0, selected - 1)));
    case 'down':
      return only(select(state, selected === null ? null : Math.min(last, selected + 1)));
    case 'newest':
      return only(select(state, last >= 0 ? 0 : null));
    case 'oldest':
      return only(select(state, last >= 0 ? last : null));
    case 'nextMatch':
    case 'previousMatch': {
      if (last < 0) return only(state);
      const from = selected ?? -1;
      const next =
        key === 'nextMatch' ? (from + 1) % (last + 1) : (from - 1 + last + 1) % (last + 1);
      return only(select(state, next));
    }
    case 'pageUp':
    case 'pageDown': {
      const page = Math.max(1, layoutOf(state).detailRows - 1);
      const top = state.detailTop + (key === 'pageDown' ? page : -page);
      return only(settle({ ...state, detailTop: top }));
    }
    case 'bodyStart':
    case 'bodyEnd': {
      // The end of a collapsed body is its marker: jumping there shows the body whole.
      const shown = key === 'bodyEnd' && selected !== null ? { ...state, expanded: true } : state;
      const document = selectedDetail(shown);
      if (!document) return only(state);
      const layout = layoutOf(shown);
      // The start shows the body's heading above its first line; the end fills the pane with its
      // last lines (settle keeps it within the document).
      const top =
        key === 'bodyStart'
          ? document.bodyStart - 1
          : document.bodyStart + document.bodyLength - layout.detailRows;
      return only(settle({ ...shown, detailTop: Math.max(0, top) }));
    }
    case 'toggleBody':
      return only(selected === null ? state : settle({ ...state, expanded: !state.expanded }));
    case 'cycleBody': {
      const next = BODY_MODES[(BODY_MODES.indexOf(state.bodyMode) + 1) % BODY_MODES.length];
      return only(settle({ ...state, bodyMode: next ?? 'pretty' }));
    }
    case 'clear':
      return {
        state: {
          ...state,
          records: [],
          shown: [],
          selectedSeq: null,
          listTop: 0,
          detailTop: 0,
          expanded: false,
        },
        commands: [{ type: 'clear' }],
      };
    case 'filter':
      return only({ ...state, prompt: { kind: 'filter' } });
    case 'replay':
    case 'editReplay': {
      const record = selectedRecord(state);
      const edit = key === 'editReplay';
      if (!record) return only(notice(state, 'Nothing selected to replay', 'bad'));
      // The record's own target first, sent without a URL so its route still shapes the path;
      // else the URL typed last; else ask for one.
      if (state.replayTargetOf(record) !== null) {
        return { state, commands: [{ type: 'replay', record, target: null, edit }] };
      }
      if (state.replayTarget !== null) {
        return { state, commands: [{ type: 'replay', record, target: state.replayTarget, edit }] };
      }
      return only({ ...state, prompt: { kind: 'replayTarget', text: 'http://', edit } });
    }
    case 'copyCurl': {
      const record = selectedRecord(state);
      if (!record) return only(notice(state, 'Nothing selected to copy', 'bad'));
      return { state, commands: [{ type: 'copyCurl', record }] };
    }
    case 'copySendUrl': {
      if (!state.relay)
        return only(notice(state, 'No relay: start with --relay <send URL>', 'bad'));
      return {
        state,
        commands: [{ type: 'copyText', text: state.relay.sendUrl, what: 'send URL' }],
      };
    }
    case 'exportHar': {
      if (state.shown.length === 0) return only(notice(state, 'Nothing to export', 'bad'));
      const filter = state.filter.applied ? state.filter.applied.text : null;
      return { state, commands: [{ type: 'exportHar', records: state.shown, filter }] };
    }
  }
}

const notice = (state: UiState, text: string, tone: 'info' | 'good' | 'bad'): UiState => ({
  ...state,
  notice: { text, tone },
});

function typeText(state: UiState, text: string): UiState {
  const prompt = state.prompt;
  if (!prompt) return state;
  if (prompt.kind === 'replayTarget') {
    return { ...state, prompt: { ...prompt, text: prompt.text + text } };
  }
  return applyFilterText(state, state.filter.text + text);
}

function eraseText(state: UiState): UiState {
  const prompt = state.prompt;
  if (!prompt) return state;
  if (prompt.kind === 'replayTarget') {
    return { ...state, prompt: { ...prompt, text: Array.from(prompt.text).slice(0, -1).join('') } };
  }
  return applyFilterText(state, Array.from(state.filter.text).slice(0, -1).join(''));
}

function submit(state: UiState): Step {
  const prompt = state.prompt;
  if (!prompt) return only(state);
  if (prompt.kind === 'filter') return only({ ...state, prompt: null });
  const record = selectedRecord(state);
  if (!record) return only(notice({ ...state, prompt: null }, 'Nothing selected to replay', 'bad'));
  const target = replayUrl(prompt.text);
  if (typeof target !== 'string') return only(notice(state, target.error, 'bad'));
  return {
    state: { ...state, prompt: null, replayTarget: target },
    commands: [{ type: 'replay', record, target, edit: prompt.edit }],
  };
}

/** A replay target typed in the prompt: an absolute http(s) URL. */
export function replayUrl(text: string): string | { error: string } {
  try {
    const url = new URL(text.trim());
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      return { error: `Replay needs an http:// or https:// URL (got ${url.protocol})` };
    }
    if (url.username || url.password) return { error: `Replay URL ${CREDENTIALS_PROBLEM}` };
    // As --replay-to: the request's own query would replace it (it was dropped without a word).
    if (url.search || url.hash) return { error: `Replay URL ${QUERY_PROBLEM}` };
    return url.href;
  } catch {
    return { error: 'Replay needs a URL such as http://127.0.0.1:3000/hooks' };
  }
}

function applyFilterText(state: UiState, text: string): UiState {
  if (text.trim() === '') return applyFilter(state, { text, applied: null, error: null });
  const parsed = parseFilter(text);
  if (!parsed.ok) return { ...state, filter: { ...state.filter, text, error: parsed.error } };
  return applyFilter(state, { text, applied: parsed.filter, error: null });
}

/**
 * Shows what `filter` matches. A filter that narrows the one before (typing more of a word, adding
 * a term) is tried only on the previous matches.
 */
function applyFilter(state: UiState, filter: FilterState): UiState {
  const next = filter.applied;
  const previous = state.filter.applied;
  let shown: readonly CapturedRequest[];
  if (!next) shown = state.records;
  else if (previous && narrows(previous, next)) shown = state.shown.filter((r) => matches(next, r));
  else shown = state.records.filter((record) => matches(next, record));
  const base = { ...state, filter, shown };
  if (selectedIndex(base) !== null) return settle(base);
  // The selection is filtered out: show the newest match.
  return settle({
    ...base,
    selectedSeq: shown.at(-1)?.seq ?? null,
    listTop: 0,
    detailTop: 0,
    expanded: false,
  });
}

/**
 * New store contents. A selection on the newest request (or no selection) moves to the new newest;
 * any other stays on the request the user chose, at the same place on screen when possible. A
 * selected request that retention dropped gives way to the oldest one left. With a filter, only
 * the new arrivals are matched (retention only ever drops the oldest).
 */
function arrive(state: UiState, snapshot: StoreSnapshot): UiState {
  const records = snapshot.records;
  // The store returns the same array until it changes: nothing arrived, nothing to redraw.
  if (records === state.records && snapshot.seen === state.seen) return state;
  const previousNewest = state.shown.at(-1)?.seq ?? null;
  const following = state.selectedSeq === null || state.selectedSeq === previousNewest;
  const base = { ...state, records, shown: shownAfter(state, records), seen: snapshot.seen };
  const shown = base.shown;
  const newest = shown.at(-1);
  if (!newest) return { ...base, selectedSeq: null, listTop: 0, detailTop: 0, expanded: false };
  if (following) {
    const next = { ...base, selectedSeq: newest.seq, listTop: 0 };
    return settle(
      newest.seq === state.selectedSeq ? next : { ...next, detailTop: 0, expanded: false },
    );
  }
  const before = selectedIndex(state);
  const after = selectedIndex(base);
  if (after === null || before === null) {
    return settle({ ...base, selectedSeq: shown[0]?.seq ?? null, detailTop: 0, expanded: false });
  }
  // Keep the selected row where it was on screen; settle() still brings it into view.
  return settle({ ...base, listTop: state.listTop + (after - before) });
}

/**
 * What the filter shows of new store contents. Only records that are new or were replaced (a
 * forward finished: same seq, new object) are matched again; the others keep their verdict, so
 * arrivals cost one walk and no matching of what was already matched.
 */
function shownAfter(state: UiState, records: readonly CapturedRequest[]) {
  const filter = state.filter.applied;
  if (!filter) return records;
  const previous = state.records;
  const shown = state.shown;
  const result: CapturedRequest[] = [];
  let p = 0;
  let q = 0;
  for (const record of records) {
    while (p < previous.length && (previous[p] as CapturedRequest).seq < record.seq) p += 1;
    if (previous[p] === record) {
      while (q < shown.length && (shown[q] as CapturedRequest).seq < record.seq) q += 1;
      if (shown[q] === record) result.push(record);
    } else if (matches(filter, record)) {
      result.push(record);
    }
  }
  return result;
}

/** Selects the request at `index` (newest first); a new selection starts at the top, collapsed. */
function select(state: UiState, index: number | null): UiState {
  if (index === null) return state;
  const seq = recordAt(state, index)?.seq ?? null;
  if (seq === state.selectedSeq) return settle(state);
  return settle({ ...state, selectedSeq: seq, detailTop: 0, expanded: false });
}

/** The detail pane's document for the selected request as `state` shows it, or null. */
export function selectedDetail(state: UiState): DetailDocument | null {
  const record = selectedRecord(state);
  if (!record) return null;
  const { detailTextWidth } = layoutOf(state);
  return buildDetail(record, detailTextWidth, state.expanded, state.bodyMode, state.decoded);
}

/** Clamps both scroll positions: the selection visible in the list, the detail within its content. */
function settle(state: UiState): UiState {
  const layout = layoutOf(state);
  const count = state.shown.length;
  let listTop = Math.min(state.listTop, Math.max(0, count - layout.listRows));
  const selected = selectedIndex(state);
  if (selected !== null) {
    if (selected < listTop) listTop = selected;
    if (selected >= listTop + layout.listRows) listTop = selected - layout.listRows + 1;
  }
  listTop = Math.max(0, listTop);
  const detailLength = selectedDetail(state)?.length ?? 0;
  const detailTop = Math.max(0, Math.min(state.detailTop, detailLength - layout.detailRows));
  if (listTop === state.listTop && detailTop === state.detailTop) return state;
  return { ...state, listTop, detailTop };
}

/** The record shown at `index` in the list (0 = newest). */
export function recordAt(state: UiState, index: number): CapturedRequest | undefined {
  return state.shown[state.shown.length - 1 - index];
}

export function selectedRecord(state: UiState): CapturedRequest | undefined {
  const index = selectedIndex(state);
  return index === null ? undefined : recordAt(state, index);
}

/** The selection's index in the list (0 = newest), or null. Records are sorted by seq. */
export function selectedIndex(state: UiState): number | null {
  const seq = state.selectedSeq;
  if (seq === null) return null;
  const list = state.shown;
  let low = 0;
  let high = list.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const candidate = list[middle]?.seq ?? 0;
    if (candidate === seq) return list.length - 1 - middle;
    if (candidate < seq) low = middle + 1;
    else high = middle - 1;
  }
  return null;
}
