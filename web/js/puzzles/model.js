// The words and choices of the puzzles page, apart from the page: pure, so they are tested
// without a browser. Puzzles come from the server as `GET /api/puzzles` answers them.
import { addressOf } from '../notation/address.js';
import { SIDE_NAME, signed } from '../notation/words.js';

const discs = (n) => `${n} disc${Math.abs(n) === 1 ? '' : 's'}`;

/** The puzzle named by a page address (`/puzzles/{id}`), or null for the list. */
export function puzzleIdFromPath(pathname) {
  const match = /^\/puzzles\/([^/]+)\/?$/.exec(pathname);
  if (!match) return null;
  try { return decodeURIComponent(match[1]); } catch { return null; }
}

/** "Black to play: find the best move." */
export const promptWords = (puzzle) => `${SIDE_NAME[puzzle.side_to_move] || 'The side'} to play: find the best move.`;

/** What happened in the game at this position. */
export function contextWords(puzzle) {
  const who = puzzle.mine ? 'In your game you played' : 'In the game, the player played';
  return `${who} ${puzzle.played} here and lost ${discs(puzzle.loss)}.`;
}

/** The verdict on an answer (`POST …/attempt`), as a sentence. */
export function verdictWords(verdict) {
  const exact = verdict.exact ? ' (exact: solved to the end)' : '';
  if (verdict.correct) return `Right! ${verdict.move} is the best move: ${signed(verdict.best_value)}${exact}.`;
  return `${verdict.move} is worth ${signed(verdict.value)}, ${discs(verdict.loss)} less than the best${exact}. Try again.`;
}

/** The solution (`GET …/solution`), as a sentence. */
export function solutionWords(solution, puzzle) {
  const values = solution.values || [];
  const best = values[0];
  const played = values.find((value) => value.move === puzzle.played);
  const bestPart = best ? `The best move is ${best.move} (${signed(best.value)})` : `The best move is ${solution.solution}`;
  const playedPart = played ? `; ${puzzle.played}, played in the game, is worth ${signed(played.value)}` : '';
  return `${bestPart}${playedPart}.`;
}

/** The marks for the board after an answer: the square answered, with its value. */
export function verdictMarks(verdict) {
  return [{ square: verdict.move, kind: verdict.correct ? 'best' : 'value', text: signed(verdict.value), exact: verdict.exact }];
}

/** The marks for the board once the solution is shown: the best move and the move played. */
export function solutionMarks(solution, puzzle) {
  const values = solution.values || [];
  const marks = [];
  if (values[0]) marks.push({ square: values[0].move, kind: 'best', text: signed(values[0].value), exact: values[0].exact });
  const played = values.find((value) => value.move === puzzle.played);
  if (played && played.move !== 'pass') marks.push({ square: played.move, kind: 'value', text: signed(played.value), exact: played.exact });
  return marks;
}

/** The label of a puzzle in the list: "Black to play · lost 12 discs", solved or not. */
export function itemWords(puzzle) {
  return {
    title: `${SIDE_NAME[puzzle.side_to_move] || ''} to play · lost ${discs(puzzle.loss)}`,
    state: puzzle.solved ? 'Solved' : puzzle.attempts ? `${puzzle.attempts} ${puzzle.attempts === 1 ? 'try' : 'tries'}` : 'New',
  };
}

/** "4 puzzles, 1 solved." */
export function countWords(counts) {
  const total = counts ? counts.total : 0;
  return `${total} puzzle${total === 1 ? '' : 's'}, ${counts ? counts.solved : 0} solved.`;
}

/** The next puzzle to try after `currentId`: the next unsolved one in the list (from the top
 *  again after the end), else null. */
export function nextPuzzle(list, currentId) {
  const at = list.findIndex((puzzle) => puzzle.id === currentId);
  for (let step = 1; step <= list.length; step += 1) {
    const candidate = list[(at + step + list.length) % list.length];
    if (!candidate.solved && candidate.id !== currentId) return candidate;
  }
  return null;
}

/** The analysis board at the puzzle's position. */
export function analysisAddress(puzzle) {
  const side = puzzle.side_to_move === 'white' ? 'O' : 'X';
  return addressOf({ start: `${puzzle.board} ${side}`, line: [], ply: 0 });
}

/** The puzzle with the fields of a newer answer about it (attempts, solved). */
export const updated = (list, puzzle) => list.map((item) => (item.id === puzzle.id ? { ...item, ...puzzle } : item));
