// The lobby on the home page, pushed as it changes: counts that agree with each other, the open
// seeks (a click meets one), the live games to watch with their boards (a spectator opens one
// from there) and the latest results.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoConsoleErrors, newPage, screenshot, serverAndBrowser, setNickname, startComputerGame } from './helpers.mjs';

// Nobody gets the computer within a test: two seekers pair with each other.
const setup = serverAndBrowser({ env: { OUTFLANK_COMPUTER_AFTER_MS: '600000' } });

const GAME_URL = /\/game\/[A-Za-z0-9]+$/;

/** The home page's stats line once it reads `expected` (the lobby refreshes every 10 s). */
async function statsRead(page, expected) {
  await page.waitForFunction((text) => document.querySelector('#stats').textContent === text, expected, { timeout: 15000 })
    .catch(() => {});
  return page.textContent('#stats');
}

test('a player whose game is in progress counts as online after leaving its page', async () => {
  const page = await newPage(setup.browser);
  await startComputerGame(page, setup.server.base, { name: 'Ivy' });
  // Back home: the game's socket is closed, the game is still being played.
  await page.goto(`${setup.server.base}/`);
  await page.waitForSelector('#stats:not([hidden])');
  assert.equal(await statsRead(page, '1 player online · 0 waiting · 1 game in progress'),
    '1 player online · 0 waiting · 1 game in progress');
  // A computer game is watched through its link alone: not listed.
  assert.equal(await page.locator('#live-games li').count(), 0);
  assert.equal(await page.isVisible('#live-empty'), true);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a seek is pushed to the lobby and a click meets it; the game is listed with its board, which follows the moves', async () => {
  // Ivy's computer game from the test before is still in progress (a game without a clock
  // counts until it has been left for 10 minutes): it is in every count below.
  const ann = await newPage(setup.browser);
  const ben = await newPage(setup.browser);
  for (const [page, name] of [[ann, 'Ann'], [ben, 'Ben']]) {
    await page.goto(`${setup.server.base}/`);
    await setNickname(page, name);
  }
  await ann.click('#quick-game');
  await ann.waitForFunction(() => /Searching/.test(document.querySelector('#quick-status').textContent));
  // While Ann waits, the lobby says so.
  const visitor = await newPage(setup.browser, { viewport: { width: 1280, height: 800 } });
  await visitor.goto(`${setup.server.base}/`);
  await visitor.waitForSelector('#stats:not([hidden])');
  assert.equal(await statsRead(visitor, '2 players online · 1 waiting · 1 game in progress'),
    '2 players online · 1 waiting · 1 game in progress');

  // Ann's seek reaches the lobby without a reload, and Ben meets it with one click.
  await visitor.waitForSelector('#open-seeks li.seek');
  assert.equal(await visitor.textContent('#open-seeks li .lobby-players'), 'Ann');
  assert.match(await visitor.textContent('#open-seeks li .lobby-meta'), /^Quick · 30 s a move · waiting \d+ s$/);
  await ben.waitForSelector('#open-seeks li.seek .seek-play');
  await ben.click('#open-seeks li.seek .seek-play');
  await Promise.all([ann.waitForURL(GAME_URL), ben.waitForURL(GAME_URL)]);
  for (const page of [ann, ben]) await page.waitForSelector('body[data-you]');
  const gamePath = new URL(ann.url()).pathname;
  const black = (await ann.evaluate(() => document.body.dataset.you)) === 'black' ? ann : ben;
  const [blackName, whiteName] = black === ann ? ['Ann', 'Ben'] : ['Ben', 'Ann'];

  // The game comes to the visitor's lobby by itself, with its board, best rated first (the TV).
  await visitor.waitForSelector('#live-games li.tv .mini-board');
  assert.equal(await visitor.locator('#open-seeks li.seek').count(), 0);
  assert.equal(await visitor.locator('#live-games li.tv .mini-board span.black').count(), 2);
  assert.equal(await statsRead(visitor, '3 players online · 0 waiting · 2 games in progress'),
    '3 players online · 0 waiting · 2 games in progress');
  // Who they are: the two playing the listed game; Ivy's game against the computer is watched
  // through its link alone, so she is counted, not named.
  assert.deepEqual(await visitor.$$eval('#online-players li', (items) => items.map((item) => item.textContent)),
    ['Ann playing', 'Ben playing']);
  const live = visitor.locator('#live-games li a');
  assert.equal(await live.count(), 1);
  assert.equal(await live.getAttribute('href'), gamePath);
  assert.equal(await live.locator('.lobby-players').textContent(), `${blackName} vs ${whiteName}`);
  assert.equal(await live.locator('.lobby-meta').textContent(), 'Quick · 30 s a move · 0 moves played');
  assert.equal(await live.getAttribute('aria-label'), `Watch ${blackName} vs ${whiteName}, Quick · 30 s a move · 0 moves played`);
  assert.equal(await visitor.isVisible('#live-empty'), false);
  await visitor.locator('#lobby').scrollIntoViewIfNeeded();
  await screenshot(visitor, 'lobby');
  // Black's first move shows on the visitor's small board, pushed.
  await black.locator('#board .square.legal').first().click();
  await visitor.waitForFunction(() => document.querySelectorAll('#live-games li.tv .mini-board span.black').length === 4);
  await visitor.waitForFunction(() => / 1 move played$/.test(document.querySelector('#live-games li .lobby-meta').textContent));

  // The visitor opens it and watches, read-only.
  await live.click();
  await visitor.waitForURL(`${setup.server.base}${gamePath}`);
  await visitor.waitForSelector('body[data-you="spectator"]');

  // Black resigns; the result is listed, opening the replay.
  await black.click('#resign');
  await black.click('#resign-confirm');
  await black.waitForSelector('#result:not([hidden])');
  await visitor.goto(`${setup.server.base}/`);
  await visitor.waitForSelector('#recent-results li');
  const result = visitor.locator('#recent-results li a');
  assert.equal(await result.count(), 1);
  assert.equal(await result.getAttribute('href'), gamePath.replace('/game/', '/replay/'));
  assert.equal(await result.locator('.lobby-players').textContent(), `${whiteName} beat ${blackName}, who resigned`);
  assert.match(await result.locator('.lobby-meta').textContent(), /^Quick · 30 s a move · Black 4 · White 1 · just now$/);
  assert.equal(await visitor.locator('#live-games li').count(), 0);
  for (const page of [ann, ben, visitor]) {
    assertNoConsoleErrors(page);
    await page.context().close();
  }
});
