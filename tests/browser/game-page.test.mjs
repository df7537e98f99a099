// The game page as players feel it: the flip animation, no layout shift from the first move to
// the rematch, the move list, the clocks, the result told to you, the keyboard, and the notes
// for spectators and stand-ins.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoConsoleErrors, newPage, screenshot, serverAndBrowser, waitForTurnOrEnd } from './helpers.mjs';
import {
  assertBoardUncovered, layoutShift, movesAsShown, waitForMoves, watchLayoutShift,
} from './game-helpers.mjs';

const setup = serverAndBrowser();

const DESKTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
// From the start, Black has no move after these eight plies and passes.
const TO_A_PASS = ['f5', 'f6', 'd3', 'g5', 'h5', 'h4', 'f7', 'h6'];

/** A fetch from the page (same origin, with its cookies); the answer's JSON. */
async function call(page, method, path, body) {
  return page.evaluate(async ({ method, path, body }) => {
    const response = await fetch(path, {
      method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
    });
    const data = await response.json();
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${JSON.stringify(data)}`);
    return data;
  }, { method, path, body });
}

/** Opens a new game made through the API for a guest called `name`. */
async function openGame(page, name, game) {
  await page.goto(`${setup.server.base}/rules`);
  await call(page, 'POST', '/api/session', { nickname: name });
  const created = await call(page, 'POST', '/api/games', game);
  await page.goto(`${setup.server.base}${created.url}`);
  await page.waitForSelector('body[data-status]');
  return created;
}

/** Two guests in a friend game; returns {black, white}. */
async function friendGame(options) {
  const host = await newPage(setup.browser, options);
  const guest = await newPage(setup.browser, options);
  await host.goto(`${setup.server.base}/rules`);
  await guest.goto(`${setup.server.base}/rules`);
  await call(host, 'POST', '/api/session', { nickname: 'Hana' });
  await call(guest, 'POST', '/api/session', { nickname: 'Gus' });
  const room = await call(host, 'POST', '/api/rooms');
  const joined = await call(guest, 'POST', `/api/rooms/${room.code}/join`);
  for (const page of [host, guest]) {
    await page.goto(`${setup.server.base}/game/${joined.game_id}`);
    await page.waitForSelector('body[data-you]');
  }
  const hostIsBlack = (await host.evaluate(() => document.body.dataset.you)) === 'black';
  return hostIsBlack ? { black: host, white: guest } : { black: guest, white: host };
}

/** Plays the first legal square and waits until the board has taken the move, so that the next
 *  call never reads the legal squares of the position before it. */
const playFirstLegal = async (page) => {
  const square = await page.locator('#board .square.legal').first().getAttribute('data-square');
  await page.click(`#board [data-square="${square}"]`);
  await page.waitForSelector(`#board [data-square="${square}"]:not(.legal)`);
  return square;
};

/** Frames sampled for `ms`: how many had a disc mid-flip (turned between 10° and 170°). */
function framesMidFlip(page, ms) {
  return page.evaluate((duration) => new Promise((resolve) => {
    let frames = 0;
    let midFlip = 0;
    const end = performance.now() + duration;
    const sample = () => {
      frames += 1;
      const turned = [...document.querySelectorAll('#board .square.flipping .disc')].some((disc) => {
        const transform = getComputedStyle(disc).transform;
        if (!transform || transform === 'none') return false;
        const matrix = new DOMMatrixReadOnly(transform);
        const degrees = Math.acos(Math.max(-1, Math.min(1, matrix.m11 / Math.hypot(matrix.m11, matrix.m13)))) * 180 / Math.PI;
        return degrees > 10 && degrees < 170;
      });
      if (turned) midFlip += 1;
      if (performance.now() < end) requestAnimationFrame(sample);
      else resolve({ frames, midFlip });
    };
    requestAnimationFrame(sample);
  }), ms);
}

test('a move turns the flipped discs over, visibly, frame by frame', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await openGame(page, 'Fay', { mode: 'same_device' });
  await waitForTurnOrEnd(page);
  const sampling = framesMidFlip(page, 1200);
  await page.click('#board [data-square="d3"]');
  const { frames, midFlip } = await sampling;
  assert.ok(frames > 10, `${frames} frames sampled`);
  assert.ok(midFlip >= 3, `${midFlip} of ${frames} frames had a disc mid-flip`);
  assert.equal(await page.getAttribute('#board [data-square="d4"] .disc', 'class'), 'disc black');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('with reduced motion the discs change colour without turning', async () => {
  const page = await newPage(setup.browser, { ...DESKTOP, reducedMotion: 'reduce' });
  await openGame(page, 'Ray', { mode: 'same_device' });
  await waitForTurnOrEnd(page);
  const sampling = framesMidFlip(page, 800);
  await page.click('#board [data-square="d3"]');
  const { frames, midFlip } = await sampling;
  assert.ok(frames > 10, `${frames} frames sampled`);
  assert.equal(midFlip, 0);
  await page.waitForSelector('#board [data-square="d4"] .disc.black');
  await page.context().close();
});

test('a pass is said under the board, and shown as the current move it is white on the accent', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await openGame(page, 'Pia', { mode: 'same_device' });
  for (const square of TO_A_PASS) {
    await waitForTurnOrEnd(page);
    await page.click(`#board [data-square="${square}"]`);
  }
  await page.waitForSelector('.moves-list button.move.pass');
  // The pass is said under the board, not over the disc just played.
  await page.waitForSelector('#pass-banner:not([hidden])');
  const [boardBox, bannerBox] = await Promise.all([page.locator('#board').boundingBox(), page.locator('#pass-banner').boundingBox()]);
  assert.ok(bannerBox.y >= boardBox.y + boardBox.height, JSON.stringify({ boardBox, bannerBox }));
  await page.click('.moves-list button.move.pass');
  await page.waitForSelector('.moves-list button.move.pass[aria-current="step"]');
  const colours = await page.$eval('.moves-list button.move.pass', (pass) => [getComputedStyle(pass).color, getComputedStyle(pass).backgroundColor]);
  assert.deepEqual(colours, ['rgb(255, 255, 255)', 'rgb(23, 100, 63)']);
  assertNoConsoleErrors(page);
  await page.context().close();
});

for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${label}: nothing shifts or covers a square in a whole game on one device, through a pass, the end and a rematch`, async () => {
    const page = await newPage(setup.browser, options);
    await openGame(page, 'Lea', { mode: 'same_device' });
    await watchLayoutShift(page);
    await assertBoardUncovered(page, 'at the start');
    for (const square of TO_A_PASS) {
      await waitForTurnOrEnd(page);
      await page.click(`#board [data-square="${square}"]`);
      await assertBoardUncovered(page, `after ${square}`);
    }
    // Black has no move: White moves again, and the pass is said under the board.
    await page.waitForSelector('#pass-banner:not([hidden])');
    assert.equal(await page.textContent('#pass-banner'), 'Black has no legal move and passes.');
    await assertBoardUncovered(page, 'at the pass');
    assert.match(await movesAsShown(page), / 8\. h6 pass( 9\. [a-h][1-8])?$/);
    for (let plies = 0; plies < 64; plies += 1) {
      if (await waitForTurnOrEnd(page) !== 'live') break;
      await playFirstLegal(page);
      await page.waitForTimeout(30);
      await assertBoardUncovered(page, `at ply ${plies + 9}`);
    }
    await page.waitForSelector('#result:not([hidden])');
    await assertBoardUncovered(page, 'at the end');
    // A whole game's moves scroll within their list and strip: the page never grows sideways.
    assert.equal(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
    // The result and its buttons are in view, beside the board or under it, never over it.
    const [board, box, rematch] = await Promise.all(['#board', '#result', '#rematch'].map((id) => page.locator(id).boundingBox()));
    assert.ok(box.y >= board.y + board.height || box.x >= board.x + board.width, JSON.stringify({ board, box }));
    assert.ok(rematch.y >= 0 && rematch.y + rematch.height <= options.viewport.height, JSON.stringify(rematch));
    // Looking back through the finished game keeps the result where it is and the board clear.
    await page.click('#nav-back');
    await page.waitForSelector('#viewing:not([hidden])');
    assert.equal(await page.isVisible('#result'), true);
    await assertBoardUncovered(page, 'looking back after the end');
    await page.click('#nav-live');
    await screenshot(page, `game-over-${label}`);
    const finished = page.url();
    await page.click('#rematch');
    await page.waitForURL((url) => url.href !== finished);
    await page.waitForSelector('body[data-status="live"]');
    // A new page starts a new measurement; the old one's total was read before it unloaded.
    await watchLayoutShift(page);
    await page.click('#board [data-square="d3"]');
    await waitForMoves(page, '1. d3');
    const { total, sources } = await layoutShift(page);
    assert.ok(total < 0.01, `layout shift ${total}: ${sources.join(', ')}`);
    assertNoConsoleErrors(page);
    await page.context().close();
  });

  test(`${label}: nothing shifts while a draw is offered and declined in a friend game`, async () => {
    const { black, white } = await friendGame(options);
    for (const page of [black, white]) await watchLayoutShift(page);
    await waitForTurnOrEnd(black);
    await playFirstLegal(black);
    await waitForTurnOrEnd(white);
    await white.click('#offer-draw');
    await black.waitForSelector('#draw-banner:not([hidden]) #accept-draw');
    // The offer is beside the board or under it, covering no square, its buttons in view.
    const [board, offer] = await Promise.all([black.locator('#board').boundingBox(), black.locator('#draw-banner').boundingBox()]);
    assert.ok(offer.y >= board.y + board.height || offer.x >= board.x + board.width, JSON.stringify({ board, offer }));
    assert.ok(offer.y + offer.height <= options.viewport.height, JSON.stringify(offer));
    await assertBoardUncovered(black, 'during a draw offer');
    await black.click('#decline-draw');
    await white.waitForFunction(() => document.querySelector('#draw-banner').hidden);
    await playFirstLegal(white);
    await waitForTurnOrEnd(black);
    await playFirstLegal(black);
    await white.waitForFunction(() => document.querySelectorAll('#moves li').length === 3);
    for (const page of [black, white]) {
      const { total, sources } = await layoutShift(page);
      assert.ok(total < 0.01, `layout shift ${total}: ${sources.join(', ')}`);
      assertNoConsoleErrors(page);
    }
    await black.context().close();
    await white.context().close();
  });
}

