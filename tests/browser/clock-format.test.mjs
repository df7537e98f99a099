// How the game page writes a clock (web/js/game/players.js): plain Node, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { formatMs } from '../../web/js/game/players.js';

test('under ten seconds a clock shows tenths, rounded up', () => {
  assert.equal(formatMs(9_999), '0:10.0');
  assert.equal(formatMs(7_250), '0:07.3');
  assert.equal(formatMs(100), '0:00.1');
  assert.equal(formatMs(0), '0:00.0');
  assert.equal(formatMs(-40), '0:00.0');
});

test('from ten seconds a clock shows minutes and seconds, rounded up', () => {
  assert.equal(formatMs(10_000), '0:10');
  assert.equal(formatMs(29_001), '0:30');
  assert.equal(formatMs(180_000), '3:00');
  assert.equal(formatMs(3_599_000), '59:59');
});

test('past an hour it shows hours, and past a day days and hours', () => {
  assert.equal(formatMs(3_600_000), '1:00:00');
  assert.equal(formatMs(3_723_000), '1:02:03');
  assert.equal(formatMs(2 * 86_400_000), '2 d 0 h');
  assert.equal(formatMs(86_400_000 + 5 * 3_600_000 + 1), '1 d 5 h');
});
