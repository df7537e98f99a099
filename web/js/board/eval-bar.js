// The eval bar beside the board: how far Black or White is ahead in the position shown, as the
// share of a bar that is Black's (Black's part from the top, as above the line in the review's
// graph). It shows values the page already has (the review's, the analysis board's); it never
// asks for any, and it is never shown during a live game.

/** Discs ahead at which Black's share is about three quarters: small leads show, big ones
 *  saturate. */
const SCALE = 16;

/** Black's share of the bar, 0 to 1, for a value in discs for Black: 0.5 + 0.5 × tanh(v / 16);
 *  0.5 when even, 0.62 at +4, 0.88 at +16, 0.98 at +32. */
export function blackShare(value) {
  return 0.5 + 0.5 * Math.tanh((Number(value) || 0) / SCALE);
}

/** The bar's words for screen readers: "Black +4", "White +6", "even", with ", exact". */
export function evalWords(value, exact) {
  const number = Math.round(Number(value) || 0);
  const lead = number > 0 ? `Black +${number}` : number < 0 ? `White +${-number}` : 'even';
  return `Evaluation: ${lead}${exact ? ', exact' : ''}`;
}

export class EvalBar {
  /** @param {HTMLElement} element the bar's element, kept in its place whether shown or not */
  constructor(element) {
    this.element = element;
    this.element.setAttribute('role', 'img');
    this.fill = document.createElement('span');
    this.fill.className = 'eval-black';
    this.element.replaceChildren(this.fill);
    this.clear();
  }

  /** Shows `value` (discs for Black); `exact` when it is the solver's. */
  show(value, exact = false) {
    this.element.style.setProperty('--black-share', blackShare(value).toFixed(4));
    this.element.setAttribute('aria-label', evalWords(value, exact));
    this.element.classList.toggle('exact', exact);
    this.element.classList.add('shown');
  }

  /** Shows nothing (no value known, or a live game). */
  clear() {
    this.element.classList.remove('shown', 'exact');
    this.element.style.setProperty('--black-share', '0.5');
    this.element.setAttribute('aria-label', 'Evaluation: none yet');
  }
}