test('an early draw offer repeated is refused in a sentence that goes once the game goes on', async () => {
  const { black, white } = await friendGame(DESKTOP);
  await black.click('#offer-draw');
  await white.waitForSelector('#draw-banner:not([hidden])');
  await white.click('#decline-draw');
  await black.waitForFunction(() => document.querySelector('#draw-banner').hidden);
  await black.click('#offer-draw');
  await black.waitForSelector('#game-error:not([hidden])');
  const message = await black.textContent('#game-error');
  assert.match(message, /^[A-Z].*\.$/);
  await playFirstLegal(black);
  await black.waitForSelector('#game-error', { state: 'hidden' });
  await black.context().close();
  await white.context().close();
});

test('the move list numbers each move by the discs placed, 1 to 60, in two columns', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  const created = await openGame(page, 'Max', { mode: 'same_device' });
  for (const square of ['d3', 'c5', 'f6']) {
    await waitForTurnOrEnd(page);
    await page.click(`#board [data-square="${square}"]`);
  }
  await waitForMoves(page, '1. d3 2. c5 3. f6');
  const columns = await page.$$eval('#moves li', (items) => items.map((item) => item.className));
  assert.deepEqual(columns, ['black', 'white', 'black']);
  // Each move's accessible name says its number, who played it and where.
  const names = await page.$$eval('#moves li .move', (moves) => moves.map((move) => move.textContent));
  assert.deepEqual(names, ['1. Black d3', '2. White c5', '3. Black f6']);
  // The opening is named beside the stakes: d3 c5 is the Perpendicular, seen from another side.
  assert.equal(await page.textContent('#opening-name'), ' · Perpendicular');
  const record = await page.evaluate(async (id) => (await fetch(`/api/games/${id}/record`)).text(), created.id);
  assert.match(record, /1\. d3 c5\s+2\. f6/);
  await page.context().close();
});

