// @ts-check
/**
 * Card artwork drawn as SVG in code: crisp at any size, no image files, no
 * licence questions.  The suit shapes and the card back live once in a
 * hidden <svg> of <symbol>s; each card's face <use>s them.
 */

const SVG_NS = "http://www.w3.org/2000/svg";
export const RANKS = "A23456789TJQK";
export const SUITS = "CSHD";
const RED = "#c0262d";
const BLACK = "#1d1f24";

/** Suit outlines in a 100x100 box. */
const SUIT_PATHS = {
  H: "M50 92C22 68 2 50 2 28 2 12 14 2 28 2 39 2 46 9 50 18 54 9 61 2 72 2 86 2 98 12 98 28 98 50 78 68 50 92Z",
  D: "M50 2 90 50 50 98 10 50Z",
  S: "M50 2C62 22 98 40 98 63 98 79 86 88 73 88 64 88 57 84 53 78 54 89 59 95 68 99H32C41 95 46 89 47 78 43 84 36 88 27 88 14 88 2 79 2 63 2 40 38 22 50 2Z",
  C: "M50 4A21 21 0 0 1 70 31 21 21 0 1 1 58 68C59 84 63 92 70 98H30C37 92 41 84 42 68A21 21 0 1 1 30 31 21 21 0 0 1 50 4Z",
};

/** The hidden <svg> with the suit symbols and the back pattern; call once. */
export function installDefs() {
  if (document.getElementById("card-defs")) return;
  const holder = document.createElement("div");
  holder.innerHTML = `<svg id="card-defs" xmlns="${SVG_NS}" width="0" height="0" style="position:absolute" aria-hidden="true">
  <defs>
    ${Object.entries(SUIT_PATHS).map(([s, d]) => `<symbol id="suit-${s}" viewBox="0 0 100 100"><path d="${d}"/></symbol>`).join("")}
    <pattern id="back-lattice" width="16" height="16" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">
      <rect width="16" height="16" fill="#1f3f73"/>
      <path d="M0 8H16M8 0V16" stroke="#3d64a8" stroke-width="3"/>
      <circle cx="8" cy="8" r="2.4" fill="#d8b25a"/>
    </pattern>
  </defs></svg>`;
  document.body.prepend(/** @type {Element} */ (holder.firstElementChild));
}

/** Pip centres for ranks 1..10 in the 200x280 card (bottom half drawn upside down). */
const L = 62, M = 100, R = 138;
/** @type {Record<number, [number, number][]>} */
const PIPS = {
  2: [[M, 66], [M, 214]],
  3: [[M, 66], [M, 140], [M, 214]],
  4: [[L, 66], [R, 66], [L, 214], [R, 214]],
  5: [[L, 66], [R, 66], [M, 140], [L, 214], [R, 214]],
  6: [[L, 66], [R, 66], [L, 140], [R, 140], [L, 214], [R, 214]],
  7: [[L, 66], [R, 66], [M, 103], [L, 140], [R, 140], [L, 214], [R, 214]],
  8: [[L, 66], [R, 66], [M, 103], [L, 140], [R, 140], [M, 177], [L, 214], [R, 214]],
  9: [[L, 66], [R, 66], [L, 115], [R, 115], [M, 140], [L, 165], [R, 165], [L, 214], [R, 214]],
  10: [[L, 66], [R, 66], [M, 91], [L, 115], [R, 115], [L, 165], [R, 165], [M, 189], [L, 214], [R, 214]],
};

/**
 * @param {string} suit
 * @param {number} cx
 * @param {number} cy
 * @param {number} size
 * @param {boolean} [flip]
 */
function pip(suit, cx, cy, size, flip = false) {
  const t = flip ? ` transform="rotate(180 ${cx} ${cy})"` : "";
  return `<use href="#suit-${suit}" x="${cx - size / 2}" y="${cy - size / 2}" width="${size}" height="${size}"${t}/>`;
}

/** @param {string} rankChar */
function rankLabel(rankChar) {
  return rankChar === "T" ? "10" : rankChar;
}

/**
 * The face of a card as an SVG string.
 * @param {string} name two-character card, e.g. "TD"
 */
export function faceSVG(name) {
  const r = name[0], s = name[1];
  const rank = RANKS.indexOf(r) + 1;
  const color = s === "H" || s === "D" ? RED : BLACK;
  const label = rankLabel(r);
  // The corner index is all a fanned card shows, so it is large: readable on a phone.
  const narrow = label.length > 1 ? ` textLength="42" lengthAdjust="spacingAndGlyphs"` : "";
  const index = `<g><text x="27" y="46" text-anchor="middle" font-size="47" font-weight="700"${narrow}>${label}</text>${pip(s, 66, 30, 31)}</g>`;
  let middle = "";
  if (rank === 1) {
    middle = pip(s, 100, 140, 84);
  } else if (rank <= 10) {
    middle = PIPS[rank].map(([x, y]) => pip(s, x, y, 38, y > 140)).join("");
  } else {
    const tint = color === RED ? "#fbe9e7" : "#e8ecf3";
    const crown = rank === 13 ? "M70 96l10-22 20 14 20-14 10 22z" : rank === 12 ? "M76 96l6-18 18 10 18-10 6 18z" : "";
    middle =
      `<rect x="40" y="58" width="120" height="164" rx="10" fill="${tint}" stroke="${color}" stroke-width="2.5"/>` +
      `<rect x="47" y="65" width="106" height="150" rx="6" fill="none" stroke="${color}" stroke-width="1" opacity=".6"/>` +
      (crown ? `<path d="${crown}" fill="#d8b25a" stroke="${color}" stroke-width="1.5"/>` : "") +
      `<text x="100" y="${rank === 11 ? 160 : 168}" text-anchor="middle" font-size="76" font-family="Georgia, 'Times New Roman', serif" font-weight="700">${r}</text>` +
      pip(s, 100, 192, 30);
  }
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 200 280" class="face" aria-hidden="true" fill="${color}">` +
    `<rect x="1.5" y="1.5" width="197" height="277" rx="14" fill="#fffdf7" stroke="#b9b3a5" stroke-width="3"/>` +
    `<g font-family="'Segoe UI', Roboto, 'Helvetica Neue', Arial, sans-serif">${index}` +
    `<g transform="rotate(180 100 140)">${index}</g>${middle}</g></svg>`;
}

/** The shared back of every card. */
export function backSVG() {
  return `<svg xmlns="${SVG_NS}" viewBox="0 0 200 280" class="back" aria-hidden="true">` +
    `<rect x="1.5" y="1.5" width="197" height="277" rx="14" fill="#fffdf7" stroke="#b9b3a5" stroke-width="3"/>` +
    `<rect x="12" y="12" width="176" height="256" rx="8" fill="url(#back-lattice)"/>` +
    `<rect x="12" y="12" width="176" height="256" rx="8" fill="none" stroke="#d8b25a" stroke-width="3"/></svg>`;
}

/**
 * A card in words, for labels and announcements: "seven of diamonds".
 * @param {string} name
 */
export function cardWords(name) {
  const ranks = ["ace", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "jack", "queen", "king"];
  const suits = { C: "clubs", S: "spades", H: "hearts", D: "diamonds" };
  return `${ranks[RANKS.indexOf(name[0])]} of ${suits[/** @type {"C"|"S"|"H"|"D"} */ (name[1])]}`;
}

/** @param {string} name */
export function suitSymbol(name) {
  return { C: "♣", S: "♠", H: "♥", D: "♦" }[/** @type {"C"|"S"|"H"|"D"} */ (name[1])] ?? "";
}
