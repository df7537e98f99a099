// The eval bar's arithmetic and words (web/js/board/eval-bar.js) and the analysis board's value
// for it, as a specification. Plain Node, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { blackShare, evalWords } from '../../web/js/board/eval-bar.js';
import { blackValue } from '../../web/js/analysis/model.js';

test('an even position fills half the bar, a lead more, and the bar never fills up', () => {
  assert.equal(blackShare(0), 0.5);
  assert.equal(blackShare(4).toFixed(2), '0.62');
  assert.equal(blackShare(-4).toFixed(2), '0.38');
  assert.equal(blackShare(16).toFixed(2), '0.88');
  assert.ok(blackShare(64) < 1 && blackShare(-64) > 0);
  assert.ok(blackShare(10) > blackShare(9));
});

test('the bar says who is ahead and by how much, and when it is exact', () => {
  assert.equal(evalWords(4, false), 'Evaluation: Black +4');
  assert.equal(evalWords(-6, true), 'Evaluation: White +6, exact');
  assert.equal(evalWords(0, false), 'Evaluation: even');
});

test('the analysis board gives the bar the best value turned to Black\'s side', () => {
  const values = { moves: [{ move: 'c4', value: 3, exact: false }, { move: 'd3', value: 1, exact: false }] };
  assert.deepEqual(blackValue({ side_to_move: 'black', over: false }, values), { value: 3, exact: false });
  assert.deepEqual(blackValue({ side_to_move: 'white', over: false }, values), { value: -3, exact: false });
  assert.deepEqual(blackValue({ side_to_move: 'white', over: false }, { moves: [{ move: 'a1', value: 2, exact: true }] }), { value: -2, exact: true });
  // Over: the discs on the board.
  assert.deepEqual(blackValue({ over: true, counts: { black: 40, white: 24 } }, null), { value: 16, exact: true });
  assert.equal(blackValue({ side_to_move: 'black', over: false }, null), null);
  assert.equal(blackValue(null, values), null);
});
