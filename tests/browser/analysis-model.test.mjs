// The analysis board's words (web/js/analysis/model.js) and its address
// (web/js/notation/address.js) as a specification: the page's address in and out, the set-up
// box, the move list's plies, and the server's answers turned into the marks, rows and
// sentences the page shows. Plain Node, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  STANDARD_START, addressOf, compactStart, isStandardStart, readAddress, splitMoves,
} from '../../web/js/notation/address.js';
import {
  bestLineWords, bestWords, countWords, engineStatus, legalSquares, linePlies, methodWords, placedBefore, playedWords, plyWords,
  positionKey, readSetup, resultWords, retryDelay, startSide, turnWords, valueMarks, valueRows,
} from '../../web/js/analysis/model.js';

const M = '\u2212';
// A position with White to move (any 64 squares will do: the model passes them through).
const OTHER = `${'-'.repeat(27)}OOX${'-'.repeat(34)}O`;

const answer = (fields = {}) => ({
  start: STANDARD_START, moves: ['f5'], positions: [], side_to_move: 'white', legal_moves: ['d6', 'f4', 'f6'],
  must_pass: false, counts: { black: 4, white: 1 }, empties: 59, over: false, result: null, ...fields,
});

const values = {
  moves: [
    { move: 'f6', value: 2, exact: false },
    { move: 'd6', value: 2, exact: false },
    { move: 'f4', value: -3, exact: false },
  ],
  best_line: ['f6', 'e6', 'f4'],
  exact_from_empties: 18,
  search: 'depth 10',
};

test('the address carries the line without passes, the start only when it is not the standard one, and the ply only before the end', () => {
  assert.equal(addressOf({ start: STANDARD_START, line: [], ply: 0 }), '/analysis');
  assert.equal(addressOf({ start: STANDARD_START, line: ['f5', 'd6', 'c3'], ply: 3 }), '/analysis?moves=f5d6c3');
  assert.equal(addressOf({ start: STANDARD_START, line: ['f5', 'd6', 'c3'], ply: 1 }), '/analysis?moves=f5d6c3&ply=1');
  assert.equal(addressOf({ start: STANDARD_START, line: ['f5', 'd6', 'c3'], ply: 0 }), '/analysis?moves=f5d6c3&ply=0');
  assert.equal(addressOf({ start: null, line: ['d3', 'pass', 'c3'], ply: 3 }), '/analysis?moves=d3c3');
  assert.equal(addressOf({ start: `${OTHER.slice(0, 64)} O`, line: ['e3'], ply: 1 }), `/analysis?moves=e3&start=${OTHER}`);
  assert.equal(addressOf({ start: `${OTHER.slice(0, 64)} O`, line: [], ply: 0 }), `/analysis?start=${OTHER}`);
});

test('an address is read back into the body of the first request and the ply', () => {
  assert.deepEqual(readAddress(''), { body: {}, ply: null });
  assert.deepEqual(readAddress('?moves=f5d6c3'), { body: { moves: ['f5', 'd6', 'c3'] }, ply: null });
  assert.deepEqual(readAddress('?moves=F5D6C3&ply=2'), { body: { moves: ['f5', 'd6', 'c3'] }, ply: 2 });
  assert.deepEqual(readAddress(`?start=${OTHER}&moves=e3`), { body: { start: OTHER, moves: ['e3'] }, ply: null });
  assert.deepEqual(readAddress('?moves=f5&ply=x'), { body: { moves: ['f5'] }, ply: null });
  // Bad text goes to the server, which names it.
  assert.deepEqual(splitMoves('f5 pass z9'), ['f5', 'pass', 'z', '9']);
  assert.deepEqual(splitMoves('d3,c3'), ['d3', 'c3']);
  assert.deepEqual(splitMoves(null), []);
  // The round trip.
  const address = addressOf({ start: STANDARD_START, line: ['f5', 'd6', 'c3', 'd3'], ply: 2 });
  assert.deepEqual(readAddress(address.slice('/analysis'.length)), { body: { moves: ['f5', 'd6', 'c3', 'd3'] }, ply: 2 });
});

test('the set-up box: a position string goes as start, an analysis link as its line, anything else as a record', () => {
  assert.deepEqual(readSetup(`${OTHER.slice(0, 64)} O`), { body: { start: OTHER }, ply: null });
  const grid = `${OTHER.slice(0, 64).match(/.{8}/g).join('\n')}\nO\n`;
  assert.deepEqual(readSetup(grid), { body: { start: OTHER }, ply: null });
  assert.deepEqual(readSetup('f5 d6 c3'), { body: { record: 'f5 d6 c3' }, ply: null });
  assert.deepEqual(readSetup('  f5d6c3\n'), { body: { record: 'f5d6c3' }, ply: null });
  assert.deepEqual(readSetup('(;GM[Othello]PC[x];)'), { body: { record: '(;GM[Othello]PC[x];)' }, ply: null });
  assert.deepEqual(readSetup('http://localhost:8080/analysis?moves=f5d6&ply=1'), { body: { moves: ['f5', 'd6'] }, ply: 1 });
  assert.deepEqual(readSetup('   '), { error: 'Paste a move list, a game record or a position first.' });
  // 63 squares is not a position: the server reads it as a record and says what is wrong.
  assert.deepEqual(readSetup(`${'-'.repeat(63)} X`), { body: { record: `${'-'.repeat(63)} X` }, ply: null });
});

