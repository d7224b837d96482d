/** Where everything goes for a terminal size; a pure function so the reducer and views agree. */
export interface Layout {
  readonly columns: number;
  readonly rows: number;
  /** Outer widths of the two panes (borders included): 30% and the rest. */
  readonly listWidth: number;
  readonly detailWidth: number;
  /** Warning lines above the panes (see `UiState.warnings`), as many as fit. */
  readonly bannerRows: number;
  /** Outer height of both panes: everything but the banner and the status bar. */
  readonly paneHeight: number;
  /** Request rows visible in the list. */
  readonly listRows: number;
  /** Text columns inside the list pane. */
  readonly listTextWidth: number;
  /** Lines visible in the detail pane. */
  readonly detailRows: number;
  /** Text columns inside the detail pane. */
  readonly detailTextWidth: number;
}

/** Border (2) and one column of padding on each side. */
const PANE_CHROME_X = 4;
/** Top and bottom border. */
const PANE_CHROME_Y = 2;
const STATUS_ROWS = 1;

/** `bannerRows`: warning lines wanted above the panes; the panes keep at least one text row. */
export function layoutFor(columns: number, rows: number, bannerRows = 0): Layout {
  const safeColumns = Math.max(30, Math.floor(columns) || 80);
  const safeRows = Math.max(6, Math.floor(rows) || 24);
  const listWidth = Math.max(PANE_CHROME_X + 8, Math.round(safeColumns * 0.3));
  const detailWidth = safeColumns - listWidth;
  const banner = Math.max(0, Math.min(bannerRows, safeRows - STATUS_ROWS - PANE_CHROME_Y - 1));
  const paneHeight = safeRows - STATUS_ROWS - banner;
  const inner = paneHeight - PANE_CHROME_Y;
  return {
    columns: safeColumns,
    rows: safeRows,
    listWidth,
    detailWidth,
    bannerRows: banner,
    paneHeight,
    listRows: inner,
    listTextWidth: listWidth - PANE_CHROME_X,
    detailRows: inner,
    detailTextWidth: Math.max(1, detailWidth - PANE_CHROME_X),
  };
}