test('looking back shows that position\'s disc counts, and the arrow keys step through the game', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await openGame(page, 'Ida', { mode: 'same_device' });
  for (const square of ['d3', 'c5', 'f6']) {
    await waitForTurnOrEnd(page);
    await page.click(`#board [data-square="${square}"]`);
  }
  await waitForMoves(page, '1. d3 2. c5 3. f6');
  assert.deepEqual([await page.textContent('#count-black'), await page.textContent('#count-white')], ['5', '2']);
  await page.click('#nav-back');
  await page.waitForSelector('#viewing:not([hidden])');
  assert.deepEqual([await page.textContent('#count-black'), await page.textContent('#count-white')], ['3', '3']);
  // The keys: ← back, → forward, Home the start, End the live position.
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual([await page.textContent('#count-black'), await page.textContent('#count-white')], ['4', '1']);
  await page.keyboard.press('Home');
  assert.deepEqual([await page.textContent('#count-black'), await page.textContent('#count-white')], ['2', '2']);
  assert.equal(await page.locator('#moves [aria-current="step"]').count(), 0);
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.getAttribute('#moves li[data-ply="1"] button', 'aria-current'), 'step');
  await page.keyboard.press('End');
  await page.waitForSelector('#viewing', { state: 'hidden' });
  assert.deepEqual([await page.textContent('#count-black'), await page.textContent('#count-white')], ['5', '2']);
  // From a move-list button the focus follows the steps, never dropping to the page.
  await page.focus('#moves li[data-ply="2"] button');
  await page.keyboard.press('Enter');
  assert.equal(await page.getAttribute('#moves li[data-ply="2"] button', 'aria-current'), 'step');
  assert.equal(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.ply), '2');
  await page.keyboard.press('ArrowLeft');
  assert.equal(await page.getAttribute('#moves li[data-ply="1"] button', 'aria-current'), 'step');
  assert.equal(await page.evaluate(() => document.activeElement?.closest('li')?.dataset.ply), '1');
  await page.context().close();
});

