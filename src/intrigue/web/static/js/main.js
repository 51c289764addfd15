// @ts-check
/**
 * Wiring: load or start a game, connect input and keyboard intents to the
 * API, and every answer to the state.  Each server answer is a full view
 * model that replaces the old one; the renderer diffs and animates.
 */
import { announce, bindKeyboard } from "./a11y.js";
import { ApiError, api } from "./api.js";
import { shake } from "./anim.js";
import { cardWords, installDefs } from "./cards.js";
import { bindPointer } from "./input.js";
import { createRenderer } from "./render.js";
import { canDeal, state, subscribe, update } from "./state.js";
import { formatSeconds, renderRules, renderStats } from "./panels.js";

/** @typedef {import("./state.js").View} View */

const $ = (/** @type {string} */ id) => /** @type {HTMLElement} */ (document.getElementById(id));
const board = $("board");
installDefs();
const renderer = createRenderer(board);
subscribe((s) => {
  renderer.schedule(s);
  drawChrome();
});

// ------------------------------------------------------------------ actions

let messageTimer = 0;
/**
 * @param {string} text
 * @param {"error" | "info"} [kind]
 */
function say(text, kind = "info") {
  const m = $("message");
  m.textContent = text;
  m.className = `message ${kind}`;
  window.clearTimeout(messageTimer);
  if (text) messageTimer = window.setTimeout(() => (m.textContent = ""), kind === "error" ? 8000 : 6000);
}

/**
 * Run one API call; on success show its view model, on failure say why.
 * Nothing else calls the API for game changes, so the busy flag keeps
 * double clicks from sending a move twice.
 * @param {() => Promise<View>} call
 * @param {{dropped?: number, quiet?: boolean}} [opts]
 * @returns {Promise<View | null>}
 */
async function act(call, opts = {}) {
  if (state.busy) return null;
  update((s) => (s.busy = true));
  try {
    const view = await call();
    show(view);
    return view;
  } catch (e) {
    const err = e instanceof ApiError ? e : new ApiError(0, "Error", String(e));
    const dropped = opts.dropped;
    update((s) => {
      s.drag = null;
    });
    renderer.schedule(state, true); // a refused drop flies back
    if (dropped != null) {
      const node = renderer.card(dropped);
      if (node) window.setTimeout(() => shake(node), 260);
    }
    say(err.message, "error");
    announce(err.message);
    return null;
  } finally {
    update((s) => (s.busy = false));
  }
}

/**
 * Take a new view model from the server.
 * @param {View} view
 */
function show(view) {
  const before = state.view;
  const sameGame = before?.id === view.id;
  if (!sameGame) renderer.forget();
  update((s) => {
    s.view = view;
    s.selected = null;
    s.drag = null;
    s.hint = view.hint ? { move: view.hint.move, text: view.hint.text } : null;
    if (!sameGame || before?.move_count !== view.move_count || before?.moves.join() !== view.moves.join()) s.verdict = null;
  });
  renderer.schedule(state, sameGame);
  const url = `#/${view.game}/${view.mode}/${view.deal_text}`;
  if (location.hash !== url) history.replaceState(null, "", url);
  if (sameGame && view.last_move && before?.move_count !== view.move_count && !view.undone) {
    announce(view.played ? `Auto-finish: ${view.played.length} cards to the piles.` : `${capital(view.last_move.text)}.`);
  }
  if (view.won && sameGame && !before?.won) window.setTimeout(() => showWin(view), 500);
  if (state.showWinnable && !view.won) checkWinnable(view);
}

/** @param {string} t */
function capital(t) {
  return t.charAt(0).toUpperCase() + t.slice(1);
}

const intents = {
  /** @param {string} move @param {{dropped?: number}} [opts] */
  move: (move, opts = {}) => {
    const v = state.view;
    if (v) act(() => api.move(v.id, move), opts);
  },
  /** @param {number | null} column */
  select: (column) => {
    update((s) => (s.selected = column));
    const v = state.view;
    if (column != null && v) {
      const top = v.position.columns[column - 1].at(-1);
      const goes = (/** @type {string[]} */ (v.dests[String(column)] || [])).map((t) => (t === "f" ? "a pile" : `column ${t}`));
      announce(`Picked up the ${top ? cardWords(top.card) : "card"} from column ${column}. ${goes.length ? `It can go to ${goes.join(", ")}.` : "It cannot go anywhere now."}`);
    }
  },
  deal: () => {
    const v = state.view;
    if (!v) return;
    if (!canDeal(v) && v.mode !== "manual") {
      say("Dealing is for manual deal mode: in auto mode the whole pack is dealt at the start.", "error");
      return;
    }
    act(() => api.move(v.id, "d"));
  },
  // A drag that ends without a move flies the card back.
  dragChanged: () => renderer.schedule(state, !state.drag),
  undo: () => {
    const v = state.view;
    if (v) act(() => api.undo(v.id)).then((nv) => nv?.undone && announce(`Undone: ${nv.undone_text ?? nv.undone}.`));
  },
  redo: () => {
    const v = state.view;
    if (v) act(() => api.redo(v.id));
  },
  hint: async () => {
    const v = state.view;
    if (!v || v.won) return;
    say("Thinking…");
    const nv = await act(() => api.hint(v.id));
    if (nv?.hint) {
      say(nv.hint.text, nv.hint.move ? "info" : "error");
      announce(nv.hint.text);
      if (nv.hint.verdict === "lost") update((s) => (s.verdict = "lost"));
    }
  },
  finish: () => {
    const v = state.view;
    if (v && v.can_autofinish) act(() => api.autofinish(v.id));
  },
  newDeal: () => newGame(state.view?.game ?? "intrigue", null, state.view?.mode ?? "auto"),
  /** @param {string} key */
  focusZone: (key) => {
    renderer.schedule(state);
    requestAnimationFrame(() => renderer.zone(key)?.focus());
  },
};

