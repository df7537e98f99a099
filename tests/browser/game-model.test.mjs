// The game page's reducer (web/js/game/model.js) as a specification: server messages in, the
// page's model out. Plain Node, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  canPlay, clockLeft, dailyDeadline, initialModel, ratingText, reasonText, reduce, resultTitle, shownPosition, stakesLine, view,
} from '../../web/js/game/model.js';

const START = `${'-'.repeat(27)}OX------XO${'-'.repeat(27)}`;
const AFTER_D3 = `${'-'.repeat(19)}X-------XX------XO${'-'.repeat(27)}`;

const snapshot = (extra = {}) => ({
  type: 'snapshot', version: 1, game_id: 'g', mode: 'friend', you: 'black', status: 'live',
  board: START, to_move: 'black', legal: [{ square: 'd3', flips: ['d4'] }], counts: { black: 2, white: 2, empty: 60 },
  clocks: { black_ms: 30000, white_ms: 30000, running: 'black' }, last_move: null, moves: [], draw_offer: null,
  presence: { black: true, white: false }, rematch: { asked: [], left: [] },
  players: { black: { name: 'Ann', computer: false, level: null }, white: { name: 'Ben', computer: false, level: null } },
  ...extra,
});

const moved = {
  type: 'moved', version: 2, plies: [{ number: 1, color: 'black', move: 'd3' }], board: AFTER_D3, to_move: 'white',
  legal: [], counts: { black: 4, white: 1, empty: 59 }, clocks: { black_ms: 29000, white_ms: 30000, running: 'white' },
  last_move: { square: 'd3', flips: ['d4'] },
};

test('a move adds its ply and position, says who played what, and asks for the flip animation', () => {
  const model = reduce(reduce(initialModel(), snapshot(), 0), moved, 1000);
  assert.deepEqual(model.game.moves, moved.plies);
  assert.equal(model.positions.get(1).board, AFTER_D3);
  assert.equal(model.announcement, 'Black played d3, flipping 1 disc. White to move.');
  assert.equal(model.animate, true);
  assert.equal(canPlay(model.game), false);
});

test('a pass is said with the side that passed', () => {
  const pass = { ...moved, plies: [{ number: 1, color: 'black', move: 'pass' }], last_move: null };
  const model = reduce(reduce(initialModel(), snapshot(), 0), pass, 0);
  assert.equal(model.pass, 'Black has no legal move and passes.');
});

test('the opponent joining at the start is not announced as coming back', () => {
  const model = reduce(reduce(initialModel(), snapshot(), 0), { type: 'presence', black: true, white: true }, 0);
  assert.equal(model.announcement, '');
});

test('an opponent who drops and returns is announced both times', () => {
  let model = reduce(initialModel(), snapshot({ presence: { black: true, white: true } }), 0);
  model = reduce(model, { type: 'presence', black: true, white: false }, 0);
  assert.equal(model.announcement, 'Ben has disconnected; their clock keeps running.');
  model = reduce(model, { type: 'presence', black: true, white: true }, 0);
  assert.equal(model.announcement, 'Ben is back.');
});

test('the running clock counts down from when it was set; the other stands still', () => {
  const model = reduce(initialModel(), snapshot(), 5000);
  assert.equal(clockLeft(model, 'black', 12000), 23000);
  assert.equal(clockLeft(model, 'white', 12000), 30000);
  assert.equal(clockLeft(model, 'black', 99000), 0);
});

test('at the end the clocks stop where they were and the result is told to the viewer', () => {
  let model = reduce(initialModel(), snapshot(), 0);
  model = reduce(model, {
    type: 'ended', version: 2, status: 'finished', result: { winner: 'white', reason: 'resignation' },
    counts: { black: 2, white: 2, empty: 60 },
  }, 4000);
  assert.deepEqual(model.game.clocks, { black_ms: 26000, white_ms: 30000, running: null });
  assert.equal(resultTitle(model), 'You lost');
  assert.equal(model.announcement, 'Game over. You lost: Black 2 · White 2 · 60 empty. You resigned.');
});

test('a refusal from the server becomes a sentence, and the next move clears it', () => {
  let model = reduce(initialModel(), snapshot(), 0);
  model = reduce(model, { type: 'error', code: 'draw_offer_too_soon', message: 'you offered a draw too recently' }, 0);
  assert.equal(model.error, 'You offered a draw too recently.');
  model = reduce(model, moved, 0);
  assert.equal(model.error, '');
});

