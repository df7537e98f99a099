// The game review's model (web/js/game/review-model.js) as a specification: the body of
// GET /api/games/{id}/analysis in, the words, marks and graph points the page shows out.
// Plain Node, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  errorStatus, exactFrom, graphLimit, graphPoints, graphRows, lineStep, lossWords, moveMarks, nearestPly, plyMark,
  plyWords, pointWords, reviewStatus, selectedPly, shouldPoll, summaryLines, valueWords,
} from '../../web/js/game/review-model.js';
import { orList, signed } from '../../web/js/notation/words.js';

const M = '\u2212';
const B1 = 'B'.repeat(64); // stand-ins for board strings: the model passes them through
const B2 = 'C'.repeat(64);

const ply = (fields) => ({
  best: [], best_value: 0, played_value: 0, loss: 0, exact: false, class: 'best', best_line: [], ...fields,
});

const done = {
  game_id: 'g1', status: 'done', engine: 'outflank-engine 0.4.0', exact_from_empties: 20, search: 'depth 10',
  progress: { done: 4, total: 4 },
  thresholds: { inaccuracy: 3, mistake: 6, blunder: 10 },
  plies: [
    ply({ ply: 1, color: 'black', move: 'f5', value_before: 0, value_after: 0, best: ['f5', 'd3', 'c4', 'e6'], class: 'best', best_line: [{ move: 'f5', board: B1 }] }),
    ply({ ply: 2, color: 'white', move: 'd6', value_before: 0, value_after: 7, best: ['f6', 'd6'], best_value: 0, played_value: -7, loss: 7, class: 'mistake', best_line: [{ move: 'f6', board: B1 }, { move: 'e6', board: B2 }] }),
    ply({ ply: 3, color: 'black', move: 'c3', value_before: 7, value_after: -5, best: ['d3'], best_value: 9, played_value: -5, loss: 14, class: 'blunder', exact: true, best_line: [{ move: 'd3', board: B2 }] }),
    ply({ ply: 4, color: 'white', move: 'pass', value_before: -5, value_after: -5, best: ['pass'], class: 'forced' }),
  ],
  summary: {
    black: { moves: 2, mean_loss: 7, inaccuracies: 0, mistakes: 0, blunders: 1 },
    white: { moves: 1, mean_loss: 3.5, inaccuracies: 1, mistakes: 1, blunders: 0 },
  },
};

test('values are written with their sign and a true minus', () => {
  assert.equal(signed(2), '+2');
  assert.equal(signed(-7), `${M}7`);
  assert.equal(signed(0), '0');
  assert.equal(signed(1.25), '+1.3');
  assert.equal(lossWords(7), `${M}7 discs`);
  assert.equal(lossWords(1), `${M}1 disc`);
  assert.equal(valueWords(4), 'Black +4');
  assert.equal(valueWords(-3), 'White +3');
  assert.equal(valueWords(0), 'even');
  assert.deepEqual([orList([]), orList(['d3']), orList(['d3', 'c4']), orList(['d3', 'c4', 'e6'])], ['', 'd3', 'd3 or c4', 'd3, c4 or e6']);
});

test('the status line says what the engine is doing, and when to ask again', () => {
  assert.deepEqual(reviewStatus({ status: 'none' }), {
    kind: 'none', text: 'This game has not been reviewed yet.', action: 'Review this game', poll: false, progress: null,
  });
  assert.deepEqual(reviewStatus({ status: 'running', progress: { done: 12, total: 60 } }), {
    kind: 'waiting', text: 'Reviewing… 12 of 60 moves', action: null, poll: true, progress: { done: 12, total: 60 },
  });
  assert.equal(reviewStatus({ status: 'running' }).text, 'Reviewing…');
  assert.equal(reviewStatus({ status: 'queued', progress: { done: 0, total: 60 } }).text, 'Waiting for the engine: the review starts soon…');
  assert.equal(reviewStatus({ status: 'queued' }).poll, true);
  assert.deepEqual(reviewStatus({ status: 'failed' }), { kind: 'failed', text: 'Review failed', action: 'Try again', poll: false, progress: null });
  assert.equal(reviewStatus(done).text, 'Reviewed by outflank-engine 0.4.0 (depth 10; perfect play in the last 20 empty squares).');
  assert.equal(reviewStatus(done).poll, false);
  assert.equal(shouldPoll({ status: 'queued' }), true);
  assert.equal(shouldPoll({ status: 'running' }), true);
  assert.equal(shouldPoll(done), false);
  assert.equal(shouldPoll({ status: 'failed' }), false);
});

