// A friend game by link with two browser contexts, and two players on one device.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoConsoleErrors, newPage, serverAndBrowser, setNickname, waitForTurnOrEnd } from './helpers.mjs';

const setup = serverAndBrowser();

const you = (page) => page.evaluate(() => document.body.dataset.you);
const plies = (page) => page.locator('#moves li').count();

test('friend by link: create, join, play, resign with confirmation, rematch swaps colours', async () => {
  const host = await newPage(setup.browser);
  const guest = await newPage(setup.browser);
  await host.goto(`${setup.server.base}/`);
  await setNickname(host, 'Ann');
  await host.click('#create-link');
  await host.waitForSelector('#room:not([hidden])');
  const link = (await host.textContent('#room-link')).trim();
  assert.match(link, new RegExp(`^${setup.server.base}/join/[A-Za-z0-9]+$`));
  assert.match(await host.textContent('#room-status'), /Waiting for your friend/);

  await guest.goto(link);
  await guest.waitForSelector('#join-card:not([hidden])');
  assert.equal(await guest.textContent('#join-invite'), 'Ann invites you to a game of Reversi.');
  await guest.fill('#nickname', 'Ben');
  await guest.click('#join');
  await guest.waitForURL(/\/game\//);
  await host.waitForURL(/\/game\//);
  assert.equal(host.url(), guest.url());
  for (const page of [host, guest]) await page.waitForSelector('body[data-you]');
  const hostColour = await you(host);
  const guestColour = await you(guest);
  assert.deepEqual([hostColour, guestColour].sort(), ['black', 'white']);
  const black = hostColour === 'black' ? host : guest;
  const white = hostColour === 'black' ? guest : host;
  // Both clocks are shown; Black's runs.
  assert.match(await black.textContent('#clock-black'), /^0:(2\d|30) left$/);

  // Four moves, alternating; each side sees the other's moves.
  for (let n = 0; n < 4; n += 1) {
    const mover = n % 2 === 0 ? black : white;
    const watcher = n % 2 === 0 ? white : black;
    await waitForTurnOrEnd(mover);
    await mover.locator('#board .square.legal').first().click();
    await watcher.waitForFunction((count) => document.querySelectorAll('#moves li').length === count, n + 1);
  }
  assert.equal(await plies(black), 4);
  // Each sees whether the other is connected: White drops and comes back.
  const whiteSide = 'white';
  assert.equal(await black.isVisible(`#presence-${whiteSide}`), false);
  const gameUrl = white.url();
  await white.goto('about:blank');
  await black.waitForSelector(`#presence-${whiteSide}:not([hidden])`);
  assert.match(await black.textContent('#status'), /has disconnected/);
  await white.goto(gameUrl);
  await black.waitForSelector(`#presence-${whiteSide}`, { state: 'hidden' });
  await white.waitForSelector('body[data-you]');
  assert.match(await black.textContent('#turn'), /Your move \(Black\)/);
  assert.match(await white.textContent('#turn'), /Waiting for/);

  // A draw offer: White sees it and declines.
  await black.click('#offer-draw');
  await black.waitForFunction(() => /You offered a draw/.test(document.querySelector('#draw-text').textContent));
  await white.waitForSelector('#draw-banner:not([hidden]) #accept-draw');
  await white.click('#decline-draw');
  await black.waitForFunction(() => document.querySelector('#draw-banner').hidden);
  assert.match(await black.textContent('#status'), /White declined the draw/);

  // Resign asks first; cancelling keeps playing.
  await black.click('#resign');
  await black.waitForSelector('#resign-dialog[open]');
  await black.click('#resign-cancel');
  assert.equal(await black.evaluate(() => document.body.dataset.status), 'live');
  await black.click('#resign');
  await black.click('#resign-confirm');
  for (const page of [black, white]) await page.waitForSelector('#result:not([hidden])');
  // Each is told what happened to them.
  assert.equal(await black.textContent('#result-title'), 'You lost');
  assert.equal(await black.textContent('#result-reason'), 'You resigned.');
  assert.equal(await white.textContent('#result-title'), 'You won');
  assert.equal(await white.textContent('#result-reason'), 'Black resigned.');

  // Rematch: both ask; the new game has the colours swapped.
  const firstGame = host.url();
  await black.click('#rematch');
  await black.waitForFunction(() => /Waiting for your opponent/.test(document.querySelector('#rematch-status').textContent));
  await white.waitForFunction(() => /wants a rematch/.test(document.querySelector('#rematch-status').textContent));
  await white.click('#rematch');
  for (const page of [host, guest]) {
    await page.waitForURL((url) => url.href !== firstGame);
    await page.waitForFunction(() => document.body.dataset.status === 'live');
  }
  assert.equal(host.url(), guest.url());
  assert.equal(await you(host), guestColour);
  assert.equal(await you(guest), hostColour);

  // Back on the finished game, a player is sent on to the rematch, not offered another.
  const rematchGame = host.url();
  await host.goto(firstGame);
  await host.waitForSelector('#rematch-link');
  assert.equal(await host.isVisible('#rematch'), false);
  assert.equal(new URL(await host.getAttribute('#rematch-link', 'href'), setup.server.base).href, rematchGame);
  await host.click('#rematch-link');
  await host.waitForURL(rematchGame);

  // The finished game has a replay page anyone can open, read-only, with its record.
  const viewer = await newPage(setup.browser);
  const firstId = firstGame.split('/').pop();
  await viewer.goto(`${setup.server.base}/replay/${firstId}`);
  await viewer.waitForSelector('#result:not([hidden])');
  assert.equal(await you(viewer), 'spectator');
  assert.equal(await viewer.textContent('#role-note'), 'This game is over: step through its moves with the list or the arrow keys.');
  assert.match(await viewer.textContent('#result-reason'), /Black resigned/);
  assert.equal(await viewer.locator('#moves li').count(), 4);
  assert.equal(await viewer.isVisible('#rematch'), false);
  assert.equal(await viewer.locator('#board .square.legal').count(), 0);
  // Every earlier position can be replayed, back to the start.
  await viewer.waitForSelector('#nav-start:not([disabled])');
  assert.equal(await viewer.isVisible('#nav-note'), false);
  await viewer.click('#nav-start');
  assert.equal(await viewer.locator('#board .disc.black, #board .disc.white').count(), 4);
  await viewer.click('#nav-forward');
  assert.equal(await viewer.locator('#board .disc.black, #board .disc.white').count(), 5);
  await viewer.click('#nav-live');
  const download = await viewer.getAttribute('#download-record', 'href');
  const record = await (await fetch(`${setup.server.base}${download}`)).text();
  assert.match(record, /^Reversi game record, format 1/);
  const ggf = await (await fetch(`${setup.server.base}${await viewer.getAttribute('#download-ggf', 'href')}`)).text();
  assert.match(ggf, /^\(;GM\[Othello\]PC\[Outflank\]/);
  assertNoConsoleErrors(viewer);
  await viewer.context().close();
  assertNoConsoleErrors(host);
  assertNoConsoleErrors(guest);
  await host.context().close();
  await guest.context().close();
});

test('a friend link that does not exist says so', async () => {
  const page = await newPage(setup.browser);
  page.allowedErrors.push(/status of 404/);
  await page.goto(`${setup.server.base}/join/abcdefgh`);
  await page.waitForFunction(() => /does not exist|expired/.test(document.querySelector('#join-status').textContent));
  assert.equal(await page.isVisible('#join'), false);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('two players on one device: both sides move from one page, undo takes one back', async () => {
  const page = await newPage(setup.browser);
  await page.goto(`${setup.server.base}/`);
  await setNickname(page, 'Duo');
  await page.click('#play-device');
  await page.waitForURL(/\/game\//);
  await page.waitForSelector('body[data-you="both"]');
  assert.match(await page.textContent('#turn'), /Black to move/);
  await page.click('#board [data-square="d3"]');
  await page.waitForFunction(() => /White to move/.test(document.querySelector('#turn').textContent));
  await waitForTurnOrEnd(page);
  await page.click('#board [data-square="c3"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
  // The move list goes back and forth through the positions.
  await page.click('#moves li[data-ply="1"] button');
  assert.equal(await page.getAttribute('#board [data-square="c3"]', 'aria-label'), 'c3, empty');
  assert.equal(await page.getAttribute('#board [data-square="d3"]', 'aria-label'), 'd3, black, last move');
  assert.equal(await page.isVisible('#viewing'), true);
  await page.click('#nav-start');
  assert.equal(await page.getAttribute('#board [data-square="d3"]', 'aria-label'), 'd3, empty');
  await page.click('#nav-forward');
  await page.click('#nav-forward');
  assert.match(await page.getAttribute('#board [data-square="c3"]', 'aria-label'), /^c3, white/);
  await page.click('#nav-back');
  await page.click('#nav-live');
  assert.match(await page.getAttribute('#board [data-square="c3"]', 'aria-label'), /^c3, white, last move/);
  assert.equal(await page.isVisible('#viewing'), false);
  assert.equal(await page.isVisible('#offer-draw'), false);
  assert.equal(await page.isVisible('#clock-black'), false);
  await page.click('#undo');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 1);
  assert.match(await page.textContent('#turn'), /White to move/);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a daily friend room with XOT openings starts after the opening and says by when to move', async () => {
  const host = await newPage(setup.browser);
  const guest = await newPage(setup.browser);
  await host.goto(`${setup.server.base}/`);
  await setNickname(host, 'Xan');
  await host.click('#friend-control label:has(input[value="1d"])');
  await host.check('#friend-xot');
  await host.click('#create-link');
  await host.waitForSelector('#room:not([hidden])');
  await guest.goto((await host.textContent('#room-link')).trim());
  await guest.waitForSelector('#join-card:not([hidden])');
  assert.equal(await guest.textContent('#join-invite'),
    'Xan invites you to a game of Reversi: 1 day a move, from an XOT opening.');
  await guest.fill('#nickname', 'Yul');
  await guest.click('#join');
  for (const page of [host, guest]) await page.waitForURL(/\/game\//);
  for (const page of [host, guest]) {
    await page.waitForSelector('body[data-you]');
    // Black moves first after the opening, within a day: by when, in the page's local time.
    const who = (await you(page)) === 'black' ? 'your move' : 'Black to move';
    assert.match(await page.textContent('#stakes'),
      new RegExp(`^With a friend · 1 day a move · XOT opening · ${who} by .+\\d\\d:\\d\\d`));
    assert.equal(await plies(page), 8);
  }
  // Back home, the game is listed under Your games, with whose move it is and by when.
  const blackPage = (await you(host)) === 'black' ? host : guest;
  const opponent = blackPage === host ? 'Yul' : 'Xan';
  await blackPage.goto(`${setup.server.base}/`);
  await blackPage.waitForSelector('#my-games:not([hidden])');
  assert.equal(await blackPage.locator('#my-games-list li').count(), 1);
  assert.equal(await blackPage.textContent('#my-games-list .lobby-players'), `Your move · against ${opponent}`);
  assert.match(await blackPage.textContent('#my-games-list .lobby-meta'),
    /^With a friend · 1 day a move · XOT opening · move by .+\d\d:\d\d/);
  for (const page of [host, guest]) assertNoConsoleErrors(page);
  for (const page of [host, guest]) await page.context().close();
});