test('after a legal-move button plays, the focus stays in the controls', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await openGame(page, 'Uma', { mode: 'computer', level: 1, color: 'black' });
  await waitForTurnOrEnd(page);
  await page.focus('#legal-list button');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 1);
  await page.waitForTimeout(100);
  assert.notEqual(await page.evaluate(() => document.activeElement?.tagName), 'BODY');
  assert.ok(await page.evaluate(() => document.activeElement?.closest('#actions') !== null));
  await page.context().close();
});

/** Opens a game against the computer for `name` playing `color`, and resigns it. */
async function resignedComputerGame(page, name, color) {
  await openGame(page, name, { mode: 'computer', level: 1, color });
  await waitForTurnOrEnd(page);
  await page.click('#resign');
  await page.click('#resign-confirm');
  await page.waitForSelector('#result:not([hidden])');
}

test('the result says what happened to you, and the focus left on Resign moves to it', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await resignedComputerGame(page, 'Oto', 'white');
  await page.waitForFunction(() => document.activeElement?.id === 'result-title');
  assert.equal(await page.textContent('#result-title'), 'You lost');
  assert.equal(await page.textContent('#result-reason'), 'You resigned.');
  await page.context().close();
});

test('on a phone the result keeps its buttons in view and the board clear, at the end and looking back', async () => {
  const page = await newPage(setup.browser, PHONE);
  await openGame(page, 'Ula', { mode: 'computer', level: 1, color: 'black' });
  for (let n = 1; n <= 2; n += 1) {
    await waitForTurnOrEnd(page);
    await playFirstLegal(page);
    await page.waitForFunction((count) => document.querySelectorAll('#moves li').length >= count, 2 * n);
  }
  await waitForTurnOrEnd(page);
  await page.click('#resign');
  await page.click('#resign-confirm');
  await page.waitForSelector('#result:not([hidden])');
  await assertBoardUncovered(page, 'at the end');
  for (const id of ['#rematch', '#result a.button']) {
    const box = await page.locator(id).boundingBox();
    assert.ok(box.y >= 0 && box.y + box.height <= PHONE.viewport.height, `${id} ${JSON.stringify(box)}`);
  }
  // The move strip right under the board steps back through the game, the board staying in view.
  const before = await page.evaluate(() => window.scrollY);
  await page.click('#strip-back');
  await page.waitForSelector('#viewing:not([hidden])');
  assert.equal(await page.evaluate(() => window.scrollY), before);
  const last = await page.evaluate(() => document.querySelectorAll('#moves li').length);
  assert.equal(await page.getAttribute(`#move-strip li[data-ply="${last - 1}"] button`, 'aria-current'), 'step');
  assert.equal(await page.isVisible('#result'), true);
  await assertBoardUncovered(page, 'looking back');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a rematch against the computer keeps the colour you chose', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await resignedComputerGame(page, 'Cy', 'white');
  const first = page.url();
  await page.click('#rematch');
  await page.waitForURL((url) => url.href !== first);
  await page.waitForSelector('body[data-you]');
  assert.equal(await page.evaluate(() => document.body.dataset.you), 'white');
  await page.context().close();
});

