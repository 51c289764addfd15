// @ts-check
/**
 * Pointer input: mouse, pen and touch share one path.  A press on a movable
 * card becomes a drag once it travels past a threshold (chessground's
 * draggable.distance); otherwise it is a click or tap: click a card to pick
 * it up, click where it should go; a double click or double tap sends it to
 * a pile.  Input only produces intents; main.js carries them out, and the
 * server decides whether a move is legal.
 */
import { hitTest } from "./layout.js";
import { columnOfTop, state, update } from "./state.js";

/**
 * @typedef {{
 *   move: (move: string, opts?: {dropped?: number}) => void,
 *   select: (column: number | null) => void,
 *   deal: () => void,
 *   dragChanged: () => void,
 * }} Intents
 */

const DOUBLE_TAP_MS = 350;

/**
 * @param {HTMLElement} board
 * @param {() => import("./layout.js").Layout | null} getLayout
 * @param {Intents} intents
 * @returns {() => void} unbind
 */
export function bindPointer(board, getLayout, intents) {
  /** @type {{pointerId: number, id: number | null, column: number | null, x: number, y: number, offX: number, offY: number, touch: boolean} | null} */
  let press = null;
  let lastTap = { id: -1, time: 0 };

  /** @param {PointerEvent} e */
  function local(e) {
    const r = board.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  /** @param {PointerEvent} e */
  function down(e) {
    if (e.button !== 0 || press || state.busy) return;
    const target = /** @type {Element} */ (e.target);
    if (target.closest("[data-slot='deal']")) {
      e.preventDefault();
      intents.deal();
      return;
    }
    const p = local(e);
    const cardEl = /** @type {HTMLElement | null} */ (target.closest(".card"));
    const id = cardEl ? Number(cardEl.dataset.id) : null;
    const column = id != null ? columnOfTop(state.view, id) : null;
    const placed = id != null ? getLayout()?.places.get(id) : undefined;
    press = {
      pointerId: e.pointerId,
      id: column != null ? id : null,
      column,
      x: p.x,
      y: p.y,
      offX: placed ? p.x - placed.x : 0,
      offY: placed ? p.y - placed.y : 0,
      touch: e.pointerType !== "mouse",
    };
    if (column != null) {
      e.preventDefault(); // no text selection or native image drag
      board.setPointerCapture(e.pointerId);
    }
  }

  /** @param {PointerEvent} e */
  function move(e) {
    if (!press || e.pointerId !== press.pointerId || press.id == null || press.column == null) return;
    const p = local(e);
    const threshold = press.touch ? 10 : 5;
    const pr = press;
    if (!state.drag && Math.hypot(p.x - pr.x, p.y - pr.y) < threshold) return;
    update((s) => {
      s.drag = {
        id: /** @type {number} */ (pr.id), column: /** @type {number} */ (pr.column),
        startX: pr.x, startY: pr.y, x: p.x, y: p.y, offX: pr.offX, offY: pr.offY, moved: true,
      };
      s.selected = null;
    });
    intents.dragChanged();
  }

  /** @param {PointerEvent} e */
  function up(e) {
    if (!press || e.pointerId !== press.pointerId) return;
    const pr = press;
    press = null;
    if (board.hasPointerCapture(e.pointerId)) board.releasePointerCapture(e.pointerId);
    const p = local(e);
    const layout = getLayout();
    const hit = layout ? hitTest(layout, p.x, p.y) : null;
    if (state.drag) {
      const source = state.drag.column;
      const id = state.drag.id;
      let move = null;
      if (hit?.type === "column" && hit.column !== source) move = `${source}-${hit.column}`;
      else if (hit?.type === "piles") move = `${source}f`;
      if (move) {
        intents.move(move, { dropped: id });
      } else {
        update((s) => (s.drag = null)); // back where it came from
        intents.dragChanged();
      }
      return;
    }
    click(pr.id, pr.column, hit);
  }

  /**
   * @param {number | null} id the movable card pressed, if any
   * @param {number | null} column its column
   * @param {ReturnType<typeof hitTest>} hit
   */
  function click(id, column, hit) {
    const now = performance.now();
    if (id != null && column != null) {
      const double = lastTap.id === id && now - lastTap.time < DOUBLE_TAP_MS;
      lastTap = { id, time: now };
      if (double) {
        lastTap = { id: -1, time: 0 };
        intents.move(`${column}f`);
      } else if (state.selected === column) {
        intents.select(null);
      } else if (state.selected != null) {
        intents.move(`${state.selected}-${column}`);
      } else {
        intents.select(column);
      }
      return;
    }
    lastTap = { id: -1, time: 0 };
    const sel = state.selected;
    if (hit?.type === "stock") intents.deal();
    else if (sel != null && hit?.type === "column") {
      if (hit.column === sel) intents.select(null);
      else intents.move(`${sel}-${hit.column}`);
    } else if (sel != null && hit?.type === "piles") intents.move(`${sel}f`);
    else if (hit?.type === "column" && state.view?.dests[String(hit.column)]) intents.select(hit.column);
    else intents.select(null);
  }

  function cancel() {
    press = null;
    if (state.drag) {
      update((s) => (s.drag = null));
      intents.dragChanged();
    }
  }

  board.addEventListener("pointerdown", down);
  board.addEventListener("pointermove", move);
  board.addEventListener("pointerup", up);
  board.addEventListener("pointercancel", cancel);
  // Native dblclick would fire after our own double-tap detection; swallow it.
  const noDbl = (/** @type {Event} */ e) => e.preventDefault();
  board.addEventListener("dblclick", noDbl);
  return () => {
    board.removeEventListener("pointerdown", down);
    board.removeEventListener("pointermove", move);
    board.removeEventListener("pointerup", up);
    board.removeEventListener("pointercancel", cancel);
    board.removeEventListener("dblclick", noDbl);
  };
}
