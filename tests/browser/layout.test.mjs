// Phones and the other pages: square size and control height at 390×844, no horizontal
// overflow from 320 px, the rules page's example boards, the error page, no console errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoConsoleErrors, newPage, screenshot, serverAndBrowser, startComputerGame, waitForTurnOrEnd } from './helpers.mjs';

const setup = serverAndBrowser();

/** Every visible control narrower in height than 44 px (board squares aside). */
const smallControls = (page) => page.evaluate(() => {
  const small = [];
  for (const el of document.querySelectorAll('button, a.button, input[type="text"], select, summary, label')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || el.classList.contains('square') || el.closest('.visually-hidden')) continue;
    if (box.height < 44) small.push(`${el.tagName} ${el.id || el.textContent.trim().slice(0, 20)} ${box.height}`);
  }
  return small;
});

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

test('on a 390×844 phone the board fills the width with squares of at least 44 px', async () => {
  const page = await newPage(setup.browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
  await startComputerGame(page, setup.server.base, { name: 'Pia' });
  await waitForTurnOrEnd(page);
  const { board, square } = await page.evaluate(() => ({
    board: document.querySelector('#board > .board').getBoundingClientRect().width,
    square: document.querySelector('#board [data-square="a1"]').getBoundingClientRect().width,
  }));
  assert.ok(square >= 44, `square ${square}px`);
  assert.ok(board >= 390 - 24, `board ${board}px`);
  assert.deepEqual(await smallControls(page), []);
  assert.equal(await overflow(page), 0);

  // Touch: the first tap previews, the second tap on the same square plays.
  await page.tap('#board [data-square="d3"]');
  await page.waitForSelector('#board [data-square="d3"].preview');
  assert.equal(await page.locator('#moves li').count(), 0);
  // The page says that a second tap plays.
  assert.equal(await page.textContent('#tap-hint'), 'Tap d3 again to play it (flips 1 disc).');
  assert.equal(await page.isVisible('#tap-hint'), true);
  // Under the board, never over a square.
  const [boardBox, hintBox] = await Promise.all([page.locator('#board').boundingBox(), page.locator('#tap-hint').boundingBox()]);
  assert.ok(hintBox.y >= boardBox.y + boardBox.height, JSON.stringify({ boardBox, hintBox }));
  await page.tap('#board [data-square="d3"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 1);
  assert.equal(await page.isVisible('#tap-hint'), false);
  await screenshot(page, 'game-phone');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('no page overflows horizontally at 320 px, and controls stay at least 44 px tall', async () => {
  const page = await newPage(setup.browser, { viewport: { width: 320, height: 640 } });
  page.allowedErrors.push(/status of 404/);
  await startComputerGame(page, setup.server.base, { name: 'Tim' });
  await waitForTurnOrEnd(page);
  const game = page.url();
  const pages = [
    `${setup.server.base}/`, `${setup.server.base}/rules`, game, `${setup.server.base}/join/abcdefgh`, `${setup.server.base}/no/such/page`,
    `${setup.server.base}/leaderboard`, `${setup.server.base}/welcome`, `${setup.server.base}/players/Nobody`,
    `${setup.server.base}/analysis`, `${setup.server.base}/puzzles`, `${setup.server.base}/mod`,
  ];
  for (const url of pages) {
    await page.goto(url);
    await page.waitForLoadState('networkidle');
    assert.equal(await overflow(page), 0, url);
    assert.deepEqual(await smallControls(page), [], url);
  }
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('the rules page shows live example boards of a move and its flips', async () => {
  const page = await newPage(setup.browser);
  await page.goto(`${setup.server.base}/rules`);
  await page.waitForSelector('#example-d3 .square');
  assert.equal(await page.locator('.examples .board').count(), 4);
  assert.equal(await page.getAttribute('#example-start [data-square="d3"]', 'aria-label'), 'd3, empty, legal move');
  assert.equal(await page.getAttribute('#example-d3 [data-square="d4"]', 'aria-label'), 'd4, black');
  assert.equal(await page.getAttribute('#example-d3 [data-square="d3"]', 'aria-label'), 'd3, black, last move');
  for (const square of ['c3', 'd4', 'e5', 'f6']) {
    assert.match(await page.getAttribute(`#example-f6 [data-square="${square}"]`, 'aria-label'), /white/);
  }
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('an unknown address shows the error page with a way home', async () => {
  const page = await newPage(setup.browser);
  page.allowedErrors.push(/status of 404/);
  const response = await page.goto(`${setup.server.base}/no/such/page`);
  assert.equal(response.status(), 404);
  assert.equal(await page.textContent('h1'), 'Page not found');
  await page.click('text=Back to Outflank');
  await page.waitForURL(`${setup.server.base}/`);
  const missing = await page.goto(`${setup.server.base}/game/abcdefghij`);
  assert.equal(missing.status(), 404);
  await page.waitForSelector('#missing:not([hidden])');
  assert.equal(await page.textContent('#missing h1'), 'Game not found');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('colours chosen by hand in the footer apply to every page and are remembered', async () => {
  const page = await newPage(setup.browser, { viewport: { width: 1280, height: 800 }, colorScheme: 'light' });
  const background = () => page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.goto(`${setup.server.base}/rules`);
  assert.equal(await page.inputValue('#theme-choice'), 'system');
  assert.equal(await background(), 'rgb(244, 242, 236)');
  await page.selectOption('#theme-choice', 'dark');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.equal(await background(), 'rgb(18, 21, 19)');
  // Another page, later: still dark, and the chooser says so.
  await page.goto(`${setup.server.base}/leaderboard`);
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  assert.equal(await page.inputValue('#theme-choice'), 'dark');
  assert.equal(await background(), 'rgb(18, 21, 19)');
  // Light by hand wins over a dark system; "as the system's" follows it again.
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.selectOption('#theme-choice', 'light');
  assert.equal(await background(), 'rgb(244, 242, 236)');
  await page.selectOption('#theme-choice', 'system');
  assert.equal(await background(), 'rgb(18, 21, 19)');
  assertNoConsoleErrors(page);
  await page.context().close();
});
