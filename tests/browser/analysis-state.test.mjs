// The analysis board's reducer (web/js/analysis/state.js) as a specification: the server's
// answers and the page's controls in as actions, the state the page draws out. Plain Node, no
// browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STANDARD_START } from '../../web/js/notation/address.js';
import { positionKey } from '../../web/js/analysis/model.js';
import {
  CACHE_LIMIT, awaitsValues, engineAnnouncement, initialState, planPlay, plyAnnouncement, reduce, requestBody, shownAddress,
  shownEntry, shownKey, shownMoves, shownPosition, stepTarget, typedMove, wantsValues,
} from '../../web/js/analysis/state.js';

const START = STANDARD_START.slice(0, 64);

/** The server's answer about the line `moves` from the standard start: a stand-in board for
 *  each position (the state passes them through), the last with its move. */
const lineAnswer = (moves, fields = {}) => ({
  start: STANDARD_START,
  moves,
  positions: [START, ...moves].map((_, index) => ({
    board: index ? `board after ${index}` : START,
    last_move: index && moves[index - 1] !== 'pass' ? { square: moves[index - 1], flips: ['e5'] } : null,
  })),
  side_to_move: moves.length % 2 ? 'white' : 'black',
  legal_moves: ['d6', 'f4', 'f6'],
  must_pass: false,
  counts: { black: 4, white: 1 },
  empties: 59,
  over: false,
  result: null,
  ...fields,
});

const values = {
  moves: [{ move: 'f6', value: 2, exact: false }, { move: 'd6', value: 2, exact: false }, { move: 'f4', value: -3, exact: false }],
  best_line: ['f6', 'e6'],
  exact_from_empties: 18,
  search: 'depth 10',
};

const busy = { status: 503, code: 'analysis_busy', message: 'busy', retryAfter: '5' };

const run = (state, ...actions) => actions.reduce(reduce, state);

/** The state once the line `moves` has loaded, showing ply `ply` (the end when null). */
function loaded(moves, ply = null, fields = {}) {
  const state = reduce(initialState(), { type: 'load_started' });
  return reduce(state, { type: 'loaded', seq: state.loads, answer: lineAnswer(moves, fields), ply });
}

const keyOf = (moves) => positionKey(STANDARD_START, moves);

test('before the first line nothing is shown, and selecting or playing changes nothing', () => {
  const state = initialState();
  assert.equal(shownKey(state), null);
  assert.equal(shownPosition(state), null);
  assert.equal(shownEntry(state), null);
  assert.equal(reduce(state, { type: 'selected', ply: 1 }), state);
  assert.equal(planPlay(state, 'f5'), null);
  assert.equal(stepTarget(state, 'forward'), null);
  assert.equal(plyAnnouncement(state), 'The start position.');
});

test('a loaded line shows its end, remembered as the answer about its last position', () => {
  const state = loaded(['f5', 'd6']);
  assert.deepEqual(state.line.moves, ['f5', 'd6']);
  assert.equal(state.line.ply, 2);
  assert.equal(state.line.start, STANDARD_START);
  assert.equal(shownKey(state), keyOf(['f5', 'd6']));
  assert.deepEqual(shownEntry(state), { answer: lineAnswer(['f5', 'd6']) });
  assert.deepEqual(shownPosition(state), { board: 'board after 2', last_move: { square: 'd6', flips: ['e5'] } });
  assert.equal(shownAddress(state), '/analysis?moves=f5d6');
  assert.deepEqual(requestBody(state, ['f5']), { start: `${START}X`, moves: ['f5'] });
  assert.equal(state.animate, false);
});

test('a loaded line shows the ply asked for, kept within the line', () => {
  assert.equal(loaded(['f5', 'd6', 'c3'], 1).line.ply, 1);
  assert.equal(loaded(['f5', 'd6', 'c3'], 9).line.ply, 3);
  assert.equal(loaded(['f5', 'd6', 'c3'], -2).line.ply, 0);
  assert.equal(shownAddress(loaded(['f5', 'd6', 'c3'], 1)), '/analysis?moves=f5d6c3&ply=1');
  // Only the line's end is known; the ply shown is asked about.
  assert.equal(shownEntry(loaded(['f5', 'd6', 'c3'], 1)), null);
});

test('the answer to a load overtaken by a newer one is dropped', () => {
  const first = reduce(initialState(), { type: 'load_started' });
  const second = reduce(first, { type: 'load_started' });
  assert.equal(second.loads, first.loads + 1);
  assert.equal(reduce(second, { type: 'loaded', seq: first.loads, answer: lineAnswer(['f5']), ply: null }), second);
  assert.deepEqual(reduce(second, { type: 'loaded', seq: second.loads, answer: lineAnswer(['d3']), ply: null }).line.moves, ['d3']);
});