test('looking back shows that position and its disc counts', () => {
  let model = reduce(reduce(initialModel(), snapshot(), 0), moved, 0);
  model = view(model, 0);
  assert.deepEqual(shownPosition(model), {
    board: START, lastMove: null, counts: { black: 2, white: 2, empty: 60 }, openingName: null, live: false,
  });
  assert.equal(view(model, 1).viewing, null);
});

test('a finished game whose rematch started keeps the rematch game through later messages', () => {
  const finished = snapshot({
    status: 'finished', to_move: null, legal: [], clocks: { black_ms: 30000, white_ms: 30000, running: null },
    result: { reason: 'resignation', winner: 'white' }, rematch: { asked: [], left: [], game_id: 'next' },
  });
  const model = reduce(reduce(initialModel(), finished, 0), { type: 'left', version: 2, by: 'white' }, 0);
  assert.deepEqual(model.game.rematch, { asked: [], left: ['white'], game_id: 'next' });
});

test('the stakes line names the kind of game and its clock as players write it', () => {
  assert.equal(stakesLine({ mode: 'ranked', control: '3+2' }), 'Ranked · 3+2');
  assert.equal(stakesLine({ mode: 'quick', control: '30s' }), 'Quick game · 30 s a move');
  assert.equal(stakesLine({ mode: 'friend', control: '1d' }), 'With a friend · 1 day a move');
  assert.equal(stakesLine({ mode: 'friend', control: '7d' }), 'With a friend · 7 days a move');
  assert.equal(stakesLine({ mode: 'computer', control: null }), 'Against the computer · no clock');
  assert.equal(stakesLine({ mode: 'same_device' }), 'On this device · no clock');
  assert.equal(stakesLine({ mode: 'computer', control: null, opening: 'd3 c5 f6 f5 g6 g7 h8 g5' }),
    'Against the computer · no clock · XOT opening');
});

test('a live daily game has a deadline for the side to move: its time left from now', () => {
  const daily = reduce(initialModel(), snapshot({
    control: '2d', clocks: { black_ms: 172800000, white_ms: 172800000, running: 'black' },
  }), 1000);
  assert.equal(dailyDeadline(daily, 61000), 61000 + 172800000 - 60000);
  const perMove = reduce(initialModel(), snapshot(), 1000);
  assert.equal(dailyDeadline(perMove, 2000), null);
});

test('a game that ends on the board says whether the board is full or nobody could move', () => {
  const ended = (empty) => ({
    game: { you: 'black', counts: { black: 40, white: 64 - 40 - empty, empty }, result: { winner: 'black', reason: 'normal' } },
  });
  assert.equal(reasonText(ended(0)), 'The board is full.');
  assert.equal(reasonText(ended(3)), 'No legal moves were left for either side.');
});

test('a name has the rating the game is played at beside it, and once rated its change', () => {
  const ratings = { pool: 'blitz', black: { rating: 1512, provisional: false }, white: { rating: 1214, provisional: true } };
  const model = { ...initialModel(), ratings };
  assert.equal(ratingText(model, 'black'), '1,512');
  assert.equal(ratingText(model, 'white'), '1,214?');
  const rated = { ...model, ratingChanges: { black: { before: 1512, after: 1500, change: -12, provisional: false }, white: { before: 1214, after: 1238, change: 24, provisional: true } } };
  assert.equal(ratingText(rated, 'black'), '1,512 \u221212');
  assert.equal(ratingText(rated, 'white'), '1,214? +24');
  // The computer and guests have none.
  assert.equal(ratingText({ ...initialModel(), ratings: { pool: '30s', black: null, white: null } }, 'black'), '');
  assert.equal(ratingText(initialModel(), 'white'), '');
});

test('the opening named is the position shown\'s: the game\'s as it goes, an earlier one\'s when looking back', () => {
  let model = reduce(initialModel(), snapshot(), 0);
  model = reduce(model, { ...moved, opening_name: 'Perpendicular' }, 0);
  assert.equal(shownPosition(model).openingName, 'Perpendicular');
  assert.equal(shownPosition(view(model, 0)).openingName ?? null, null);
});