test('starts: compact form, standard or not, and who moves first', () => {
  assert.equal(compactStart(STANDARD_START), `${STANDARD_START.slice(0, 64)}X`);
  assert.equal(isStandardStart(STANDARD_START), true);
  assert.equal(isStandardStart(`${STANDARD_START.slice(0, 64)}X`), true);
  assert.equal(isStandardStart(null), true);
  assert.equal(isStandardStart(`${STANDARD_START.slice(0, 64)} O`), false);
  assert.equal(startSide(STANDARD_START), 'black');
  assert.equal(startSide(OTHER), 'white');
  assert.equal(positionKey(STANDARD_START, ['f5', 'd6']), `${STANDARD_START.slice(0, 64)}X|f5 d6`);
});

test('the plies of the line alternate from the side to move first, passes included', () => {
  assert.deepEqual(linePlies(STANDARD_START, ['d3', 'c3', 'pass', 'b3']), [
    { number: 1, color: 'black', move: 'd3' },
    { number: 2, color: 'white', move: 'c3' },
    { number: 3, color: 'black', move: 'pass' },
    { number: 4, color: 'white', move: 'b3' },
  ]);
  assert.deepEqual(linePlies(OTHER, ['e3']), [{ number: 1, color: 'white', move: 'e3' }]);
});

test('legal moves come as bare squares or with their flips', () => {
  assert.deepEqual(legalSquares(answer()), [{ square: 'd6', flips: [] }, { square: 'f4', flips: [] }, { square: 'f6', flips: [] }]);
  assert.deepEqual(legalSquares({ legal_moves: [{ square: 'c4', flips: ['d4'] }] }), [{ square: 'c4', flips: ['d4'] }]);
  assert.deepEqual(legalSquares(null), []);
});

test('every legal move gets its value on its square; the best ones (ties too) are marked best', () => {
  assert.deepEqual(valueMarks(values), [
    { square: 'f6', kind: 'best', text: '+2', exact: false },
    { square: 'd6', kind: 'best', text: '+2', exact: false },
    { square: 'f4', kind: 'value', text: `${M}3`, exact: false },
  ]);
  assert.deepEqual(valueMarks({ moves: [{ move: 'c4', value: 0, exact: true }, { move: 'e6', value: -8, exact: true }] }), [
    { square: 'c4', kind: 'best', text: '0', exact: true },
    { square: 'e6', kind: 'value', text: `${M}8`, exact: true },
  ]);
  // A pass is no square; no values, no marks.
  assert.deepEqual(valueMarks({ moves: [{ move: 'pass', value: 4, exact: true }] }), []);
  assert.deepEqual(valueMarks(null), []);
});

test('the "Moves and values" rows: best first with words for screen readers, or the legal moves while the engine thinks', () => {
  assert.deepEqual(valueRows(answer(), values), [
    { move: 'f6', text: '+2', exact: false, best: true, words: '+2 for White, estimate, best' },
    { move: 'd6', text: '+2', exact: false, best: true, words: '+2 for White, estimate, best' },
    { move: 'f4', text: `${M}3`, exact: false, best: false, words: `${M}3 for White, estimate` },
  ]);
  assert.deepEqual(valueRows(answer(), null).map((row) => [row.move, row.text, row.words]), [
    ['d6', '', 'no value yet'], ['f4', '', 'no value yet'], ['f6', '', 'no value yet'],
  ]);
  assert.deepEqual(valueRows(answer({ legal_moves: [], must_pass: true }), null).map((row) => row.move), ['pass']);
  assert.deepEqual(valueRows(answer({ side_to_move: null, over: true, legal_moves: [] }), { moves: [] }), []);
  assert.deepEqual(valueRows(answer({ side_to_move: 'black' }), { moves: [{ move: 'c3', value: 12, exact: true }] })[0].words,
    '+12 for Black, exact, best');
});

