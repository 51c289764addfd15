// @ts-check
/**
 * Drawing the table.  Card nodes are keyed by physical card id (0..103),
 * created once and reused: a move only changes a transform.  Redraws are
 * batched in one animation frame and touch only what changed; a new view
 * model's card moves are FLIP-animated (anim.js).
 */
import { fly, stop, transformOf } from "./anim.js";
import { backSVG, cardWords, faceSVG, suitSymbol } from "./cards.js";
import { COLUMNS, computeLayout, hitTest } from "./layout.js";
import { movableTop, targetsOf } from "./state.js";

/** @typedef {import("./state.js").State} State */
/** @typedef {import("./layout.js").Layout} Layout */
/** @typedef {import("./layout.js").Place} Place */

/**
 * The keyboard stops of the table, in roving-tabindex order: the columns,
 * then the piles, then the stock (manual deal mode).
 * @param {State} s
 * @returns {string[]}
 */
export function zoneKeys(s) {
  const keys = [];
  for (let i = 1; i <= COLUMNS; i++) keys.push(`col-${i}`);
  keys.push("piles");
  if (s.view?.mode === "manual") keys.push("stock");
  return keys;
}

/**
 * @param {HTMLElement} board
 */
export function createRenderer(board) {
  /** @type {Map<number, HTMLElement>} */
  const cards = new Map();
  /** @type {Map<number, Place>} where each card was last drawn */
  const drawn = new Map();
  /** @type {Map<string, HTMLElement>} */
  const zones = new Map();
  /** @type {Map<string, HTMLElement>} */
  const slots = new Map();
  /** @type {Layout | null} */
  let layout = null;
  /** @type {State | null} */
  let pending = null;
  let frame = 0;
  let animateNext = false;
  const back = backSVG();

  const slotLayer = el("div", "layer slots");
  const cardLayer = el("div", "layer cards");
  const zoneLayer = el("div", "layer zones");
  board.append(slotLayer, cardLayer, zoneLayer);

  /**
   * Ask for a redraw in the next frame.
   * @param {State} s
   * @param {boolean} [animate] FLIP the card moves (a new view model)
   */
  function schedule(s, animate = false) {
    pending = s;
    animateNext = animateNext || animate;
    if (!frame) frame = requestAnimationFrame(draw);
  }

  function draw() {
    frame = 0;
    const s = pending;
    if (!s || !s.view) return;
    const animate = animateNext;
    animateNext = false;
    const pos = s.view.position;
    const top = board.getBoundingClientRect().top + window.scrollY;
    const room = Math.max(320, window.innerHeight - top - 6);
    layout = computeLayout(pos, board.clientWidth, room, s.view.discard_row);
    const L = layout;
    board.style.height = `${L.height}px`;
    board.style.setProperty("--cw", `${L.cw}px`);
    board.style.setProperty("--ch", `${L.ch}px`);
    drawSlots(s, L);
    drawCards(s, L, animate);
    drawZones(s, L);
    // A sync point for tests and tools: the cards now show this many moves.
    board.dataset.moves = String(s.view.move_count);
  }

  /** @param {State} s @param {Layout} L */
  function drawSlots(s, L) {
    const view = /** @type {import("./state.js").View} */ (s.view);
    const pos = view.position;
    const seen = new Set();
    const glencoe = view.game === "glencoe";
    const selectedSlot = s.selected != null ? view.pile_targets[String(s.selected)] : undefined;
    const dragSlot = s.drag ? view.pile_targets[String(s.drag.column)] : undefined;
    for (const box of L.slots) {
      const key = `pile-${box.slot}`;
      seen.add(key);
      const node = slot(key, "slot pile");
      const kindLabel = box.label === "Five-pile" ? "5" : box.label === "Six-pile" ? "6" : "A";
      const base = glencoe ? pos.columns[box.slot % 8]?.[0] : undefined;
      const label = base ? `${kindLabel}${suitSymbol(base.card)}` : kindLabel;
      setText(node, label);
      node.dataset.kind = box.label;
      node.classList.toggle("red", Boolean(base && /[HD]$/.test(base.card)));
      node.classList.toggle("target", box.slot === selectedSlot || box.slot === dragSlot);
      place(node, box.x, box.y);
    }
    for (let i = 0; i < COLUMNS; i++) {
      const key = `col-${i + 1}`;
      seen.add(key);
      const node = slot(key, "slot column");
      setText(node, i < pos.columns.length ? "" : view.game === "salic-law" || view.game === "faerie-queen" ? "K" : "Q");
      const box = L.columnBoxes[i];
      place(node, box.x, box.y);
    }
    if (L.stockBox) {
      seen.add("stock");
      const node = slot("stock", "slot stock");
      setText(node, pos.stock.length ? "" : "∅");
      place(node, L.stockBox.x, L.stockBox.y);
      const deal = slot("deal", "deal-button");
      deal.setAttribute("role", "presentation");
      const n = pos.stock.length;
      setText(deal, n ? (L.cw < 60 ? `Deal · ${n}` : `Deal · ${n} left`) : L.cw < 60 ? "Empty" : "Stock empty");
      deal.classList.toggle("empty", n === 0);
      place(deal, L.stockBox.x + L.stockBox.w + L.gap * 1.5, L.stockBox.y + L.stockBox.h / 2 - 16);
      seen.add("deal");
    }
    if (L.discardBox && pos.discard.length === 0) {
      seen.add("discard");
      const node = slot("discard", "slot discard");
      setText(node, "Queens");
      place(node, L.discardBox.x, L.discardBox.y);
    }
    for (const [key, node] of slots) {
      if (!seen.has(key)) {
        node.remove();
        slots.delete(key);
      }
    }
  }

  /** @param {string} key @param {string} cls */
  function slot(key, cls) {
    let node = slots.get(key);
    if (!node) {
      node = el("div", cls);
      node.dataset.slot = key;
      slotLayer.append(node);
      slots.set(key, node);
    }
    return node;
  }

  /** @param {State} s @param {Layout} L @param {boolean} animate */
  function drawCards(s, L, animate) {
    const view = /** @type {import("./state.js").View} */ (s.view);
    const movable = new Set();
    for (const key of Object.keys(view.dests)) {
      const top = key === "deal" ? null : movableTop(view, Number(key));
      if (top) movable.add(top.id);
    }
    const selectedId = s.selected != null ? movableTop(view, s.selected)?.id : undefined;
    const hintId = hintCard(s);
    /** @type {Map<number, string>} */
    const names = new Map();
    /** Where each card is, as data-place ("c3" column 3, "p5" pile slot 5, "s" stock, "x" discard row):
     * for tests and debugging, not for rules. @type {Map<number, string>} */
    const where = new Map();
    const pos = view.position;
    /** @param {import("./layout.js").CardRef[]} group @param {string} tag */
    const note = (group, tag) => group.forEach((c) => { names.set(c.id, c.card); where.set(c.id, tag); });
    pos.columns.forEach((c, i) => note(c, `c${i + 1}`));
    pos.piles.forEach((p, i) => note(p, `p${i}`));
    note(pos.discard, "x");
    note(pos.stock, "s");
    const tops = new Set(pos.columns.filter((c) => c.length > 1).map((c) => c[c.length - 1].id));
    const bases = new Set(view.position.columns.map((c) => c[0]?.id));
    // Cards that fly are staggered in the order of the moves (auto-finish, the deal).
    let order = 0;
    for (const [id, target] of L.places) {
      const node = cardNode(id, /** @type {string} */ (names.get(id)));
      const dragging = s.drag && s.drag.moved && s.drag.id === id;
      const p = dragging && s.drag
        ? { x: s.drag.x - s.drag.offX, y: s.drag.y - s.drag.offY, z: 7000, s: 1, down: false }
        : target;
      const before = drawn.get(id);
      const moved = !before || before.x !== p.x || before.y !== p.y || before.s !== p.s;
      if (moved || before?.z !== p.z) {
        node.style.transform = transformOf(p);
        node.dataset.z = String(p.z);
        if (animate && before && moved && !dragging) {
          const elsewhere = node.dataset.place !== where.get(id);
          // Cards that change place go one after another (auto-finish); shifts all at once.
          fly(node, before, p, elsewhere ? Math.min(order++, 30) * 35 : 0, elsewhere);
        } else {
          if (moved) stop(node);
          node.style.zIndex = String(p.z);
        }
      }
      if (dragging) node.style.zIndex = "7000"; // above the zone highlights (6000)
      if (!before || before.down !== p.down) node.classList.toggle("down", p.down);
      node.classList.toggle("movable", movable.has(id));
      node.classList.toggle("selected", id === selectedId);
      node.classList.toggle("lifted", Boolean(dragging));
      node.classList.toggle("hinted", id === hintId);
      node.classList.toggle("base", bases.has(id));
      node.classList.toggle("buried", Boolean(p.buried));
      const tag = /** @type {string} */ (where.get(id));
      if (node.dataset.place !== tag) node.dataset.place = tag;
      node.toggleAttribute("data-top", tops.has(id));
      drawn.set(id, p);
    }
  }

  /** @param {State} s */
  function hintCard(s) {
    const m = s.hint?.move;
    if (!m || !s.view) return undefined;
    return m === "d" ? s.view.position.stock[0]?.id : movableTop(s.view, Number.parseInt(m, 10))?.id;
  }

  /** @param {number} id @param {string} name */
  function cardNode(id, name) {
    let node = cards.get(id);
    if (!node) {
      node = el("div", "card");
      node.dataset.id = String(id);
      node.dataset.card = name;
      node.innerHTML = faceSVG(name) + back;
      cardLayer.append(node);
      cards.set(id, node);
    }
    return node;
  }

  /** @param {State} s @param {Layout} L */
  function drawZones(s, L) {
    const view = /** @type {import("./state.js").View} */ (s.view);
    const pos = view.position;
    const source = s.drag?.moved ? s.drag.column : s.selected;
    const targets = targetsOf(view, source);
    const keys = zoneKeys(s);
    const focusKey = keys[Math.min(s.focus, keys.length - 1)];
    const hintMove = s.hint?.move ?? "";
    // The zone under a dragged card, so the player sees where it would land.
    const over = s.drag?.moved ? hitTest(L, s.drag.x, s.drag.y) : null;
    const overKey = over?.type === "column" ? `col-${over.column}` : over?.type ?? null;
    for (const key of keys) {
      let node = zones.get(key);
      if (!node) {
        node = el("div", "zone");
        node.dataset.zone = key;
        node.setAttribute("role", "button");
        zoneLayer.append(node);
        zones.set(key, node);
      }
      let box;
      let label;
      let target = false;
      if (key.startsWith("col-")) {
        const n = Number(key.slice(4));
        const b = L.columnBoxes[n - 1];
        const cards = pos.columns[n - 1] ?? [];
        // Only the stack itself is outlined, not the whole drop area below it.
        box = { x: b.x, y: b.y, w: b.w, h: L.ch + (cards.length > 1 ? (/** @type {Place} */ (L.places.get(cards[cards.length - 1].id)).y - b.y) : 0) };
        target = targets.includes(String(n));
        label = columnLabel(view, n, s.selected);
        node.classList.toggle("hint-target", hintMove.endsWith(`-${n}`));
        node.classList.toggle("source", source === n);
      } else if (key === "piles") {
        box = L.pileBox;
        target = targets.includes("f");
        const done = pos.piles.filter((p) => p.length).length;
        label = `Piles: ${done} of ${pos.piles.length} started, ${pos.piles.reduce((a, p) => a + p.length, 0)} cards up.`;
        node.classList.toggle("hint-target", hintMove.endsWith("f"));
      } else {
        box = L.stockBox ?? { x: 0, y: 0, w: 0, h: 0 };
        label = `Stock: ${pos.stock.length} cards. Press D to deal.`;
        target = false;
        node.classList.toggle("hint-target", hintMove === "d");
      }
      place(node, box.x, box.y);
      node.style.width = `${box.w}px`;
      node.style.height = `${box.h}px`;
      node.classList.toggle("target", target);
      node.classList.toggle("over", key === overKey && key !== `col-${source}`);
      node.tabIndex = key === focusKey ? 0 : -1;
      if (node.getAttribute("aria-label") !== label) node.setAttribute("aria-label", label);
    }
    for (const [key, node] of zones) {
      if (!keys.includes(key)) {
        node.remove();
        zones.delete(key);
      }
    }
  }

  return {
    schedule,
    /** The layout of the last frame (for hit tests). */
    layout: () => layout,
    /** @param {string} key */
    zone: (key) => zones.get(key),
    /** @param {number} id */
    card: (id) => cards.get(id),
    /** Forget where cards were drawn, so the next frame places them without animation. */
    forget: () => drawn.clear(),
  };
}

