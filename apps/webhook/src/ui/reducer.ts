import type { CapturedRequest } from '../capture/record.js';
import type { StoreSnapshot } from '../capture/store.js';
import { type BodyMode, buildDetail } from './detail.js';
import { layoutFor } from './layout.js';

/** The whole UI state: views are functions of it, and only `reduce` changes it. */
export interface UiState {
  /** Oldest first, as the store holds them; the list shows them newest first. */
  readonly records: readonly CapturedRequest[];
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
  readonly columns: number;
  readonly rows: number;
}

export type UiKey =
  | 'up'
  | 'down'
  | 'newest'
  | 'oldest'
  | 'pageUp'
  | 'pageDown'
  | 'toggleBody'
  | 'clear';

export type UiEvent =
  | { readonly type: 'key'; readonly key: UiKey }
  | { readonly type: 'sync'; readonly snapshot: StoreSnapshot }
  | { readonly type: 'resize'; readonly columns: number; readonly rows: number };

export function initialState(columns: number, rows: number): UiState {
  return {
    records: [],
    seen: 0,
    selectedSeq: null,
    listTop: 0,
    detailTop: 0,
    expanded: false,
    bodyMode: 'pretty',
    columns,
    rows,
  };
}

export function reduce(state: UiState, event: UiEvent): UiState {
  switch (event.type) {
    case 'sync':
      return arrive(state, event.snapshot);
    case 'resize':
      return settle({ ...state, columns: event.columns, rows: event.rows });
    case 'key':
      return press(state, event.key);
  }
}

function press(state: UiState, key: UiKey): UiState {
  const selected = selectedIndex(state);
  const last = state.records.length - 1;
  switch (key) {
    case 'up':
      return select(state, selected === null ? null : Math.max(0, selected - 1));
    case 'down':
      return select(state, selected === null ? null : Math.min(last, selected + 1));
    case 'newest':
      return select(state, last >= 0 ? 0 : null);
    case 'oldest':
      return select(state, last >= 0 ? last : null);
    case 'pageUp':
    case 'pageDown': {
      const page = Math.max(1, layoutFor(state.columns, state.rows).detailRows - 1);
      const top = state.detailTop + (key === 'pageDown' ? page : -page);
      return settle({ ...state, detailTop: top });
    }
    case 'toggleBody':
      return selected === null ? state : settle({ ...state, expanded: !state.expanded });
    case 'clear':
      return {
        ...state,
        records: [],
        selectedSeq: null,
        listTop: 0,
        detailTop: 0,
        expanded: false,
      };
  }
}

/**
 * New store contents. A selection on the newest request (or no selection) moves to the new newest;
 * any other stays on the request the user chose, at the same place on screen when possible. A
 * selected request that retention dropped gives way to the oldest one left.
 */
function arrive(state: UiState, snapshot: StoreSnapshot): UiState {
  const records = snapshot.records;
  const previousNewest = state.records.at(-1)?.seq ?? null;
  const following = state.selectedSeq === null || state.selectedSeq === previousNewest;
  const base = { ...state, records, seen: snapshot.seen };
  const newest = records.at(-1);
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
    return settle({ ...base, selectedSeq: records[0]?.seq ?? null, detailTop: 0, expanded: false });
  }
  // Keep the selected row where it was on screen; settle() still brings it into view.
  return settle({ ...base, listTop: state.listTop + (after - before) });
}

/** Selects the request at `index` (newest first); a new selection starts at the top, collapsed. */
function select(state: UiState, index: number | null): UiState {
  if (index === null) return state;
  const seq = recordAt(state, index)?.seq ?? null;
  if (seq === state.selectedSeq) return settle(state);
  return settle({ ...state, selectedSeq: seq, detailTop: 0, expanded: false });
}

/** Clamps both scroll positions: the selection visible in the list, the detail within its content. */
function settle(state: UiState): UiState {
  const layout = layoutFor(state.columns, state.rows);
  const count = state.records.length;
  let listTop = Math.min(state.listTop, Math.max(0, count - layout.listRows));
  const selected = selectedIndex(state);
  if (selected !== null) {
    if (selected < listTop) listTop = selected;
    if (selected >= listTop + layout.listRows) listTop = selected - layout.listRows + 1;
  }
  listTop = Math.max(0, listTop);
  const record = selectedRecord(state);
  const detailLength = record
    ? buildDetail(record, layout.detailTextWidth, state.expanded, state.bodyMode).length
    : 0;
  const detailTop = Math.max(0, Math.min(state.detailTop, detailLength - layout.detailRows));
  if (listTop === state.listTop && detailTop === state.detailTop) return state;
  return { ...state, listTop, detailTop };
}

/** The record shown at `index` in the list (0 = newest). */
export function recordAt(state: UiState, index: number): CapturedRequest | undefined {
  return state.records[state.records.length - 1 - index];
}

export function selectedRecord(state: UiState): CapturedRequest | undefined {
  const index = selectedIndex(state);
  return index === null ? undefined : recordAt(state, index);
}

/** The selection's index in the list (0 = newest), or null. Records are sorted by seq. */
export function selectedIndex(state: UiState): number | null {
  const seq = state.selectedSeq;
  if (seq === null) return null;
  let low = 0;
  let high = state.records.length - 1;
  while (low <= high) {
    const middle = (low + high) >> 1;
    const candidate = state.records[middle]?.seq ?? 0;
    if (candidate === seq) return state.records.length - 1 - middle;
    if (candidate < seq) low = middle + 1;
    else high = middle - 1;
  }
  return null;
}