test('selecting a ply shows it, kept within the line, and clears the error; only the next ply is animated', () => {
  const state = reduce(loaded(['f5', 'd6', 'c3'], 1), { type: 'error', text: 'Refused.' });
  const forward = reduce(state, { type: 'selected', ply: 2 });
  assert.equal(forward.line.ply, 2);
  assert.equal(forward.animate, true);
  assert.equal(forward.error, '');
  assert.deepEqual(shownMoves(forward), ['f5', 'd6']);
  assert.equal(reduce(state, { type: 'selected', ply: 0 }).animate, false);
  assert.equal(reduce(state, { type: 'selected', ply: 3 }).animate, false);
  assert.equal(reduce(state, { type: 'selected', ply: 7 }).line.ply, 3);
  assert.equal(reduce(state, { type: 'selected', ply: -1 }).line.ply, 0);
  // The animation is for that change only.
  assert.equal(reduce(forward, { type: 'load_started' }).animate, false);
});

test('a step goes to the start, back, forward or to the end; not past an end nor where the board is', () => {
  const state = loaded(['f5', 'd6', 'c3'], 1);
  assert.deepEqual(['start', 'back', 'forward', 'end'].map((where) => stepTarget(state, where)), [0, 0, 2, 3]);
  assert.equal(stepTarget(loaded(['f5'], 0), 'back'), null);
  assert.equal(stepTarget(loaded(['f5'], 0), 'start'), null);
  assert.equal(stepTarget(loaded(['f5']), 'forward'), null);
  assert.equal(stepTarget(loaded(['f5']), 'end'), null);
  assert.equal(stepTarget(state, 'sideways'), null);
});

test('a new position shown drops the values refusal and its retry', () => {
  const state = loaded(['f5', 'd6']);
  const asked = reduce(state, { type: 'values_started' });
  const refused = reduce(asked, { type: 'values_failed', key: shownKey(asked), seq: asked.valuesAsked, error: busy });
  assert.equal(refused.retryIn, 5);
  const back = reduce(refused, { type: 'selected', ply: 1 });
  assert.equal(back.valuesError, null);
  assert.equal(back.retryIn, 0);
});

test('the rules of a position are remembered by its key; a refusal is shown only while that position is', () => {
  const state = loaded(['f5', 'd6'], 1);
  const key = keyOf(['f5']);
  const answered = reduce(state, { type: 'answered', key, answer: lineAnswer(['f5']) });
  assert.deepEqual(shownEntry(answered), { answer: lineAnswer(['f5']) });
  assert.equal(wantsValues(answered, key), true);
  assert.equal(reduce(state, { type: 'rules_failed', key, text: 'No such line.' }).error, 'No such line.');
  assert.equal(reduce(state, { type: 'rules_failed', key: keyOf([]), text: 'No such line.' }), state);
});

test('values are wanted once the rules are known, unless the game is over there or they came already', () => {
  const state = loaded(['f5']);
  const key = shownKey(state);
  assert.equal(wantsValues(state, key), true);
  assert.equal(wantsValues(state, keyOf(['d3'])), false);
  assert.equal(wantsValues(loaded(['f5'], null, { over: true }), key), false);
  const valued = reduce(state, { type: 'valued', key, answer: { ...lineAnswer(['f5']), values } });
  assert.equal(wantsValues(valued, key), false);
});

test('values are kept with the rules they came with, and an answer without values counts as none', () => {
  const state = reduce(loaded(['f5']), { type: 'values_started' });
  const key = shownKey(state);
  const valued = reduce(state, { type: 'valued', key, answer: { ...lineAnswer(['f5']), values } });
  assert.deepEqual(shownEntry(valued), { answer: lineAnswer(['f5']), values });
  const none = reduce(state, { type: 'valued', key, answer: lineAnswer(['f5']) });
  assert.deepEqual(shownEntry(none).values, { moves: [], best_line: [] });
  assert.equal(engineAnnouncement(valued), 'Best for White: f6 or d6 (+2).');
});

test('values asked again or about another position since are no longer awaited', () => {
  const state = reduce(loaded(['f5']), { type: 'values_started' });
  const key = shownKey(state);
  assert.equal(awaitsValues(state, key, state.valuesAsked), true);
  assert.equal(awaitsValues(reduce(state, { type: 'values_started' }), key, state.valuesAsked), false);
  assert.equal(awaitsValues(reduce(state, { type: 'selected', ply: 0 }), key, state.valuesAsked), false);
});