test('the best move, the best line and how the values were found, in words', () => {
  assert.equal(bestWords(answer(), values), 'Best for White: f6 or d6 (+2).');
  assert.equal(bestWords(answer({ side_to_move: 'black' }), { moves: [{ move: 'c3', value: -4, exact: true }] }), `Best for Black: c3 (${M}4, exact).`);
  assert.equal(bestWords(answer(), null), '');
  // Each move has its own number, the discs placed so far: Othello's numbering, 1 to 60.
  assert.equal(bestLineWords(values, STANDARD_START, ['f5']), 'Best line: 2. f6 3. e6 4. f4');
  assert.equal(bestLineWords(values, STANDARD_START, []), 'Best line: 1. f6 2. e6 3. f4');
  // A pass places no disc and has no number.
  assert.equal(bestLineWords({ best_line: ['d3', 'pass', 'c3'] }, STANDARD_START, ['f5', 'd6']), 'Best line: 3. d3 pass 4. c3');
  // From a set-up position the numbers go on from the discs already placed.
  assert.equal(bestLineWords({ best_line: ['e3', 'f3'] }, OTHER, []), `Best line: ${placedBefore(OTHER) + 1}. e3 ${placedBefore(OTHER) + 2}. f3`);
  assert.equal(bestLineWords({ moves: [], best_line: [] }, STANDARD_START, ['f5']), '');
  assert.equal(placedBefore(STANDARD_START), 0);
  assert.equal(placedBefore(`${'X'.repeat(10)}${'O'.repeat(10)}${'-'.repeat(44)} O`), 16);
  assert.equal(methodWords(values), 'Depth 10; exact from 18 empties.');
  assert.equal(methodWords({ exact_from_empties: 20 }), 'Exact from 20 empties.');
  assert.equal(methodWords(null), '');
});

test('the turn, the result, the counts and the ply shown, in words', () => {
  assert.equal(turnWords(answer()), 'White to move');
  assert.equal(turnWords(answer({ must_pass: true, legal_moves: [] })), 'White has no legal move and must pass');
  assert.equal(turnWords(answer({ over: true, side_to_move: null, result: { black: 13, white: 0, winner: 'black' } })), 'Game over: Black wins 13\u20130');
  assert.equal(resultWords({ black: 32, white: 32, winner: 'draw' }), 'Game over: a draw, 32\u201332');
  assert.equal(resultWords(null), 'Game over');
  assert.equal(countWords(answer()), 'Black 4 · White 1 · 59 empty');
  const plies = linePlies(STANDARD_START, ['f5', 'd6']);
  assert.equal(plyWords(plies, 0, null), 'The start position.');
  assert.equal(plyWords(plies, 1, answer()), 'After move 1, Black f5. White to move.');
  assert.equal(plyWords(linePlies(STANDARD_START, ['d3', 'pass']), 2, null), 'White passes after move 1.');
  assert.equal(plyWords(linePlies(STANDARD_START, ['d3', 'c3']), 2, null, 10), 'After move 12, White c3.');
});

test('a move played is said with its flips and the turn after it; a pass without flips', () => {
  const after = (square, flips) => answer({ positions: [{ board: 'B', last_move: null }, { board: 'C', last_move: { square, flips } }] });
  assert.equal(playedWords('black', 'f5', after('f5', ['e5'])), 'Black played f5, flipping 1 disc. White to move.');
  assert.equal(playedWords('black', 'c4', after('c4', ['d4', 'd5'])), 'Black played c4, flipping 2 discs. White to move.');
  assert.equal(playedWords('white', 'pass', answer({ side_to_move: 'black', positions: [] })), 'White passes. Black to move.');
  assert.equal(playedWords('black', 'f5', answer({ positions: undefined })), 'Black played f5, flipping 0 discs. White to move.');
});

test('the engine status: thinking, done, over, busy with its countdown, failed', () => {
  assert.deepEqual(engineStatus({ answer: answer(), values: null, error: null, retryIn: 0 }), { kind: 'thinking', text: 'The engine is thinking…' });
  assert.equal(engineStatus({ answer: answer(), values, error: null, retryIn: 0 }).kind, 'done');
  assert.equal(engineStatus({ answer: answer({ over: true }), values: null, error: null, retryIn: 0 }).kind, 'over');
  const busy = { status: 503, code: 'analysis_busy', message: 'busy' };
  assert.deepEqual(engineStatus({ answer: answer(), values: null, error: busy, retryIn: 4 }),
    { kind: 'busy', text: 'The engine is busy with other positions. Trying again in 4 s…' });
  assert.deepEqual(engineStatus({ answer: answer(), values: null, error: busy, retryIn: 0 }),
    { kind: 'busy', text: 'The engine is busy with other positions.' });
  assert.deepEqual(engineStatus({ answer: answer(), values: null, error: { status: 500, message: 'it broke' }, retryIn: 0 }),
    { kind: 'failed', text: 'No values: it broke' });
  assert.equal(retryDelay('5'), 5);
  assert.equal(retryDelay(null), 3);
  assert.equal(retryDelay(600), 30);
  assert.equal(retryDelay(0), 3);
});
