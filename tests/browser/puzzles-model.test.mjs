// The puzzles page's words and choices (web/js/puzzles/model.js), without a browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  analysisAddress, contextWords, countWords, itemWords, nextPuzzle, promptWords, puzzleIdFromPath,
  solutionMarks, solutionWords, updated, verdictMarks, verdictWords,
} from '../../web/js/puzzles/model.js';
import { signed } from '../../web/js/notation/words.js';

const BOARD = '---------------------------OX------XO---------------------------';
const puzzle = (fields = {}) => ({
  id: 'k7Hq2mXp9R-3', game_id: 'k7Hq2mXp9R', ply: 3, board: BOARD, side_to_move: 'black',
  legal_moves: [], played: 'e3', loss: 12, mine: true, attempts: 0, solved: false, ...fields,
});

test('values carry their sign, with a true minus', () => {
  assert.deepEqual([signed(4), signed(-2), signed(0)], ['+4', '−2', '0']);
});

test('the page address names a puzzle or the list', () => {
  assert.equal(puzzleIdFromPath('/puzzles/k7Hq2mXp9R-3'), 'k7Hq2mXp9R-3');
  assert.equal(puzzleIdFromPath('/puzzles'), null);
  assert.equal(puzzleIdFromPath('/puzzles/'), null);
});

test('the prompt and the context say whose move and what happened in the game', () => {
  assert.equal(promptWords(puzzle({ side_to_move: 'white' })), 'White to play: find the best move.');
  assert.equal(contextWords(puzzle()), 'In your game you played e3 here and lost 12 discs.');
  assert.equal(contextWords(puzzle({ mine: false, loss: 1 })), 'In the game, the player played e3 here and lost 1 disc.');
});

test('a verdict says right, or what the answer is worth against the best', () => {
  const right = { correct: true, move: 'd3', value: 4, best_value: 4, loss: 0, exact: true };
  assert.equal(verdictWords(right), 'Right! d3 is the best move: +4 (exact: solved to the end).');
  const wrong = { correct: false, move: 'c3', value: -1, best_value: 4, loss: 5, exact: false };
  assert.equal(verdictWords(wrong), 'c3 is worth −1, 5 discs less than the best. Try again.');
  assert.deepEqual(verdictMarks(wrong), [{ square: 'c3', kind: 'value', text: '−1', exact: false }]);
  assert.deepEqual(verdictMarks(right), [{ square: 'd3', kind: 'best', text: '+4', exact: true }]);
});

test('the solution names the best move and the move played, and marks both', () => {
  const solution = { solution: 'd3', values: [{ move: 'd3', value: 4, exact: true }, { move: 'e3', value: -8, exact: true }] };
  assert.equal(solutionWords(solution, puzzle()), 'The best move is d3 (+4); e3, played in the game, is worth −8.');
  assert.deepEqual(solutionMarks(solution, puzzle()), [
    { square: 'd3', kind: 'best', text: '+4', exact: true },
    { square: 'e3', kind: 'value', text: '−8', exact: true },
  ]);
});

test('the list says each puzzle\'s side, loss and state, and counts them', () => {
  assert.deepEqual(itemWords(puzzle()), { title: 'Black to play · lost 12 discs', state: 'New' });
  assert.deepEqual(itemWords(puzzle({ attempts: 2 })).state, '2 tries');
  assert.deepEqual(itemWords(puzzle({ attempts: 1 })).state, '1 try');
  assert.deepEqual(itemWords(puzzle({ solved: true, attempts: 3 })).state, 'Solved');
  assert.equal(countWords({ total: 1, solved: 0 }), '1 puzzle, 0 solved.');
  assert.equal(countWords({ total: 4, solved: 1 }), '4 puzzles, 1 solved.');
});

test('the next puzzle is the next unsolved one, from the top again after the end', () => {
  const list = [puzzle({ id: 'a' }), puzzle({ id: 'b', solved: true }), puzzle({ id: 'c' })];
  assert.equal(nextPuzzle(list, 'a').id, 'c');
  assert.equal(nextPuzzle(list, 'c').id, 'a');
  assert.equal(nextPuzzle([puzzle({ id: 'a' })], 'a'), null);
  assert.equal(nextPuzzle(list, 'unknown').id, 'a');
});

test('the analysis link starts from the puzzle\'s position with its side to move', () => {
  assert.equal(analysisAddress(puzzle({ side_to_move: 'white' })), `/analysis?start=${BOARD}O`);
});

test('a newer answer updates its puzzle in the list and no other', () => {
  const list = [puzzle({ id: 'a' }), puzzle({ id: 'b' })];
  const after = updated(list, { id: 'b', attempts: 1, solved: true });
  assert.deepEqual(after.map((item) => [item.id, item.attempts, item.solved]), [['a', 0, false], ['b', 1, true]]);
});
