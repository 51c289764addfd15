// @ts-check
/**
 * Keyboard play and screen-reader announcements.
 *
 * The columns, the piles and the stock are one roving-tabindex group: Tab
 * enters the table at the last focused stop, arrow keys move between stops.
 * Enter or Space picks up the focused column's top card and puts it down on
 * another column or the piles; f sends a card to a pile, 1-8 choose a target
 * column, d deals, u/r undo and redo, h asks for a hint, Esc puts back.
 * Every move is announced in words through an aria-live region.
 */
import { zoneKeys } from "./render.js";
import { movableTop, state, update } from "./state.js";

/**
 * @typedef {{
 *   move: (move: string) => void, select: (column: number | null) => void, deal: () => void,
 *   undo: () => void, redo: () => void, hint: () => void, finish: () => void,
 *   focusZone: (key: string) => void,
 * }} KeyIntents
 */

/** @type {HTMLElement | null} */
let live = null;

/**
 * Say `text` to screen readers (polite: after what they are reading).
 * @param {string} text
 */
export function announce(text) {
  if (!live) live = document.getElementById("live");
  if (!live) return;
  // Clearing first makes the same sentence twice in a row be read twice.
  live.textContent = "";
  window.setTimeout(() => {
    if (live) live.textContent = text;
  }, 30);
}

/**
 * @param {HTMLElement} board
 * @param {KeyIntents} intents
 * @returns {() => void} unbind
 */
export function bindKeyboard(board, intents) {
  /** @param {number} index */
  function focusIndex(index) {
    const keys = zoneKeys(state);
    const i = (index + keys.length) % keys.length;
    update((s) => (s.focus = i));
    intents.focusZone(keys[i]);
  }

  function focusedKey() {
    const keys = zoneKeys(state);
    return keys[Math.min(state.focus, keys.length - 1)];
  }

  /** Enter/Space on the focused stop. */
  function activate() {
    const key = focusedKey();
    const sel = state.selected;
    if (key === "stock") return intents.deal();
    if (key === "piles") {
      if (sel != null) intents.move(`${sel}f`);
      else announce("Pick up a card first: focus a column and press Enter, or press F to send its top card to a pile.");
      return;
    }
    const column = Number(key.slice(4));
    if (sel === column) intents.select(null);
    else if (sel != null) intents.move(`${sel}-${column}`);
    else pickUp(column);
  }

  /** @param {number} column */
  function pickUp(column) {
    const top = movableTop(state.view, column);
    if (!top) announce(`Column ${column} has no card that can move.`);
    else intents.select(column);
  }

  /** @param {KeyboardEvent} e */
  function onBoardKey(e) {
    const keys = zoneKeys(state);
    switch (e.key) {
      case "ArrowRight":
      case "ArrowDown":
        focusIndex(state.focus + 1);
        break;
      case "ArrowLeft":
      case "ArrowUp":
        focusIndex(state.focus - 1);
        break;
      case "Home":
        focusIndex(0);
        break;
      case "End":
        focusIndex(keys.length - 1);
        break;
      case "Enter":
      case " ":
        activate();
        break;
      default:
        return;
    }
    e.preventDefault();
  }

  /** Keys that work anywhere on the page except while typing in a field. @param {KeyboardEvent} e */
  function onGlobalKey(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = /** @type {HTMLElement} */ (e.target);
    if (t.closest("input, select, textarea, dialog[open]")) return;
    const k = e.key.toLowerCase();
    if (/^[1-8]$/.test(k)) {
      const n = Number(k);
      if (state.selected != null && state.selected !== n) intents.move(`${state.selected}-${n}`);
      else {
        focusIndex(n - 1);
        if (state.selected !== n) pickUp(n);
      }
    } else if (k === "f") {
      const key = focusedKey();
      const source = state.selected ?? (key.startsWith("col-") ? Number(key.slice(4)) : null);
      if (source != null) intents.move(`${source}f`);
    } else if (k === "d") intents.deal();
    else if (k === "u") intents.undo();
    else if (k === "r") intents.redo();
    else if (k === "h") intents.hint();
    else if (k === "a") intents.finish();
    else if (k === "escape" && state.selected != null) {
      intents.select(null);
    } else return;
    e.preventDefault();
  }

  /** Focus that arrives another way (Tab, a click, a script) moves the roving stop too. @param {FocusEvent} e */
  function onFocusIn(e) {
    const key = /** @type {HTMLElement} */ (e.target).dataset?.zone;
    const i = key ? zoneKeys(state).indexOf(key) : -1;
    if (i >= 0 && i !== state.focus) update((s) => (s.focus = i));
  }

  board.addEventListener("keydown", onBoardKey);
  board.addEventListener("focusin", onFocusIn);
  document.addEventListener("keydown", onGlobalKey);
  return () => {
    board.removeEventListener("keydown", onBoardKey);
    board.removeEventListener("focusin", onFocusIn);
    document.removeEventListener("keydown", onGlobalKey);
  };
}