test('a busy engine is asked again after its Retry-After, counted down a second at a time; another refusal is not', () => {
  const state = reduce(loaded(['f5']), { type: 'values_started' });
  const key = shownKey(state);
  const refused = reduce(state, { type: 'values_failed', key, seq: state.valuesAsked, error: busy });
  assert.equal(refused.valuesError, busy);
  assert.equal(refused.retryIn, 5);
  assert.equal(engineAnnouncement(refused), 'The engine is busy with other positions. Trying again in 5 s…');
  assert.equal(run(refused, { type: 'retry_tick' }, { type: 'retry_tick' }).retryIn, 3);
  assert.equal(run(refused, ...Array(7).fill({ type: 'retry_tick' })).retryIn, 0);
  assert.equal(reduce(state, { type: 'values_failed', key, seq: state.valuesAsked, error: { status: 503 } }).retryIn, 3);
  const failed = reduce(state, { type: 'values_failed', key, seq: state.valuesAsked, error: { status: 500, message: 'it broke' } });
  assert.equal(failed.retryIn, 0);
  assert.equal(engineAnnouncement(failed), 'No values: it broke');
  // Asking again clears the refusal.
  const again = reduce(refused, { type: 'values_started' });
  assert.equal(again.valuesError, null);
  assert.equal(again.retryIn, 0);
});

test('a values refusal no longer awaited is dropped', () => {
  const state = reduce(loaded(['f5']), { type: 'values_started' });
  const key = shownKey(state);
  const newer = reduce(state, { type: 'values_started' });
  assert.equal(reduce(newer, { type: 'values_failed', key, seq: state.valuesAsked, error: busy }), newer);
  assert.equal(reduce(state, { type: 'values_failed', key: keyOf([]), seq: state.valuesAsked, error: busy }), state);
});

test(`the state remembers ${CACHE_LIMIT} positions, dropping the one used longest ago`, () => {
  let state = loaded(['f5']);
  const first = shownKey(state);
  for (let index = 0; index < CACHE_LIMIT; index += 1) {
    state = reduce(state, { type: 'answered', key: `position ${index}`, answer: lineAnswer([]) });
    // The position shown was used again just before the last one came: it stays.
    if (index === CACHE_LIMIT - 2) state = reduce(state, { type: 'answered', key: first, answer: lineAnswer(['f5']) });
  }
  assert.equal(state.cache.size, CACHE_LIMIT);
  assert.equal(state.cache.has(first), true);
  assert.equal(state.cache.has('position 0'), false);
  assert.equal(state.cache.has('position 1'), true);
});

test('a move is asked about as the plies shown and the move, what came after them dropped', () => {
  const state = loaded(['f5', 'd6', 'c3'], 1);
  const shown = reduce(state, { type: 'answered', key: keyOf(['f5']), answer: lineAnswer(['f5']) });
  assert.deepEqual(planPlay(shown, 'f4'), { moves: ['f5', 'f4'] });
  // The line's own next move steps forward, after the pass the server put in too.
  assert.deepEqual(planPlay(shown, 'd6'), { ply: 2 });
  const withPass = loaded(['d3', 'c3', 'pass', 'b3'], 2);
  const beforePass = reduce(withPass, { type: 'answered', key: keyOf(['d3', 'c3']), answer: lineAnswer(['d3', 'c3']) });
  assert.deepEqual(planPlay(beforePass, 'b3'), { ply: 4 });
  assert.deepEqual(planPlay(beforePass, 'pass'), { ply: 3 });
});

test('no move is played without the rules of the position shown, while a move is on its way, or once the game is over', () => {
  assert.equal(planPlay(loaded(['f5', 'd6'], 1), 'f4'), null);
  const playing = reduce(loaded(['f5']), { type: 'play_started' });
  assert.equal(playing.playing, true);
  assert.equal(planPlay(playing, 'f4'), null);
  assert.deepEqual(planPlay(loaded(['f5'], null, { over: true }), 'f4'), { error: 'The game is over here: there is nothing to play.' });
});

test('a move played becomes the line, animated and shown at its end; a refused one is said', () => {
  const state = reduce(loaded(['f5', 'd6', 'c3'], 1), { type: 'play_started' });
  const played = reduce(state, { type: 'played', answer: lineAnswer(['f5', 'f4']) });
  assert.deepEqual(played.line.moves, ['f5', 'f4']);
  assert.equal(played.line.ply, 2);
  assert.equal(played.animate, true);
  assert.equal(played.playing, false);
  assert.equal(played.error, '');
  const refused = reduce(state, { type: 'play_failed', text: 'Not a legal move.' });
  assert.equal(refused.playing, false);
  assert.equal(refused.error, 'Not a legal move.');
  assert.deepEqual(refused.line, state.line);
});