/**
 * @param {string} game
 * @param {string | null} deal
 * @param {string} mode
 */
async function newGame(game, deal, mode) {
  const view = await act(() => api.newGame(game, deal, mode));
  if (view) announce(`${view.name}, deal ${view.deal_text}, ${view.mode} deal. ${view.position.columns.length} columns.`);
  return view;
}

/** @param {View} view */
async function checkWinnable(view) {
  update((s) => (s.verdict = "checking"));
  try {
    const res = await api.winnable(view.id);
    // Only the answer for the position still on the table counts.
    if (state.view?.id === view.id && state.view.move_count === view.move_count) {
      update((s) => (s.verdict = res.verdict ?? null));
      if (res.verdict === "lost") announce("This position can no longer be won.");
    }
  } catch (e) {
    update((s) => (s.verdict = null));
  }
}

// ------------------------------------------------------------------ chrome

function drawChrome() {
  const v = state.view;
  if (!v) return;
  $("title").textContent = v.name;
  $("deal-label").textContent = `Deal ${v.deal_text} · ${v.mode}`;
  document.title = `${v.name} · deal ${v.deal_text}`;
  const mc = $("move-count");
  mc.textContent = v.won ? `Won in ${v.move_count} moves` : v.stuck ? `No moves left · ${v.move_count} moves` : `${v.move_count} move${v.move_count === 1 ? "" : "s"}`;
  mc.classList.toggle("won", v.won);
  mc.classList.toggle("stuck", v.stuck);
  /** @type {HTMLButtonElement} */ ($("undo-button")).disabled = !v.can_undo;
  /** @type {HTMLButtonElement} */ ($("redo-button")).disabled = !v.can_redo;
  /** @type {HTMLButtonElement} */ ($("hint-button")).disabled = v.won;
  $("finish-button").hidden = !v.can_autofinish;
  const verdict = $("verdict");
  const shown = state.showWinnable && !v.won ? state.verdict : null;
  verdict.hidden = !shown;
  verdict.className = `pill verdict ${shown ?? ""}`;
  verdict.textContent = { checking: "Checking…", won: "Still winnable", lost: "Lost: cannot be won", unknown: "Winnable? unknown" }[shown ?? ""] ?? "";
  $("rewind-button").hidden = !(v.stuck || state.verdict === "lost") || !v.can_undo;
  board.classList.toggle("busy", state.busy);
}

/** @param {View} view */
function showWin(view) {
  const secs = view.finished && view.started ? view.finished - view.started : null;
  $("win-text").textContent = `${view.name}, deal ${view.deal_text}: ${view.move_count} moves${secs != null ? ` in ${formatSeconds(secs)}` : ""}.`;
  announce(`You won! ${$("win-text").textContent}`);
  /** @type {HTMLDialogElement} */ ($("win-dialog")).showModal();
}

function toggleMenu(open = $("menu").hidden) {
  $("menu").hidden = !open;
  $("menu-button").setAttribute("aria-expanded", String(open));
  if (open) {
    const v = state.view;
    if (v) {
      /** @type {HTMLSelectElement} */ ($("game-select")).value = v.game;
      /** @type {HTMLSelectElement} */ ($("mode-select")).value = v.mode;
    }
    /** @type {HTMLElement} */ ($("game-select")).focus();
  }
}

async function openStats() {
  try {
    const data = await api.stats();
    renderStats($("stats-body"), data.stats, state.variants);
  } catch (e) {
    $("stats-body").textContent = e instanceof Error ? e.message : String(e);
  }
  /** @type {HTMLDialogElement} */ ($("stats-dialog")).showModal();
}

function openRules(game = state.view?.game ?? "intrigue") {
  const sel = /** @type {HTMLSelectElement} */ ($("rules-select"));
  sel.value = game;
  renderRules($("rules-body"), state.variants, game);
  /** @type {HTMLDialogElement} */ ($("rules-dialog")).showModal();
}

