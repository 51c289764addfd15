// @ts-check
/**
 * Table geometry: a pure function from the view model and the board size to
 * where every slot, zone and card goes.  Nothing here knows a rule; it only
 * reads the shapes the server sends (columns, pile slots, discard, stock).
 */

/**
 * @typedef {{id: number, card: string}} CardRef
 * @typedef {{game: string, mode: string, columns: CardRef[][], piles: CardRef[][],
 *   pile_kinds: string[], discard: CardRef[], stock: CardRef[]}} PositionView
 * @typedef {{x: number, y: number, z: number, s: number, down: boolean, buried?: boolean}} Place
 * @typedef {{x: number, y: number, w: number, h: number}} Rect
 * @typedef {{kind: "pile", slot: number, row: number, label: string, x: number, y: number}} SlotBox
 * @typedef {{cw: number, ch: number, gap: number, places: Map<number, Place>,
 *   slots: SlotBox[], columnBoxes: Rect[], columnY: number, pileBox: Rect,
 *   stockBox: Rect | null, discardBox: Rect | null, height: number, small: number}} Layout
 */

export const COLUMNS = 8;
const RATIO = 1.4;
/** The scale of the cards in the top row (stock, Salic Law's discarded Queens). */
const SMALL = 0.55;

/**
 * @param {PositionView} pos
 * @param {number} width board width in CSS pixels
 * @param {number} room height available for the board before the page scrolls
 * @param {boolean} discardRow the game sets cards aside on a discard row (Salic Law)
 * @returns {Layout}
 */
