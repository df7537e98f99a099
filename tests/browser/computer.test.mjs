// A whole game against the computer, played by clicks; undo; reload resumes; hover preview;
// keyboard-only play; an invalid import.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoConsoleErrors, newPage, screenshot, serverAndBrowser, startComputerGame, waitForTurnOrEnd } from './helpers.mjs';
import { movesAsShown, waitForMoves } from './game-helpers.mjs';

const setup = serverAndBrowser();

test('a whole game against the computer (Easy), played by clicks to the end', async () => {
  const page = await newPage(setup.browser, { viewport: { width: 1200, height: 900 } });
  await page.goto(`${setup.server.base}/`);
  await screenshot(page, 'home');
  await startComputerGame(page, setup.server.base, { level: 1, color: 'black' });
  assert.equal(await page.evaluate(() => document.body.dataset.you), 'black');
  let moves = 0;
  for (;;) {
    const status = await waitForTurnOrEnd(page);
    if (status !== 'live') break;
    const before = await page.locator('#moves li').count();
    await page.locator('#board .square.legal').first().click();
    moves += 1;
    if (moves === 6) await screenshot(page, 'game-desktop');
    await page.waitForFunction((n) => document.querySelectorAll('#moves li').length > n, before);
    assert.ok(moves < 64, 'the game ends');
  }
  await page.waitForSelector('#result:not([hidden])');
  const score = await page.textContent('#result-score');
  assert.match(score, /^Black \d+ · White \d+ · \d+ empty$/);
  const [black, white, empty] = score.match(/\d+/g).map(Number);
  assert.equal(black + white + empty, 64);
  assert.equal(await page.textContent('#count-black'), String(black));
  assert.match(await page.textContent('#result-title'), /^(You won|You lost|Draw)$/);
  assert.match(await page.textContent('#status'), /Game over/);
  // The last flips over, so that the picture shows discs, not discs mid-turn.
  await page.waitForFunction(() => !document.querySelector('#board .flipping'));
  await screenshot(page, 'game-finished');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a game against the computer from an XOT opening starts after its eight moves, and says so', async () => {
  const page = await newPage(setup.browser);
  await startComputerGame(page, setup.server.base, { name: 'Xia', xot: true });
  assert.equal(await waitForTurnOrEnd(page), 'live');
  assert.equal(await page.evaluate(() => document.body.dataset.you), 'black');
  assert.equal(await page.textContent('#stakes'), 'Against the computer · no clock · XOT opening');
  assert.equal(await page.locator('#moves li').count(), 8);
  const counts = [await page.textContent('#count-black'), await page.textContent('#count-white')].map(Number);
  assert.equal(counts[0] + counts[1], 12, 'eight discs placed on the four of the start');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a game against the computer chosen with a 3+2 clock shows both clocks and offers no undo', async () => {
  const page = await newPage(setup.browser);
  await startComputerGame(page, setup.server.base, { name: 'Tia', control: '3+2' });
  assert.equal(await waitForTurnOrEnd(page), 'live');
  assert.equal(await page.textContent('#stakes'), 'Against the computer · 3+2');
  assert.equal(await page.isVisible('#clock-black'), true);
  assert.match(await page.textContent('#clock-white'), /^3:00$/);
  assert.equal(await page.isVisible('#undo'), false);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('the level list names each level with its rating and suggests one for the player', async () => {
  const page = await newPage(setup.browser);
  await page.goto(`${setup.server.base}/`);
  await page.waitForFunction(() => /≈/.test(document.querySelector('#level option').textContent));
  const options = await page.$$eval('#level option', (all) => all.map((o) => [o.value, o.textContent]));
  assert.equal(options.length, 10);
  assert.deepEqual(options.map(([value]) => value), ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10']);
  for (const [value, text] of options) assert.match(text, new RegExp(`^Level ${value} \\(≈[\\d,]+\\)$`));
  const levels = await (await fetch(`${setup.server.base}/api/computer/levels`)).json();
  assert.equal(await page.inputValue('#level'), String(levels.suggested));
  assert.match(await page.textContent('#level-hint'), new RegExp(`^Level ${levels.suggested} is rated nearest`));
  await startComputerGame(page, setup.server.base, { level: 4, name: 'Lev' });
  const computer = levels.levels.find((level) => level.level === 4);
  assert.equal(await page.textContent('#name-white'), computer.name);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('undo against the computer takes back my move and its reply; reload resumes', async () => {
  const page = await newPage(setup.browser);
  await startComputerGame(page, setup.server.base, { name: 'Una' });
  await waitForTurnOrEnd(page);
  await page.click('#board [data-square="d3"]');
  // The computer replies: ply 2 appears and it is my turn again.
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2
    && document.querySelector('#board .square.legal'));
  await page.reload();
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
  assert.equal(await page.getAttribute('#board [data-square="d3"]', 'aria-label'), 'd3, black');
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 0);
  assert.equal(await page.getAttribute('#board [data-square="d3"]', 'aria-label'), 'd3, empty, legal move');
  assert.match(await page.textContent('#status'), /taken back/);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('hovering a legal square previews the disc and the discs it would flip', async () => {
  const page = await newPage(setup.browser);
  await startComputerGame(page, setup.server.base, { name: 'Hana' });
  await waitForTurnOrEnd(page);
  await page.hover('#board [data-square="d3"]');
  await page.waitForSelector('#board [data-square="d3"].preview');
  assert.deepEqual(await page.$$eval('#board .would-flip', (els) => els.map((el) => el.dataset.square)), ['d4']);
  assert.equal(await page.$eval('#board > .board', (el) => el.dataset.previewFlips), '1');
  await page.hover('#board [data-square="a1"]');
  assert.equal(await page.locator('#board .would-flip').count(), 0);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('keyboard only: Tab to the board, arrows to a legal square, Enter places a disc', async () => {
  const page = await newPage(setup.browser);
  await startComputerGame(page, setup.server.base, { name: 'Kai' });
  await waitForTurnOrEnd(page);
  // Tab from the top of the page until a board square has the focus.
  await page.evaluate(() => document.activeElement?.blur());
  for (let i = 0; i < 30; i += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement?.classList.contains('square'))) break;
  }
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.square), 'a1');
  // a1 → d1 (3 × right) → d3 (2 × down).
  for (const key of ['ArrowRight', 'ArrowRight', 'ArrowRight', 'ArrowDown', 'ArrowDown']) await page.keyboard.press(key);
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.square), 'd3');
  await page.keyboard.press('End');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.square), 'h3');
  await page.keyboard.press('Home');
  assert.equal(await page.evaluate(() => document.activeElement?.dataset.square), 'a3');
  for (let i = 0; i < 3; i += 1) await page.keyboard.press('ArrowRight');
  await page.keyboard.press('Enter');
  await waitForMoves(page, '1. d3');
  assert.match(await page.getAttribute('#board [data-square="d3"]', 'aria-label'), /^d3, black/);
  assert.match(await page.textContent('#status'), /Black played d3, flipping 1 disc/);
  // The typed-move field plays too.
  await waitForTurnOrEnd(page);
  const square = await page.locator('#board .square.legal').first().getAttribute('data-square');
  await page.fill('#move-input', square);
  await page.keyboard.press('Enter');
  await page.waitForFunction((sq) => document.querySelector('#moves li:nth-child(3) .move')?.textContent === `3. Black ${sq}`, square);
  assert.match(await movesAsShown(page), new RegExp(`^1\\. d3 2\\. [a-h][1-8] 3\\. ${square}`));
  // Focus stays in the move box for the next typed move.
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'move-input');
  // A typed text that is no square is refused and left selected, so the next keys replace it.
  await waitForTurnOrEnd(page);
  await page.fill('#move-input', 'Z9d');
  await page.keyboard.press('Enter');
  await page.waitForSelector('#game-error:not([hidden])');
  const selected = await page.$eval('#move-input', (input) => input.value.slice(input.selectionStart, input.selectionEnd));
  assert.equal(selected, 'Z9d');
  await page.keyboard.type(square === 'a1' ? 'b1' : 'a1');
  assert.equal(await page.inputValue('#move-input'), square === 'a1' ? 'b1' : 'a1');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('an invalid import names the bad move and keeps the current game', async () => {
  const page = await newPage(setup.browser);
  // The refused import is an HTTP error the page expects and shows.
  page.allowedErrors.push(/status of 422/);
  await startComputerGame(page, setup.server.base, { name: 'Ivo' });
  await waitForTurnOrEnd(page);
  const url = page.url();
  await page.click('#import summary');
  await page.fill('#import-text', 'd3 c3 z9');
  await page.click('#import-button');
  await page.waitForFunction(() => document.querySelector('#import-error').textContent.length > 0);
  const message = await page.textContent('#import-error');
  assert.match(message, /3/);
  assert.match(message, /z9/);
  assert.match(message, /unchanged/);
  assert.equal(page.url(), url);
  assert.equal(await page.locator('#board .square.legal').count(), 4);
  // A good move list is imported and continued against the computer.
  await page.fill('#import-text', 'd3 c3');
  await page.click('#import-button');
  await page.waitForURL((target) => target.href !== url);
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
  assert.equal(await page.evaluate(() => document.body.dataset.you), 'black');
  assertNoConsoleErrors(page);
  await page.context().close();
});