test('a refused request gets a sentence, and a button only when trying again can help', () => {
  assert.deepEqual(errorStatus({ status: 429, code: 'too_many_analyses' }), {
    kind: 'failed', text: 'Too many reviews were asked for just now. Try again in a minute.', action: 'Try again', poll: false, progress: null,
  });
  assert.equal(errorStatus({ status: 503, code: 'analysis_queue_full' }).text, 'The engine is busy with other reviews. Try again in a minute.');
  assert.deepEqual([errorStatus({ status: 409, code: 'game_live' }).text, errorStatus({ status: 409, code: 'game_live' }).action],
    ['The review comes once the game is over.', null]);
  assert.equal(errorStatus({ status: 404, code: 'not_found' }).action, null);
  assert.equal(errorStatus({ status: 0, code: 'network' }).action, 'Try again');
  assert.deepEqual([errorStatus({ status: 401, code: 'no_session' }).text, errorStatus({ status: 401, code: 'no_session' }).action],
    ['Choose a nickname on the home page first, then ask for the review here.', null]);
});

test('the move list marks inaccuracies ?!, mistakes ? and blunders ??, and names every class', () => {
  assert.deepEqual(plyMark({ class: 'inaccuracy' }), { cls: 'inaccuracy', mark: '?!', label: 'inaccuracy' });
  assert.deepEqual([...moveMarks(done)], [
    [1, { cls: 'best', mark: '', label: 'best move' }],
    [2, { cls: 'mistake', mark: '?', label: 'mistake' }],
    [3, { cls: 'blunder', mark: '??', label: 'blunder' }],
    [4, { cls: 'forced', mark: '', label: 'forced' }],
  ]);
  assert.equal(moveMarks({ status: 'running' }).size, 0);
});

test('each ply is told in a sentence with what it cost and what was best', () => {
  assert.deepEqual(done.plies.map(plyWords), [
    'f5 was the best move (0).',
    `d6 was a mistake: ${M}7 discs; best was f6 (0).`,
    `c3 was a blunder: ${M}14 discs; best was d3 (+9).`,
    'White had no legal move and passed.',
  ]);
  assert.equal(plyWords(ply({ move: 'f5', color: 'black', class: 'mistake', loss: 7, best: ['d3'], best_value: 2 })),
    `f5 was a mistake: ${M}7 discs; best was d3 (+2).`);
  assert.equal(plyWords(ply({ move: 'e6', color: 'black', class: 'good', loss: 1, best: ['d3', 'c4'], best_value: 3 })),
    `e6 was a good move: ${M}1 disc; best was d3 or c4 (+3).`);
  assert.equal(plyWords(ply({ move: 'e6', color: 'black', class: 'inaccuracy', loss: 4, best: ['d3'], best_value: -2 })),
    `e6 was an inaccuracy: ${M}4 discs; best was d3 (${M}2).`);
  assert.equal(plyWords(ply({ move: 'a1', color: 'white', class: 'forced' })), 'a1 was forced: the only legal move.');
});

test('the selected ply: its sentence, the best move in the position shown, and its best line', () => {
  assert.deepEqual(selectedPly(done, 0), {
    title: 'The start', words: 'The starting position, before Black\'s first move.',
    next: 'Best here for Black: f5, d3, c4 or e6 (0).',
    marks: ['f5', 'd3', 'c4', 'e6'].map((square) => ({ square, text: '0' })),
    line: false,
  });
  assert.deepEqual(selectedPly(done, 2), {
    title: 'Move 2 · White d6', words: `d6 was a mistake: ${M}7 discs; best was f6 (0).`,
    next: 'Best here for Black: d3 (+9, exact).', marks: [{ square: 'd3', text: '+9' }], line: true,
  });
  assert.equal(selectedPly(done, 3).next, 'White has no legal move here and passes.');
  assert.deepEqual(selectedPly(done, 3).marks, []);
  assert.equal(selectedPly(done, 4).next, 'The game is over here.');
  assert.equal(selectedPly(done, 4).line, false);
  assert.deepEqual(selectedPly({ status: 'running' }, 2), { title: 'The start', words: '', next: '', marks: [], line: false });
});

