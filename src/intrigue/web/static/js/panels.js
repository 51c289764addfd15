// @ts-check
/** The statistics table and the rules text: plain DOM from the server's data. */

/** @param {number} secs */
export function formatSeconds(secs) {
  const s = Math.round(secs);
  const h = Math.floor(s / 3600), m = Math.floor((s % 3600) / 60), r = s % 60;
  return h ? `${h}:${String(m).padStart(2, "0")}:${String(r).padStart(2, "0")}` : `${m}:${String(r).padStart(2, "0")}`;
}

/**
 * @param {string} tag
 * @param {string} [text]
 * @param {string} [cls]
 */
function el(tag, text = "", cls = "") {
  const n = document.createElement(tag);
  if (text) n.textContent = text;
  if (cls) n.className = cls;
  return n;
}

/**
 * @param {HTMLElement} into
 * @param {any[]} rows
 * @param {any[]} variants
 */
export function renderStats(into, rows, variants) {
  into.replaceChildren();
  if (!rows.length) {
    into.append(el("p", "No finished games yet. A game counts once it is won, or once you have played a move and moved on to another deal.", "muted"));
    return;
  }
  const names = Object.fromEntries(variants.map((v) => [v.id, v.name]));
  const table = el("table", "", "stats");
  const head = el("tr");
  const labels = ["Game", "Mode", "Played", "Won", "Win %", "Streak", "Best streak", "Fewest moves", "Best time"];
  for (const h of labels) {
    const th = el("th", h);
    th.setAttribute("scope", "col");
    head.append(th);
  }
  table.append(el("thead"), el("tbody"));
  /** @type {HTMLElement} */ (table.firstChild).append(head);
  for (const r of rows) {
    const tr = el("tr");
    const cells = [names[r.game] ?? r.game, r.mode, r.played, r.won, `${r.win_percent}%`, r.current_streak, r.best_streak,
      r.fewest_moves ?? "–", r.best_seconds != null ? formatSeconds(r.best_seconds) : "–"];
    cells.forEach((c, i) => {
      const cell = el(i === 0 ? "th" : "td", String(c));
      cell.dataset.label = labels[i]; // shown instead of the header row on a phone
      tr.append(cell);
    });
    /** @type {HTMLElement} */ (table.lastChild).append(tr);
  }
  into.append(table);
}

/**
 * @param {HTMLElement} into
 * @param {any[]} variants
 * @param {string} game
 */
export function renderRules(into, variants, game) {
  const v = variants.find((x) => x.id === game);
  into.replaceChildren();
  if (!v) return;
  into.append(el("p", v.summary, "summary"));
  const ol = el("ol");
  for (const r of v.rules) ol.append(el("li", r));
  into.append(ol, el("h3", "Deal modes"));
  const ul = el("ul");
  for (const m of v.modes) ul.append(el("li", m));
  into.append(ul);
}