function bindChrome() {
  const click = (/** @type {string} */ id, /** @type {() => void} */ fn) => $(id).addEventListener("click", fn);
  click("menu-button", () => toggleMenu());
  click("new-button", intents.newDeal);
  click("undo-button", intents.undo);
  click("redo-button", intents.redo);
  click("hint-button", intents.hint);
  click("finish-button", intents.finish);
  click("restart-button", () => {
    const v = state.view;
    if (v) act(() => api.restart(v.id)).then((nv) => nv && announce("Restarted: back to the start of the deal."));
    toggleMenu(false);
  });
  click("rewind-button", async () => {
    const v = state.view;
    if (!v) return;
    say("Looking for the last winnable position…");
    const nv = await act(() => api.rewind(v.id));
    if (nv) {
      const text = `Went back to move ${nv.rewound_to}: the game can be won from here.`;
      say(text);
      announce(text);
      update((s) => (s.verdict = "won"));
    }
  });
  click("share-button", async () => {
    const link = /** @type {HTMLInputElement} */ ($("share-link"));
    link.value = location.href;
    link.hidden = false;
    link.select();
    try {
      await navigator.clipboard.writeText(location.href);
      say("Link copied: it opens this same deal.");
    } catch {
      say("Copy the link above: it opens this same deal.");
    }
  });
  click("stats-button", openStats);
  click("rules-button", () => openRules());
  click("win-new", () => {
    /** @type {HTMLDialogElement} */ ($("win-dialog")).close();
    intents.newDeal();
  });
  click("win-stats", () => {
    /** @type {HTMLDialogElement} */ ($("win-dialog")).close();
    openStats();
  });
  click("win-close", () => /** @type {HTMLDialogElement} */ ($("win-dialog")).close());
  $("rules-select").addEventListener("change", (e) => renderRules($("rules-body"), state.variants, /** @type {HTMLSelectElement} */ (e.target).value));
  $("new-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const deal = /** @type {HTMLInputElement} */ ($("deal-input")).value.trim() || null;
    const game = /** @type {HTMLSelectElement} */ ($("game-select")).value;
    const mode = /** @type {HTMLSelectElement} */ ($("mode-select")).value;
    newGame(game, deal, mode).then((v) => v && toggleMenu(false));
  });
  $("typed-form").addEventListener("submit", (e) => {
    e.preventDefault();
    const input = /** @type {HTMLInputElement} */ ($("typed-move"));
    const text = input.value.trim();
    if (text) intents.move(text);
    input.value = "";
  });
  const toggle = /** @type {HTMLInputElement} */ ($("winnable-toggle"));
  toggle.checked = state.showWinnable;
  toggle.addEventListener("change", () => {
    update((s) => (s.showWinnable = toggle.checked));
    localStorage.setItem("intrigue.showWinnable", toggle.checked ? "1" : "0");
    if (toggle.checked && state.view && !state.view.won) checkWinnable(state.view);
  });
  document.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && !$("menu").hidden) toggleMenu(false);
  });
  document.addEventListener("pointerdown", (e) => {
    const t = /** @type {Element} */ (e.target);
    if (!$("menu").hidden && !t.closest("#menu, #menu-button")) toggleMenu(false);
  });
  window.addEventListener("resize", () => renderer.schedule(state));
  window.addEventListener("hashchange", () => {
    const want = parseLink();
    const v = state.view;
    if (want && (!v || want.game !== v.game || want.mode !== v.mode || want.deal !== v.deal_text)) newGame(want.game, want.deal, want.mode);
  });
}

/** The deal a shared link asks for: #/intrigue/auto/42 or ?game=&deal=&mode= */
function parseLink() {
  const m = location.hash.match(/^#\/([a-z-]+)\/(auto|manual)\/(\d+)$/i);
  if (m) return { game: m[1].toLowerCase(), mode: m[2].toLowerCase(), deal: m[3] };
  const q = new URLSearchParams(location.search);
  if (q.get("game") || q.get("deal")) {
    return { game: q.get("game") || "intrigue", mode: q.get("mode") || "auto", deal: q.get("deal") || "" };
  }
  return null;
}

async function start() {
  bindChrome();
  bindPointer(board, renderer.layout, intents);
  bindKeyboard(board, intents);
  try {
    const data = await api.variants();
    update((s) => (s.variants = data.variants));
    for (const id of ["game-select", "rules-select"]) {
      const sel = /** @type {HTMLSelectElement} */ ($(id));
      sel.replaceChildren(...state.variants.map((v) => new Option(v.name, v.id)));
    }
  } catch (e) {
    say(e instanceof Error ? e.message : String(e), "error");
  }
  const want = parseLink();
  /** @type {View | null} */
  let current = null;
  try {
    current = await api.current();
  } catch {
    current = null; // no game in this browser yet
  }
  if (want && !(current && current.game === want.game && current.mode === want.mode && current.deal_text === want.deal)) {
    if (location.search) history.replaceState(null, "", location.pathname);
    if (!(await newGame(want.game, want.deal || null, want.mode)) && current) show(current);
  } else if (current) {
    show(current);
    announce(`${current.name}, deal ${current.deal_text}, ${current.move_count} moves played.`);
  } else {
    await newGame("intrigue", null, "auto");
  }
  document.body.classList.add("ready");
}

start();