/**
 * @param {import("./state.js").View} view
 * @param {number} n
 * @param {number | null} selected
 */
function columnLabel(view, n, selected) {
  const cards = view.position.columns[n - 1];
  if (!cards) return `Column ${n}: not dealt yet.`;
  const base = cardWords(cards[0].card);
  const top = cards.length > 1 ? `${cardWords(cards[cards.length - 1].card)} on top, ` : "vacant, ";
  const count = `${cards.length - 1} card${cards.length === 2 ? "" : "s"} on the ${base}`;
  const goes = targetsOf(view, n).map((t) => (t === "f" ? "a pile" : `column ${t}`));
  const moves = goes.length ? ` Can go to ${goes.join(", ")}.` : "";
  const picked = selected === n ? " Picked up." : "";
  return `Column ${n}: ${top}${count}.${moves}${picked}`;
}

/**
 * @param {string} tag
 * @param {string} cls
 */
function el(tag, cls) {
  const node = document.createElement(tag);
  node.className = cls;
  return node;
}

/** @param {HTMLElement} node @param {number} x @param {number} y */
function place(node, x, y) {
  const t = `translate(${x.toFixed(2)}px, ${y.toFixed(2)}px)`;
  if (node.style.transform !== t) node.style.transform = t;
}

/** @param {HTMLElement} node @param {string} text */
function setText(node, text) {
  if (node.textContent !== text) node.textContent = text;
}