test('a spectator is told they are watching and is not offered an import', async () => {
  const { black, white } = await friendGame(DESKTOP);
  const watcher = await newPage(setup.browser, DESKTOP);
  await watcher.goto(black.url());
  await watcher.waitForSelector('body[data-you="spectator"]');
  assert.match(await watcher.textContent('#role-note'), /You are watching this game/);
  assert.match(await watcher.textContent('#turn'), /you are watching/);
  assert.equal(await watcher.isVisible('#import'), false);
  assert.equal(await watcher.isVisible('#actions'), false);
  for (const page of [black, white, watcher]) await page.context().close();
});

test('on one device the two sides are named by colour, not twice by the nickname', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await openGame(page, 'Noa', { mode: 'same_device' });
  assert.equal(await page.textContent('#name-black'), 'Black');
  assert.equal(await page.textContent('#name-white'), 'White');
  await page.context().close();
});

test('clocks are large, and the running one counts down', async () => {
  const { black, white } = await friendGame(DESKTOP);
  const size = await black.evaluate(() => parseFloat(getComputedStyle(document.querySelector('#clock-black')).fontSize));
  assert.ok(size >= 22, `clock font ${size}px`);
  const first = await black.textContent('#clock-black');
  await black.waitForFunction((was) => document.querySelector('#clock-black').textContent !== was, first);
  assert.match(await black.textContent('#clock-black'), /^0:\d\d left$/);
  await black.context().close();
  await white.context().close();
});

test('on a phone the names and the computer\'s level are shown whole', async () => {
  const page = await newPage(setup.browser, PHONE);
  await openGame(page, 'Philippa', { mode: 'computer', level: 10, color: 'black' });
  for (const side of ['black', 'white']) {
    const clipped = await page.$eval(`#name-${side}`, (name) => {
      const box = name.closest('.name');
      return box.scrollWidth > box.clientWidth + 1 || box.scrollHeight > box.clientHeight + 1;
    });
    assert.equal(clipped, false, side);
  }
  assert.match(await page.textContent('#name-white'), /^Computer · level 10 \(≈[\d,]+\)$/);
  await page.context().close();
});

test('a skip link leads past the header to the game, and sounds are off until turned on, then remembered', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await openGame(page, 'Sol', { mode: 'same_device' });
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to the content');
  await page.keyboard.press('Enter');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'content');
  await page.keyboard.press('Tab');
  assert.ok(await page.evaluate(() => document.activeElement?.closest('.game-layout') !== null));
  assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'false');
  await page.click('#sound-toggle');
  assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'true');
  await page.reload();
  await page.waitForSelector('body[data-status]');
  assert.equal(await page.getAttribute('#sound-toggle', 'aria-pressed'), 'true');
  await page.context().close();
});

