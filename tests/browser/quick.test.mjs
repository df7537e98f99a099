// Quick game from the home page: two people are paired into one game; a lone seeker gets the
// computer after OUTFLANK_COMPUTER_AFTER_MS; Cancel gives the button back. And the stats line.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoConsoleErrors, launchBrowser, newPage, setNickname, startServer, waitForTurnOrEnd } from './helpers.mjs';

let people; // nobody gets the computer within the test
let lonely; // the computer comes after 1.5 s
let browser;

before(async () => {
  [people, lonely] = await Promise.all([
    startServer({ OUTFLANK_COMPUTER_AFTER_MS: '20000' }),
    startServer({ OUTFLANK_COMPUTER_AFTER_MS: '1500' }),
  ]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await people?.stop();
  await lonely?.stop();
});

const GAME_URL = /\/game\/[A-Za-z0-9]+$/;
const you = (page) => page.evaluate(() => document.body.dataset.you);
const stats = async (server) => (await fetch(`${server.base}/api/stats`)).json();

/** The stats once `field` reads `value`: the page shows "Searching" as soon as its seek is
 *  sent, and the server counts the seeker a moment later. */
async function statsWhen(server, field, value, timeoutMs = 5000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const now = await stats(server);
    if (now[field] === value || Date.now() > deadline) return now;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function home(server, name) {
  const page = await newPage(browser);
  await page.goto(`${server.base}/`);
  await setNickname(page, name);
  return page;
}

test('two people pressing Quick game land in the same game with opposite colours', async () => {
  const ann = await home(people, 'Ann');
  const ben = await home(people, 'Ben');
  // The quick game is the page's first and only big Play, and the stats line shows.
  assert.equal(await ann.evaluate(() => [...document.querySelectorAll('main button')].find((button) => button.offsetParent !== null).id), 'quick-game');
  assert.equal(await ann.textContent('#quick-game'), 'Play');
  await ann.waitForSelector('#stats:not([hidden])');
  assert.match(await ann.textContent('#stats'), /^\d+ players? online · \d+ waiting · \d+ games? in progress$/);

  await ann.click('#quick-game');
  await ann.waitForFunction(() => /Searching for an opponent… \d+ s/.test(document.querySelector('#quick-status').textContent));
  assert.equal(await ann.isVisible('#quick-game'), false);
  assert.equal(await ann.isVisible('#quick-cancel'), true);
  assert.equal(await ann.getAttribute('#quick-status', 'aria-live'), 'polite');
  assert.equal((await statsWhen(people, 'waiting', 1)).waiting, 1);

  await ben.click('#quick-game');
  await Promise.all([ann.waitForURL(GAME_URL), ben.waitForURL(GAME_URL)]);
  assert.equal(ann.url(), ben.url());
  for (const page of [ann, ben]) await page.waitForSelector('body[data-you]');
  const annColour = await you(ann);
  const benColour = await you(ben);
  assert.deepEqual([annColour, benColour].sort(), ['black', 'white']);
  const black = annColour === 'black' ? ann : ben;
  const white = annColour === 'black' ? ben : ann;
  // Each sees the other's nickname, not the computer.
  assert.equal(await black.textContent('#name-white'), annColour === 'white' ? 'Ann' : 'Ben');
  assert.equal(await white.textContent('#name-black'), annColour === 'black' ? 'Ann' : 'Ben');
  // A quick game has the 30-s clock.
  assert.match(await black.textContent('#clock-black'), /^0:(2\d|30) left$/);

  await waitForTurnOrEnd(black);
  const square = await black.locator('#board .square.legal').first().getAttribute('data-square');
  await black.click(`#board [data-square="${square}"]`);
  await white.waitForFunction(() => document.querySelectorAll('#moves li').length === 1);
  assert.match(await white.textContent('#moves li'), new RegExp(square));

  const now = await stats(people);
  assert.equal(now.waiting, 0);
  assert.ok(now.games_in_progress >= 1, JSON.stringify(now));
  assertNoConsoleErrors(ann);
  assertNoConsoleErrors(ben);
  await ann.context().close();
  await ben.context().close();
});

test('Cancel stops the search and gives the Quick game button back', async () => {
  const page = await home(people, 'Cat');
  await page.click('#quick-game');
  await page.waitForFunction(() => /Searching/.test(document.querySelector('#quick-status').textContent));
  await page.click('#quick-cancel');
  await page.waitForSelector('#quick-game:not([hidden])');
  assert.equal(await page.isVisible('#quick-cancel'), false);
  assert.equal(await page.isEnabled('#quick-game'), true);
  assert.match(await page.textContent('#quick-status'), /cancelled/i);
  assert.equal((await stats(people)).waiting, 0);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  assert.equal(page.url(), `${people.base}/`);
  assert.equal(await page.textContent('#quick-error'), '');

  // A nickname is needed first, as for the other ways to play: said next to the field.
  await page.fill('#nickname', '');
  await page.click('#quick-game');
  await page.waitForFunction(() => document.querySelector('#nickname-error').textContent !== '');
  assert.equal(await page.textContent('#nickname-error'), 'Choose a nickname first.');
  assert.equal(await page.textContent('#quick-error'), '');
  assert.equal(await page.isVisible('#quick-game'), true);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('alone in the queue, the player gets the computer, clearly labelled', async () => {
  const page = await home(lonely, 'Dee');
  await page.click('#quick-game');
  await page.waitForFunction(() => /Searching for an opponent/.test(document.querySelector('#quick-status').textContent));
  await page.waitForURL(/\/game\/[A-Za-z0-9]+$/, { timeout: 10000 });
  await page.waitForSelector('body[data-you]');
  const colour = await you(page);
  assert.ok(colour === 'black' || colour === 'white', colour);
  const opponent = colour === 'black' ? 'white' : 'black';
  assert.match(await page.textContent(`#name-${opponent}`), /^Computer · level ([1-9]|10) \(≈[\d,]+\)$/);
  assert.equal(await page.textContent(`#name-${colour}`), 'Dee (you)');
  // The game page says why the computer is the opponent, and that the game is not rated.
  assert.equal(await page.textContent('#role-note'), 'Nobody else was free when you pressed Play, so the computer stands in at a level near your rating. This game is not rated.');
  // The game goes on: the player's turn comes (after the computer's reply if it has Black).
  assert.equal(await waitForTurnOrEnd(page), 'live');
  // Opened again from a plain link, in another tab, the note is still there.
  const again = await page.context().newPage();
  await again.goto(page.url());
  await again.waitForSelector('body[data-you]');
  assert.equal(await again.textContent('#role-note'), 'Nobody else was free when you pressed Play, so the computer stands in at a level near your rating. This game is not rated.');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('two people choosing blitz are paired into a 3+2 game', async () => {
  const ann = await home(people, 'Ann');
  const ben = await home(people, 'Ben');
  assert.deepEqual(await ann.$$eval('#quick-pool label', (tiles) => tiles.map((tile) => tile.textContent)),
    ['30 sa move', '3+2Blitz', '10+5Rapid', '2dDaily', '5+3XOT']);
  assert.equal(await ann.$eval('#quick-pool input:checked', (input) => input.value), '30s');
  assert.match(await ann.textContent('#quick-about'), /^A quick game against someone at random: 30 s a move, not rated\./);
  // One tap on a tile chooses the control.
  for (const page of [ann, ben]) await page.click('#quick-pool label:has(input[value="blitz"])');
  assert.match(await ann.textContent('#quick-about'), /^A quick game against someone at random: Blitz 3\+2, not rated\./);
  await ann.click('#quick-game');
  await ann.waitForFunction(() => /Searching for an opponent/.test(document.querySelector('#quick-status').textContent));
  await ben.click('#quick-game');
  await Promise.all([ann.waitForURL(GAME_URL), ben.waitForURL(GAME_URL)]);
  assert.equal(ann.url(), ben.url());
  await ann.waitForSelector('body[data-you]');
  assert.equal(await ann.textContent('#stakes'), 'Quick game · 3+2');
  assert.match(await ann.textContent('#clock-black'), /^[23]:\d\d left$/);
  for (const page of [ann, ben]) assertNoConsoleErrors(page);
  for (const page of [ann, ben]) await page.context().close();
});
