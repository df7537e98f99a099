// Othello's move numbers: the n-th disc placed is move n, 1 to 60, as transcripts and score
// sheets count them. A pass places no disc and has no number of its own. One numbering for the
// move list, the review, the notes and the status line. Pure (no DOM).

import { SIDE_NAME } from './words.js';

const isPass = (ply) => ply.move === 'pass';

/** Each ply's move number, or null for a pass; `plies` have a `move` ('pass' or a square). */
export function moveNumbers(plies) {
  let placed = 0;
  return plies.map((ply) => (isPass(ply) ? null : (placed += 1)));
}

/** The moves made (discs placed) in the first `count` plies. */
export function movesMade(plies, count) {
  return plies.slice(0, count).filter((ply) => !isPass(ply)).length;
}

/** The position after the first `count` plies, in words: "the start", "move 12", or "move 12
 *  and White's pass" when the last of them was a pass; `placed` discs were placed before the
 *  first ply (a set-up position's). */
export function afterWords(plies, count, placed = 0) {
  const made = placed + movesMade(plies, count);
  const last = count > 0 ? plies[count - 1] : null;
  const moves = made === 0 ? 'the start' : `move ${made}`;
  return last && isPass(last) ? `${moves} and ${SIDE_NAME[last.color]}'s pass` : moves;
}