test('the coordinates are on the board\'s rim, outside the squares', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await openGame(page, 'Rim', { mode: 'same_device' });
  const rim = await page.evaluate(() => {
    const grid = document.querySelector('#board .grid').getBoundingClientRect();
    const files = [...document.querySelectorAll('#board .rim-files span')];
    const ranks = [...document.querySelectorAll('#board .rim-ranks span')];
    return {
      files: files.map((span) => span.textContent).join(''),
      ranks: ranks.map((span) => span.textContent).join(''),
      filesAbove: files.every((span) => span.getBoundingClientRect().bottom <= grid.top),
      ranksLeft: ranks.every((span) => span.getBoundingClientRect().right <= grid.left),
      // The a-file label sits over column a, the rank-1 label beside row 1.
      aOverA: Math.abs(files[0].getBoundingClientRect().x + files[0].getBoundingClientRect().width / 2
        - (document.querySelector('[data-square="a1"]').getBoundingClientRect().x
          + document.querySelector('[data-square="a1"]').getBoundingClientRect().width / 2)) < 2,
      inSquares: getComputedStyle(document.querySelector('[data-square="a1"]'), '::before').content,
    };
  });
  assert.deepEqual(rim, { files: 'abcdefgh', ranks: '12345678', filesAbove: true, ranksLeft: true, aOverA: true, inSquares: 'none' });
  await page.context().close();
});

for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${label}: in dark mode the black player's swatch stands out from its box`, async () => {
    const page = await newPage(setup.browser, { ...options, colorScheme: 'dark' });
    await openGame(page, 'Nox', { mode: 'same_device' });
    for (const square of ['d3', 'c5', 'f6', 'f5', 'e6', 'e3']) {
      await waitForTurnOrEnd(page);
      await page.click(`#board [data-square="${square}"]`);
    }
    await waitForMoves(page, '1. d3 2. c5 3. f6 4. f5 5. e6 6. e3');
    await page.waitForTimeout(600); // the last flips end
    await screenshot(page, `game-dark-${label}`);
    const contrast = await page.evaluate(() => {
      const rgb = (text) => text.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number);
      const luminance = ([r, g, b]) => {
        const channel = (v) => { const c = v / 255; return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4; };
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
      };
      const ratio = (a, b) => { const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x); return (hi + 0.05) / (lo + 0.05); };
      const swatch = getComputedStyle(document.querySelector('#player-black .swatch'));
      const box = getComputedStyle(document.querySelector('#player-black'));
      return ratio(rgb(swatch.borderTopColor), rgb(box.backgroundColor));
    });
    assert.ok(contrast >= 3, `swatch edge contrast ${contrast.toFixed(2)}`);
    // And it is filled as the board's black disc is, not a ring on the dark panel.
    const fills = await page.evaluate(() => [
      getComputedStyle(document.querySelector('#player-black .swatch')).backgroundImage,
      getComputedStyle(document.querySelector('#board .disc.black')).backgroundImage,
    ]);
    assert.match(fills[0], /^radial-gradient/);
    assert.equal(fills[0], fills[1]);
    await page.context().close();
  });
}


test('a finished game has its transcript: each move\'s number on its square, printable and saved as a picture', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await openGame(page, 'Tam', { mode: 'same_device' });
  for (const square of ['f5', 'd6', 'c3']) {
    await waitForTurnOrEnd(page);
    await page.click(`#board [data-square="${square}"]`);
  }
  await waitForMoves(page, '1. f5 2. d6 3. c3');
  assert.equal(await page.isVisible('#transcript'), false, 'no transcript while the game is on');
  await page.click('#resign');
  await page.click('#resign-confirm');
  await page.waitForSelector('#transcript:not([hidden]) #transcript-figure svg');
  const numbers = await page.$$eval('#transcript-figure svg circle + text', (texts) => texts.map((text) => text.textContent));
  assert.deepEqual(numbers.sort(), ['1', '2', '3']);
  assert.match(await page.getAttribute('#transcript-figure', 'aria-label'), /^Transcript: Black vs White\./);
  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#transcript-download')]);
  assert.equal(download.suggestedFilename(), 'reversi-transcript.png');
  const saved = await download.path();
  const { readFile } = await import('node:fs/promises');
  const bytes = await readFile(saved);
  assert.deepEqual([...bytes.subarray(1, 4)].map((byte) => String.fromCharCode(byte)).join(''), 'PNG');
  assert.equal(await page.textContent('#transcript-status'), 'Transcript saved as reversi-transcript.png.');
  await screenshot(page, 'transcript');
  assertNoConsoleErrors(page);
  await page.context().close();
});