export function computeLayout(pos, width, room, discardRow) {
  const pad = Math.max(6, Math.min(16, width * 0.015));
  // Eight cards and seven gaps of a tenth of a card fill the width.
  let cw = Math.min(112, (width - 2 * pad) / (COLUMNS + 0.7));
  // On a wide but short window, shrink cards so the piles and some of the columns fit.
  const kinds = uniqueKinds(pos.pile_kinds);
  const topRow = pos.mode === "manual" || discardRow;
  const rowsAbove = kinds.length + (topRow ? SMALL : 0);
  cw = Math.max(34, Math.min(cw, room / ((rowsAbove + 2.4) * RATIO)));
  // A long column should fit too, at the smallest readable fan: shrink the cards
  // for it, but never below three quarters of what the width allows.
  // Rounded up to a multiple of 6, so the cards do not change size with every card dealt.
  const longest = Math.ceil(Math.max(1, ...pos.columns.map((c) => c.length)) / 6) * 6;
  const needed = RATIO * (rowsAbove * 1.1 + 1.15 + (longest - 1) * 0.17);
  cw = Math.max(cw * 0.75, Math.min(cw, room / needed));
  const ch = cw * RATIO;
  const gap = cw * 0.1;
  const left = (width - (COLUMNS * cw + (COLUMNS - 1) * gap)) / 2;
  const colX = (/** @type {number} */ i) => left + i * (cw + gap);

  /** @type {Map<number, Place>} */
  const places = new Map();
  let y = pad;
  /** @type {Rect | null} */
  let stockBox = null;
  /** @type {Rect | null} */
  let discardBox = null;
  if (topRow) {
    const sh = ch * SMALL;
    const sw = cw * SMALL;
    if (pos.mode === "manual") {
      const box = { x: colX(0), y, w: sw, h: sh };
      stockBox = box;
      // The next card is on top; the two under it peek out to show a stack.
      const n = pos.stock.length;
      pos.stock.forEach((c, i) => {
        const depth = Math.min(i, 2) * 2;
        places.set(c.id, { x: box.x + depth, y: y + depth, z: 300 + n - i, s: SMALL, down: true, buried: i > 2 });
      });
    }
    if (discardRow) {
      // Left-aligned; with a stock and its Deal button on the left, right-aligned instead.
      const step = Math.min(sw * 0.55, (colX(7) + cw - colX(3) - sw) / 7);
      const fan = sw + step * 7;
      const dx = pos.mode === "manual" ? colX(7) + cw - fan : colX(0);
      discardBox = { x: dx, y, w: fan, h: sh };
      pos.discard.forEach((c, i) => {
        places.set(c.id, { x: dx + i * step, y, z: 300 + i, s: SMALL, down: false });
      });
    }
    y += sh + gap * 1.5;
  }

  /** @type {SlotBox[]} */
  const slots = [];
  const pileTop = y;
  const perKind = new Map();
  pos.piles.forEach((pile, slot) => {
    const kind = pos.pile_kinds[slot];
    const row = kinds.indexOf(kind);
    const index = perKind.get(kind) ?? 0;
    perKind.set(kind, index + 1);
    const sx = colX(index);
    const sy = pileTop + row * (ch + gap);
    slots.push({ kind: "pile", slot, row, label: kind, x: sx, y: sy });
    // Only a pile's top card shows; the ones below are hidden, which also
    // keeps a tall stack's shadows from darkening the slot.
    pile.forEach((c, k) => places.set(c.id, { x: sx, y: sy, z: 10 + k, s: 1, down: false, buried: k < pile.length - 2 }));
  });
  const pileBox = { x: colX(0) - gap / 2, y: pileTop - gap / 2, w: COLUMNS * (cw + gap), h: kinds.length * (ch + gap) };
  y = pileTop + kinds.length * (ch + gap) + gap * 1.5;

  // Columns: each fans its cards down with a step that fits the room left,
  // between a readable minimum (the corner index shows) and a relaxed maximum.
  const columnY = y;
  const spare = Math.max(ch * 1.2, room - columnY - ch - pad);
  /** @type {Rect[]} */
  const columnBoxes = [];
  let bottom = columnY + ch;
  for (let i = 0; i < COLUMNS; i++) {
    const cards = pos.columns[i] ?? [];
    const step = cards.length > 1 ? Math.max(ch * 0.17, Math.min(ch * 0.3, spare / (cards.length - 1))) : 0;
    cards.forEach((c, k) => places.set(c.id, { x: colX(i), y: columnY + k * step, z: 100 + k, s: 1, down: false }));
    const h = ch + Math.max(0, cards.length - 1) * step;
    bottom = Math.max(bottom, columnY + h);
    columnBoxes.push({ x: colX(i), y: columnY, w: cw, h });
  }
  const height = Math.max(bottom + pad, room);
  // Drop zones reach the bottom of the board, so a drop below a short column still counts.
  for (const box of columnBoxes) box.h = height - box.y;
  return { cw, ch, gap, places, slots, columnBoxes, columnY, pileBox, stockBox, discardBox, height, small: SMALL };
}

/** @param {string[]} names */
function uniqueKinds(names) {
  /** @type {string[]} */
  const out = [];
  for (const n of names) if (!out.includes(n)) out.push(n);
  return out;
}

/**
 * What is under a point: a column (1-based), the piles, the stock, or nothing.
 * @param {Layout} layout
 * @param {number} x
 * @param {number} y
 * @returns {{type: "column", column: number} | {type: "piles"} | {type: "stock"} | null}
 */
export function hitTest(layout, x, y) {
  const inside = (/** @type {Rect} */ r) => x >= r.x && x <= r.x + r.w && y >= r.y && y <= r.y + r.h;
  for (let i = 0; i < layout.columnBoxes.length; i++) {
    const r = layout.columnBoxes[i];
    // Widen each column by half a gap on both sides so there is no dead strip between them.
    if (inside({ x: r.x - layout.gap / 2, y: r.y - layout.gap, w: r.w + layout.gap, h: r.h + layout.gap })) {
      return { type: "column", column: i + 1 };
    }
  }
  if (inside(layout.pileBox)) return { type: "piles" };
  if (layout.stockBox && inside(layout.stockBox)) return { type: "stock" };
  return null;
}