test('a typed move must be a square or pass, and one of the legal moves when they are known', () => {
  const state = loaded(['f5']);
  assert.deepEqual(typedMove(state, ' F6 '), { move: 'f6' });
  assert.deepEqual(typedMove(state, 'Pass'), { move: 'pass' });
  assert.deepEqual(typedMove(state, 'z9'), { error: '"z9" is not a square: type a column a–h and a row 1–8, e.g. f5.' });
  assert.deepEqual(typedMove(state, 'a1'), { error: 'a1 is not a legal move for White here.' });
  assert.deepEqual(typedMove(loaded(['f5'], null, { legal_moves: [], must_pass: true }), 'a1'),
    { error: 'White has no legal move: pass.' });
  // Without the rules yet, or once the game is over, the server judges.
  assert.deepEqual(typedMove(loaded(['f5', 'd6'], 1), 'a1'), { move: 'a1' });
  assert.deepEqual(typedMove(loaded(['f5'], null, { over: true }), 'a1'), { move: 'a1' });
});

test('the same error said twice is said again; clearing it says nothing', () => {
  const state = loaded(['f5']);
  const once = reduce(state, { type: 'error', text: 'Refused.' });
  const twice = reduce(once, { type: 'error', text: 'Refused.' });
  assert.equal(twice.error, 'Refused.');
  assert.equal(twice.errorId, once.errorId + 1);
  const cleared = reduce(twice, { type: 'error', text: '' });
  assert.equal(cleared.error, '');
  assert.equal(cleared.errorId, twice.errorId);
});

test('the status line says the ply shown and, when known, whose turn it is', () => {
  const state = loaded(['f5', 'd6'], 1);
  assert.equal(plyAnnouncement(state), 'After move 1, Black f5.');
  const answered = reduce(state, { type: 'answered', key: keyOf(['f5']), answer: lineAnswer(['f5']) });
  assert.equal(plyAnnouncement(answered), 'After move 1, Black f5. White to move.');
  assert.equal(plyAnnouncement(loaded(['f5'], 0)), 'The start position.');
});

/** A line of one ply shown at its end, its values in, and the best line from there opened. */
function withBestLine() {
  const state = reduce(loaded(['f5']), { type: 'valued', key: keyOf(['f5']), answer: { ...lineAnswer(['f5']), values } });
  return reduce(state, { type: 'best_line_opened', key: shownKey(state), ply: 1, answer: lineAnswer(['f5', 'f6', 'e6']) });
}

test('the best line is opened for the position shown, at its first move', () => {
  const state = withBestLine();
  assert.deepEqual(state.bestLine.moves, ['f6', 'e6']);
  assert.deepEqual(state.bestLine.positions.map((position) => position.board), ['board after 2', 'board after 3']);
  assert.equal(state.bestLine.step, 0);
  // The line itself is unchanged.
  assert.deepEqual(state.line.moves, ['f5']);
  const moved = reduce(loaded(['f5', 'd6'], 1), { type: 'best_line_opened', key: keyOf(['f5', 'd6']), ply: 2, answer: lineAnswer(['f5', 'd6', 'c3']) });
  assert.equal(moved.bestLine, null);
});

test('the best line steps within its moves, and closes', () => {
  const state = withBestLine();
  const next = reduce(state, { type: 'best_line_stepped', delta: 1 });
  assert.equal(next.bestLine.step, 1);
  assert.equal(reduce(next, { type: 'best_line_stepped', delta: 1 }), next);
  assert.equal(reduce(state, { type: 'best_line_stepped', delta: -1 }), state);
  assert.equal(reduce(state, { type: 'best_line_closed' }).bestLine, null);
  const without = loaded(['f5']);
  assert.equal(reduce(without, { type: 'best_line_closed' }), without);
});

test('the best line stays while its position is shown, and goes with any other', () => {
  const state = withBestLine();
  assert.equal(reduce(state, { type: 'selected', ply: 1 }).bestLine, state.bestLine);
  assert.equal(reduce(state, { type: 'selected', ply: 0 }).bestLine, null);
  assert.equal(reduce(state, { type: 'played', answer: lineAnswer(['f5', 'f4']) }).bestLine, null);
});

test('playing the best line makes it the line, shown at the step it was on', () => {
  const state = reduce(withBestLine(), { type: 'best_line_stepped', delta: 1 });
  const played = reduce(state, { type: 'best_line_played' });
  assert.equal(played.bestLine, null);
  assert.deepEqual(played.line.moves, ['f5', 'f6', 'e6']);
  assert.equal(played.line.ply, 3);
  const without = loaded(['f5']);
  assert.equal(reduce(without, { type: 'best_line_played' }), without);
});

test('an action the state does not know changes nothing', () => {
  const state = loaded(['f5']);
  assert.equal(reduce(state, { type: 'unknown' }), state);
});