test('the best line steps through the boards the server sent', () => {
  assert.deepEqual(lineStep(done, 2, 0), {
    board: B1, move: 'f6', step: 0, length: 2,
    text: 'The best line instead of d6: f6 e6. Showing White f6, step 1 of 2.',
  });
  assert.equal(lineStep(done, 2, 1).text, 'The best line instead of d6: f6 e6. Showing Black e6, step 2 of 2.');
  assert.equal(lineStep(done, 2, 1).board, B2);
  assert.equal(lineStep(done, 2, 2), null);
  assert.equal(lineStep(done, 4, 0), null);
});

test('the summary is a sentence per player', () => {
  assert.deepEqual(summaryLines(done, { black: 'Ann', white: 'White' }), [
    { side: 'black', text: 'Ann (Black) lost 7.0 discs a move on average, with no inaccuracies, no mistakes and 1 blunder.' },
    { side: 'white', text: 'White lost 3.5 discs a move on average, with 1 inaccuracy, 1 mistake and no blunders.' },
  ]);
  const clean = { ...done, summary: { black: { moves: 30, mean_loss: 0.4, inaccuracies: 0, mistakes: 0, blunders: 0 } } };
  assert.deepEqual(summaryLines(clean), [
    { side: 'black', text: 'Black lost 0.4 discs a move on average, with no inaccuracies, mistakes or blunders.' },
  ]);
  // With the accuracy the server computes (100 × 2^(−loss/6) over the moves with a choice).
  const accurate = { ...done, summary: { black: { ...clean.summary.black, accuracy: 96.4 } } };
  assert.deepEqual(summaryLines(accurate), [
    { side: 'black', text: 'Black lost 0.4 discs a move on average (accuracy 96%), with no inaccuracies, mistakes or blunders.' },
  ]);
  assert.deepEqual(summaryLines({ status: 'running' }), []);
});

test('the graph has Black\'s value after every ply from the start, and a table of them', () => {
  const points = graphPoints(done);
  assert.deepEqual(points, [
    { ply: 0, number: 0, value: 0, cls: null, label: 'Start' },
    { ply: 1, number: 1, value: 0, cls: 'best', label: 'Black f5' },
    { ply: 2, number: 2, value: 7, cls: 'mistake', label: 'White d6' },
    { ply: 3, number: 3, value: -5, cls: 'blunder', label: 'Black c3' },
    // A pass places no disc: no number of its own.
    { ply: 4, number: null, value: -5, cls: 'forced', label: 'White pass' },
  ]);
  assert.equal(graphLimit(points), 8);
  assert.equal(graphLimit([{ value: 0 }]), 4);
  assert.equal(graphLimit([{ value: -40 }]), 48);
  assert.equal(graphLimit([{ value: 64 }]), 64);
  assert.deepEqual(graphRows(done)[2], { ply: 2, number: '2', move: 'White d6', value: 'Black +7', judgement: 'mistake' });
  assert.deepEqual(graphRows(done)[0], { ply: 0, number: '0', move: 'Start', value: 'even', judgement: '' });
  assert.deepEqual(graphRows(done)[4], { ply: 4, number: '', move: 'White pass', value: 'White +5', judgement: 'forced' });
  assert.equal(pointWords(points, 4), 'After move 3, White pass: White +5');
  assert.equal(pointWords(points, 3), 'Move 3, Black c3, blunder: White +5');
  assert.equal(pointWords(points, 1), 'Move 1, Black f5: even');
  assert.equal(pointWords(points, 0), 'Start: even');
  assert.deepEqual(graphPoints({ status: 'queued' }), []);
});

test('the values are exact from the first ply the engine solved', () => {
  assert.equal(exactFrom(done), 2);
  assert.equal(exactFrom({ ...done, plies: done.plies.map((item) => ({ ...item, exact: false })) }), null);
  assert.equal(exactFrom({ status: 'running' }), null);
});

test('a click on the graph picks the nearest ply', () => {
  const points = graphPoints(done);
  assert.deepEqual([0, 0.12, 0.13, 0.5, 0.99, 1, 1.5, -1].map((fraction) => nearestPly(points, fraction)), [0, 0, 1, 2, 4, 4, 4, 0]);
  assert.equal(nearestPly([], 0.5), null);
});
