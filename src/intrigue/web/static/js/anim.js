// @ts-check
/**
 * FLIP animation of card moves: the renderer knows where each card was drawn
 * (First) and where it goes (Last); we set the final transform at once and
 * play the inverted difference back to zero with the Web Animations API, so
 * the DOM always holds the true position.  Nothing moves under
 * prefers-reduced-motion.
 */

const motion = window.matchMedia("(prefers-reduced-motion: reduce)");

export function reducedMotion() {
  return motion.matches;
}

/**
 * @param {{x: number, y: number, s: number}} p
 */
export function transformOf(p) {
  return `translate(${p.x.toFixed(2)}px, ${p.y.toFixed(2)}px)${p.s !== 1 ? ` scale(${p.s})` : ""}`;
}

/**
 * Animate `el` from `from` to `to` (the final transform is already set).
 * The moving card flies above the others and drops to its own z on landing.
 * @param {HTMLElement} el
 * @param {{x: number, y: number, s: number}} from
 * @param {{x: number, y: number, s: number, z: number}} to
 * @param {number} delay ms
 * @param {boolean} [passThrough] the card goes to another place: fly above, let clicks through
 * @returns {number} when the animation ends, in ms from now
 */
export function fly(el, from, to, delay = 0, passThrough = true) {
  if (motion.matches) return 0;
  const dist = Math.hypot(to.x - from.x, to.y - from.y);
  const duration = Math.min(420, 160 + dist * 0.35);
  stop(el);
  // A card in flight to another place flies above the others and must not
  // catch the clicks meant for the cards it passes over; a card that only
  // shifts (its column fanned tighter, the table resized) keeps its z and clicks.
  el.style.zIndex = String(passThrough ? 2000 + to.z : to.z);
  el.classList.toggle("flying", passThrough);
  const anim = el.animate(
    [{ transform: transformOf(from) }, { transform: transformOf(to) }],
    { duration, delay, easing: "cubic-bezier(.2,.75,.25,1)", fill: "backwards" },
  );
  anim.onfinish = anim.oncancel = () => {
    // The renderer keeps the card's current z in data-z; it may have changed mid-flight.
    el.style.zIndex = el.dataset.z ?? String(to.z);
    el.classList.remove("flying");
  };
  return delay + duration;
}

/**
 * Stop a card's flight (not its CSS animations, such as the hint's pulse).
 * @param {HTMLElement} el
 */
export function stop(el) {
  for (const a of el.getAnimations()) if (!(a instanceof CSSAnimation)) a.cancel();
}

/**
 * A short shake of a card that may not go where it was dropped.
 * @param {HTMLElement} el
 */
export function shake(el) {
  if (motion.matches) return;
  el.animate(
    [{ translate: "0 0" }, { translate: "-5px 0" }, { translate: "5px 0" }, { translate: "-3px 0" }, { translate: "0 0" }],
    { duration: 260, easing: "ease-out" },
  );
}
