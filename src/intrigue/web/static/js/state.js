// @ts-check
/**
 * The one state object: the last view model from the server plus UI-only
 * state (selection, drag, focus, hint, messages).  Every change goes through
 * `update()`, which notifies the renderer; nothing else holds state.
 *
 * The helpers below only *read* the view model: which card is on top of a
 * column and where the server says it may go.  No rule lives here.
 */

/**
 * @typedef {import("./layout.js").PositionView} PositionView
 * @typedef {{id: string, game: string, name: string, deal: number, deal_text: string,
 *   mode: string, position: PositionView & {won: boolean, stuck: boolean}, discard_row: boolean,
 *   dests: Record<string, string[] | boolean>, pile_targets: Record<string, number>,
 *   won: boolean, stuck: boolean, moves: string[], move_count: number,
 *   can_undo: boolean, can_redo: boolean, can_autofinish: boolean,
 *   last_move: {move: string, card: number, text: string} | null,
 *   started: number, finished: number | null,
 *   hint?: {verdict: string, move: string | null, text: string},
 *   verdict?: string, played?: string[], undone?: string, undone_text?: string, rewound_to?: number}} View
 * @typedef {{id: number, column: number, startX: number, startY: number,
 *   x: number, y: number, offX: number, offY: number, moved: boolean}} Drag
 */

export const state = {
  /** @type {View | null} */
  view: null,
  /** @type {any[]} */
  variants: [],
  /** Column (1-based) whose top card is picked up, or null. */
  /** @type {number | null} */
  selected: null,
  /** @type {Drag | null} */
  drag: null,
  /** Index of the focused zone (roving tabindex). */
  focus: 0,
  /** @type {{move: string | null, text: string} | null} */
  hint: null,
  /** "won" | "lost" | "unknown" | "checking" | null */
  /** @type {string | null} */
  verdict: null,
  showWinnable: localStorage.getItem("intrigue.showWinnable") === "1",
  busy: false,
  /** @type {{text: string, kind: "error" | "info"} | null} */
  message: null,
};

/** @typedef {typeof state} State */

/** @type {Set<(s: State) => void>} */
const listeners = new Set();

/**
 * Subscribe to changes; returns the unsubscribe function.
 * @param {(s: State) => void} fn
 */
export function subscribe(fn) {
  listeners.add(fn);
  return () => listeners.delete(fn);
}

/**
 * Change the state and tell the subscribers (the renderer batches in rAF).
 * @param {(s: State) => void} mutate
 */
export function update(mutate) {
  mutate(state);
  for (const fn of listeners) fn(state);
}

/**
 * The top card of column `column` (1-based) if it can move (not the base).
 * @param {View | null} view
 * @param {number} column
 */
export function movableTop(view, column) {
  const cards = view?.position.columns[column - 1];
  return cards && cards.length > 1 ? cards[cards.length - 1] : null;
}

/**
 * The column whose movable top card is `id`, or null.
 * @param {View | null} view
 * @param {number} id
 */
export function columnOfTop(view, id) {
  if (!view) return null;
  const cols = view.position.columns;
  for (let i = 0; i < cols.length; i++) {
    const c = cols[i];
    if (c.length > 1 && c[c.length - 1].id === id) return i + 1;
  }
  return null;
}

/**
 * Legal targets of column `column`'s top card: "f" and/or column numbers as strings.
 * @param {View | null} view
 * @param {number | null} column
 * @returns {string[]}
 */
export function targetsOf(view, column) {
  if (!view || column == null) return [];
  const t = view.dests[String(column)];
  return Array.isArray(t) ? t : [];
}

/** @param {View | null} view */
export function canDeal(view) {
  return Boolean(view?.dests.deal);
}
