// The board's state, as plain data, and the pure functions that change it. A position is 64
// characters (a1..h8 row by row, a1 top left): X black, O white, - empty. Legal moves and their
// flips come from the server; nothing here knows the rules.

export const Disc = Object.freeze({ BLACK: 'X', WHITE: 'O', EMPTY: '-' });
export const FILES = Object.freeze(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);
const DISC_NAME = Object.freeze({ X: 'black', O: 'white', '-': 'empty' });

export const squareName = (index) => `${FILES[index % 8]}${Math.floor(index / 8) + 1}`;
export const squareIndex = (name) => {
  const text = String(name).trim().toLowerCase();
  if (!/^[a-h][1-8]$/.test(text)) return -1;
  return (Number(text[1]) - 1) * 8 + FILES.indexOf(text[0]);
};
export const discName = (code) => DISC_NAME[code] || 'empty';

/** The discs of each colour and the empty squares of `position`. */
export function countDiscs(position) {
  const counts = { black: 0, white: 0, empty: 0 };
  for (let index = 0; index < 64; index += 1) counts[discName(position[index])] += 1;
  return counts;
}

/** Chebyshev distance between two squares: how many steps a flip wave needs from one to the other. */
export const distance = (a, b) =>
  Math.max(Math.abs((a % 8) - (b % 8)), Math.abs(Math.floor(a / 8) - Math.floor(b / 8)));

/**
 * @typedef {object} BoardState
 * @property {string} position 64 characters
 * @property {Map<number, number[]>} legal playable squares and the squares each one flips
 * @property {'black'|'white'|null} mover whose preview disc to show
 * @property {boolean} dots whether legal moves are marked
 * @property {number|null} last the last move's square
 * @property {number|null} previewed the square whose flips are previewed
 * @property {Map<number, {kind: string, text: string}>} marks the page's own marks (e.g. the
 *   engine's best move with its value), drawn over the squares
 */

/** @returns {BoardState} */
export const initialState = () => ({
  position: Disc.EMPTY.repeat(64), legal: new Map(), mover: null, dots: true, last: null, previewed: null, marks: new Map(),
});

/** A new position; the last move's square (or null). Previews end. */
export const withPosition = (state, position, last) => ({ ...state, position, last, previewed: null });

/** New legal moves ([{square, flips}] with square names) for `mover`. Previews end. */
export const withMoves = (state, moves, mover, dots) => ({
  ...state,
  legal: new Map(moves.map((move) => [squareIndex(move.square), move.flips.map(squareIndex)])),
  mover,
  dots,
  previewed: null,
});

/** Previews `index` when it is playable; anything else clears the preview. */
export const withPreview = (state, index) => ({
  ...state, previewed: index !== null && state.legal.has(index) ? index : null,
});

/** The page's marks ([{square, kind, text, exact}]): a ringed square with a short text, e.g.
 *  the engine's best move and its value ('best'), or another move's value ('value'); `exact`
 *  says the value is exact. An empty list clears them. */
export const withMarks = (state, marks) => ({
  ...state,
  marks: new Map(marks.map((mark) => [
    squareIndex(mark.square), { kind: mark.kind || 'best', text: mark.text || '', exact: Boolean(mark.exact) },
  ])),
});

const MARK_NAME = Object.freeze({ best: 'best move', value: 'value' });

/** What a screen reader hears for a square. */
export function squareLabel(state, index) {
  let label = `${squareName(index)}, ${discName(state.position[index])}`;
  if (state.legal.has(index) && state.dots) label += ', legal move';
  if (index === state.last) label += ', last move';
  const mark = state.marks && state.marks.get(index);
  if (mark) label += `, ${MARK_NAME[mark.kind] || mark.kind}${mark.text ? ` ${mark.text}` : ''}${mark.exact ? ', exact' : ''}`;
  return label;
}
