// The engine's review of a finished game on its page: the status while the engine works, the
// evaluation graph with its table, the marks in the move list, a click on the graph picking a
// ply, the best move on the board, the best line, the summary in the review card; axe finds
// nothing, and it all works on a phone. Against the real server: once with a finished record
// imported and reviewed by the real engine, and once with the review's answers replaced by
// known ones (queued, running, then done), so that the words can be checked exactly.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoConsoleErrors, axeViolations, boardShown, call, newPage, screenshot, serverAndBrowser } from './helpers.mjs';
import { assertBoardUncovered, layoutShift, watchLayoutShift } from './game-helpers.mjs';

const setup = serverAndBrowser();

const DESKTOP = { viewport: { width: 1280, height: 800 }, bypassCSP: true };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, bypassCSP: true };
// The shortest possible game: White has no discs left after nine plies, Black 13 – White 0.
const SHORTEST = ['d3', 'c3', 'b3', 'd2', 'e1', 'd6', 'd7', 'e3', 'f4'];
const MARKS = { inaccuracy: '?!', mistake: '?', blunder: '??' };
const MINUS = '\u2212';

/** Clicks (or taps) the graph at ply `ply`, where the graph draws it. */
async function pickOnGraph(page, ply, last, tap = false) {
  await page.locator('#review-graph .graph-frame').scrollIntoViewIfNeeded();
  const box = await page.locator('#review-graph .graph-frame').boundingBox();
  // The plot starts 50 px in from the left and ends 10 px before the right (graph.js).
  const x = box.x + 50 + (ply / last) * (box.width - 60);
  const y = box.y + box.height / 2;
  if (tap) await page.touchscreen.tap(x, y);
  else await page.mouse.click(x, y);
}

/** A finished game of the shortest moves, played on one device by a guest; its id. The page
 *  that saw it end is told that it has no review, whatever the server says. */
async function finishedGame(page, name) {
  const none = (route) => route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'none' }) });
  await page.route('**/api/games/*/analysis', none);
  await page.goto(`${setup.server.base}/rules`);
  await call(page, 'POST', '/api/session', { nickname: name });
  const created = await call(page, 'POST', '/api/games', { mode: 'same_device' });
  await page.goto(`${setup.server.base}${created.body.url}`);
  for (const square of SHORTEST) {
    await page.waitForSelector(`#board [data-square="${square}"].legal`);
    await page.click(`#board [data-square="${square}"]`);
  }
  await page.waitForSelector('body[data-status="finished"]');
  await page.unroute('**/api/games/*/analysis', none);
  return created.body.id;
}

/** A review of the shortest game as the server would send it, with known judgements. */
function knownReview(id, positions) {
  const values = [0, 0, 3, 2, 5, 4, 16, 16, 64, 64];
  const classes = ['best', 'mistake', 'good', 'inaccuracy', 'best', 'blunder', 'best', 'blunder', 'best'];
  const plies = SHORTEST.map((move, index) => {
    const color = index % 2 ? 'white' : 'black';
    const sign = color === 'black' ? 1 : -1;
    const loss = { best: 0, good: 1, inaccuracy: 4, mistake: 7, blunder: 12 }[classes[index]];
    const played = sign * values[index + 1];
    const alternative = { 1: 'e3', 5: 'c5', 7: 'c4' }[index] || move;
    return {
      ply: index + 1, color, move, value_before: values[index], value_after: values[index + 1],
      best: loss ? [alternative] : [move], best_value: played + loss, played_value: played, loss, exact: index >= 6,
      class: classes[index],
      best_line: [
        { move: loss ? alternative : move, board: positions[index + 1].board },
        { move: SHORTEST[index + 1] || 'pass', board: positions[Math.min(index + 2, 9)].board },
      ],
    };
  });
  return {
    game_id: id, status: 'done', engine: 'outflank-engine 0.9.0', exact_from_empties: 20, search: 'depth 10',
    progress: { done: 9, total: 9 }, thresholds: { inaccuracy: 3, mistake: 6, blunder: 10 }, plies,
    summary: {
      black: { moves: 5, mean_loss: 0.2, inaccuracies: 0, mistakes: 0, blunders: 0 },
      white: { moves: 4, mean_loss: 8.8, inaccuracies: 1, mistakes: 1, blunders: 2 },
    },
  };
}

/** Answers the page's review requests for game `id` with `answers` in turn (the last one
 *  again and again). Returns how many GETs were answered. */
async function answerReviews(page, id, answers) {
  const seen = { gets: 0, posts: 0 };
  await page.route(`**/api/games/${id}/analysis`, (route) => {
    const method = route.request().method();
    if (method === 'POST') seen.posts += 1;
    else seen.gets += 1;
    const answer = answers[Math.min(seen.gets + seen.posts - 1, answers.length - 1)];
    route.fulfill({ status: method === 'POST' ? 202 : 200, contentType: 'application/json', body: JSON.stringify(answer) });
  });
  return seen;
}

/** What every done review shows, checked against its `body` and the game's `positions`. */
async function checkDoneReview(page, body, positions) {
  const last = body.plies.length;
  await page.waitForSelector('#review[data-state="done"]');
  assert.match(await page.textContent('#review-status'), /^Reviewed by /);
  // The graph and its text alternative: a row per ply, from the start.
  await page.waitForSelector('#review-graph .graph-frame[role="slider"] svg .area-black');
  assert.equal(await page.getAttribute('#review-graph .graph-frame', 'aria-valuemax'), String(last));
  assert.equal(await page.locator('#review-graph table tbody tr').count(), last + 1);
  // The move list marks every inaccuracy, mistake and blunder, and names every class.
  for (const ply of body.plies) {
    const move = page.locator(`#moves li[data-ply="${ply.ply}"] .move`);
    const mark = MARKS[ply.class];
    if (mark) assert.equal(await move.locator('.review-mark').textContent(), mark, `ply ${ply.ply}`);
    else assert.equal(await move.locator('.review-mark').count(), 0, `ply ${ply.ply}`);
    assert.match(await move.textContent(), new RegExp(`, ${{ best: 'best move', good: 'good move' }[ply.class] || ply.class}$`));
  }
  // The summary is in the review card, a sentence per player.
  assert.equal(await page.isVisible('#review-summary'), true);
  for (const side of ['black', 'white']) {
    assert.match(await page.textContent(`#review-summary p[data-side="${side}"]`), /lost \d+\.\d discs a move on average/);
  }
}

/** Picks ply `ply` on the graph and checks that the page moved there, with the best move of
 *  the position on the board. */
async function checkPick(page, body, ply, tap = false) {
  const last = body.plies.length;
  await pickOnGraph(page, ply, last, tap);
  await page.waitForSelector(`#moves li[data-ply="${ply}"] button[aria-current="step"]`);
  assert.equal(await page.getAttribute('#review-graph .graph-frame', 'aria-valuenow'), String(ply));
  // Nothing covers the board: the result stays under it.
  assert.equal(await page.isVisible('#result'), true);
  await assertBoardUncovered(page, `picking ply ${ply}`);
  const next = body.plies[ply];
  if (next && next.move !== 'pass') {
    for (const square of next.best.filter((move) => move !== 'pass')) {
      await page.waitForSelector(`#board [data-square="${square}"].page-mark .mark-text`);
    }
    assert.match(await page.textContent('#review-next'), new RegExp(`^Best here for (Black|White): `));
  }
}

test('a review the engine works on: progress, then the graph, the marks, the best move and line, and the summary', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  const id = await finishedGame(page, 'Rev');
  const positions = (await call(page, 'GET', `/api/games/${id}`)).body.positions;
  assert.equal(positions.length, 10);
  const body = knownReview(id, positions);
  const seen = await answerReviews(page, id, [
    { game_id: id, status: 'queued', progress: { done: 0, total: 9 } },
    { game_id: id, status: 'running', progress: { done: 3, total: 9 } },
    body,
  ]);
  await page.goto(`${setup.server.base}/replay/${id}`);
  await page.waitForSelector('#review:not([hidden])');
  await page.waitForFunction(() => document.querySelector('#review-status').textContent === 'Reviewing… 3 of 9 moves');
  assert.equal(await page.getAttribute('#review-progress', 'value'), '3');
  assert.equal(await page.textContent('#review-summary'), 'The engine is reviewing this game…');
  await checkDoneReview(page, body, positions);
  assert.equal(seen.gets, 3, 'asked again until done, then stopped');
  await page.waitForTimeout(1500);
  assert.equal(seen.gets, 3, 'no more asking once done');
  assert.equal(await page.textContent('#review-status'),
    'Reviewed by outflank-engine 0.9.0 (depth 10; perfect play in the last 20 empty squares).');
  assert.deepEqual(await page.$$eval('#review-summary p', (lines) => lines.map((line) => line.textContent)), [
    'Black lost 0.2 discs a move on average, with no inaccuracies, mistakes or blunders.',
    'White lost 8.8 discs a move on average, with 1 inaccuracy, 1 mistake and 2 blunders.',
  ]);
  assert.deepEqual(await page.$$eval('#moves .review-mark', (marks) => marks.map((mark) => `${mark.closest('li').dataset.ply}${mark.textContent}`)),
    ['2?', '4?!', '6??', '8??']);
  assert.equal(await page.textContent('#moves li[data-ply="6"] .move'), '6. White d6??, blunder');
  assert.deepEqual(await page.$$eval('#review-graph table tbody tr', (rows) => rows.slice(0, 3).map((row) => row.textContent)),
    ['0Starteven', '1Black d3evenbest move', '2White c3Black +3mistake']);
  await screenshot(page, 'review-desktop');
  // Choosing the blunder from the move list shows its position with nothing over the board.
  await page.click('#moves li[data-ply="6"] button');
  await page.waitForSelector('#viewing:not([hidden])');
  await assertBoardUncovered(page, 'choosing a blunder from the move list');

  // A click on the graph at ply 5 goes there, as the move list would.
  await checkPick(page, body, 5);
  assert.equal(await boardShown(page), positions[5].board);
  assert.equal(await page.textContent('#review-ply-title'), 'Move 5 · Black e1');
  // The eval bar beside the board shows the position's value, more of it Black's.
  assert.equal(await page.getAttribute('#eval-bar', 'aria-label'), 'Evaluation: Black +4');
  assert.equal(await page.isVisible('#eval-bar'), true);
  assert.equal(await page.textContent('#review-words'), 'e1 was the best move (+4).');
  assert.equal(await page.textContent('#review-next'), `Best here for White: c5 (${MINUS}4).`);
  assert.equal(await page.textContent('#board [data-square="c5"] .mark-text'), `${MINUS}4`);
  assert.equal(await page.getAttribute('#board [data-square="c5"]', 'aria-label'), `c5, empty, best move ${MINUS}4`);
  await page.evaluate(() => window.scrollTo(0, 120));
  await screenshot(page, 'review-picked-desktop');

  // Ply 6 was White's blunder: its sentence, and its best line on the board.
  await checkPick(page, body, 6);
  assert.equal(await page.textContent('#review-words'), `d6 was a blunder: ${MINUS}12 discs; best was c5 (${MINUS}4).`);
  await page.click('#review-line');
  assert.equal(await page.textContent('#review-next'), 'The best line instead of d6: c5 d7. Showing White c5, step 1 of 2.');
  assert.equal(await boardShown(page), positions[6].board);
  assert.equal(await page.textContent('#viewing'), 'The best line: c5, step 1 of 2. Back to the game returns.');
  await assertBoardUncovered(page, 'showing the best line');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'review-line-next');
  await page.click('#review-line-next');
  assert.equal(await page.textContent('#review-next'), 'The best line instead of d6: c5 d7. Showing Black d7, step 2 of 2.');
  assert.equal(await boardShown(page), positions[7].board);
  assert.equal(await page.isDisabled('#review-line-next'), true);
  await page.click('#review-line-exit');
  assert.equal(await boardShown(page), positions[6].board);
  assert.equal(await page.isVisible('#review-line'), true);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'review-line');
  assert.match(await page.textContent('#viewing'), /^Looking back: the position after move 6\./);
  // The keys step the plies, and the graph follows.
  await page.focus('#review-graph .graph-frame');
  await page.keyboard.press('ArrowLeft');
  await page.waitForSelector('#moves li[data-ply="5"] button[aria-current="step"]');
  assert.equal(await page.getAttribute('#review-graph .graph-frame', 'aria-valuenow'), '5');
  assert.equal(await page.getAttribute('#review-graph .graph-frame', 'aria-valuetext'), 'Move 5, Black e1: Black +4');
  await page.keyboard.press('Home');
  assert.equal(await page.getAttribute('#review-graph .graph-frame', 'aria-valuenow'), '0');
  await page.keyboard.press('End');
  assert.equal(await page.getAttribute('#review-graph .graph-frame', 'aria-valuenow'), '9');
  assert.equal(await page.textContent('#review-next'), 'The game is over here.');
  assert.equal(await page.locator('#board .page-mark').count(), 0);

  assert.deepEqual(await axeViolations(page), []);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('while the page is hidden it stops asking, and asks again when it is shown', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  const id = await finishedGame(page, 'Hid');
  const running = { game_id: id, status: 'running', progress: { done: 1, total: 9 } };
  const seen = await answerReviews(page, id, [running]);
  await page.goto(`${setup.server.base}/replay/${id}`);
  await page.waitForFunction(() => document.querySelector('#review-status').textContent === 'Reviewing… 1 of 9 moves');
  const setHidden = (hidden) => page.evaluate((value) => {
    Object.defineProperty(document, 'hidden', { configurable: true, get: () => value });
    document.dispatchEvent(new Event('visibilitychange'));
  }, hidden);
  await setHidden(true);
  const asked = seen.gets;
  await page.waitForTimeout(2500);
  assert.ok(seen.gets <= asked + 1, `asked ${seen.gets - asked} times while hidden`);
  const hiddenCount = seen.gets;
  await setHidden(false);
  await page.waitForFunction(() => true);
  await page.waitForTimeout(1500);
  assert.ok(seen.gets >= hiddenCount + 1, 'asked again once shown');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a game not reviewed yet offers a review, and a refusal is said plainly', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  const id = await finishedGame(page, 'Asa');
  const positions = (await call(page, 'GET', `/api/games/${id}`)).body.positions;
  page.allowedErrors.push(/status of 503/);
  let refuse = true;
  await page.route(`**/api/games/${id}/analysis`, (route) => {
    if (route.request().method() === 'GET') {
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ game_id: id, status: 'none' }) });
    } else if (refuse) {
      refuse = false;
      route.fulfill({
        status: 503, contentType: 'application/json',
        body: JSON.stringify({ error: { code: 'analysis_queue_full', message: 'the analysis queue is full' } }),
      });
    } else {
      route.fulfill({ status: 202, contentType: 'application/json', body: JSON.stringify(knownReview(id, positions)) });
    }
  });
  await page.goto(`${setup.server.base}/replay/${id}`);
  await page.waitForSelector('#review-request:not([hidden])');
  assert.equal(await page.textContent('#review-status'), 'This game has not been reviewed yet.');
  assert.equal(await page.textContent('#review-request'), 'Review this game');
  assert.equal(await page.textContent('#review-summary'), 'This game has not been reviewed yet.');
  await page.click('#review-request');
  await page.waitForFunction(() => document.querySelector('#review-status').textContent.startsWith('The engine is busy'));
  assert.equal(await page.textContent('#review-request'), 'Try again');
  await page.click('#review-request');
  await page.waitForSelector('#review[data-state="done"]');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('on a 390×844 phone the graph is full width, tall enough to tap, and a tap picks the ply', async () => {
  const page = await newPage(setup.browser, PHONE);
  const id = await finishedGame(page, 'Pip');
  const positions = (await call(page, 'GET', `/api/games/${id}`)).body.positions;
  const body = knownReview(id, positions);
  await answerReviews(page, id, [body]);
  await page.goto(`${setup.server.base}/replay/${id}`);
  await checkDoneReview(page, body, positions);
  const { frame, card, overflow } = await page.evaluate(() => ({
    frame: document.querySelector('#review-graph .graph-frame').getBoundingClientRect().toJSON(),
    card: document.querySelector('#review').getBoundingClientRect().toJSON(),
    overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  }));
  assert.equal(overflow, 0);
  assert.ok(frame.width >= card.width - 40, `graph ${frame.width}px wide in a card of ${card.width}px`);
  assert.ok(frame.width >= 330, `graph ${frame.width}px wide`);
  assert.ok(frame.height >= 120, `graph ${frame.height}px tall`);
  // The result's link leads to the review.
  await page.click('#result-see-review');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'review-title');
  await page.locator('#review-graph .graph-frame').scrollIntoViewIfNeeded();
  await checkPick(page, body, 3, true);
  assert.equal(await boardShown(page), positions[3].board);
  const small = await page.evaluate(() => [...document.querySelectorAll('#review button, #result button')]
    .filter((button) => button.getBoundingClientRect().width > 0 && button.getBoundingClientRect().height < 44)
    .map((button) => button.id));
  assert.deepEqual(small, []);
  await screenshot(page, 'review-phone');
  assert.deepEqual(await axeViolations(page), []);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('dark mode: the review reads and passes axe', async () => {
  const page = await newPage(setup.browser, { ...DESKTOP, colorScheme: 'dark' });
  const id = await finishedGame(page, 'Dax');
  const positions = (await call(page, 'GET', `/api/games/${id}`)).body.positions;
  const body = knownReview(id, positions);
  await answerReviews(page, id, [body]);
  await page.goto(`${setup.server.base}/replay/${id}`);
  await checkDoneReview(page, body, positions);
  await checkPick(page, body, 1);
  await screenshot(page, 'review-dark');
  assert.deepEqual(await axeViolations(page), []);
  await page.context().close();
});

for (const [label, options] of [['desktop', DESKTOP], ['phone', PHONE]]) {
  test(`${label}: a game that ends on its page gets its review without moving anything`, async () => {
    const page = await newPage(setup.browser, options);
    let asked = 0;
    await page.route('**/api/games/*/analysis', async (route) => {
      const id = new URL(route.request().url()).pathname.split('/')[3];
      asked += 1;
      if (asked === 1) {
        route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify({ game_id: id, status: 'queued' }) });
        return;
      }
      const positions = (await (await fetch(`${setup.server.base}/api/games/${id}`)).json()).positions;
      route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(knownReview(id, positions)) });
    });
    await page.goto(`${setup.server.base}/rules`);
    await call(page, 'POST', '/api/session', { nickname: 'Cls' });
    const created = await call(page, 'POST', '/api/games', { mode: 'same_device' });
    await page.goto(`${setup.server.base}${created.body.url}`);
    await page.waitForSelector('body[data-status="live"]');
    await watchLayoutShift(page);
    for (const square of SHORTEST) {
      await page.waitForSelector(`#board [data-square="${square}"].legal`);
      await page.click(`#board [data-square="${square}"]`);
    }
    await page.waitForSelector('#review[data-state="done"]');
    await page.waitForSelector('#review-summary p[data-side="white"]');
    await page.waitForTimeout(300);
    assert.equal(asked, 2);
    const { total, sources } = await layoutShift(page);
    assert.ok(total < 0.01, `layout shift ${total}: ${sources.join(', ')}`);
    assertNoConsoleErrors(page);
    await page.context().close();
  });
}

test('a finished record imported opens its replay, and the real engine reviews it', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await page.goto(`${setup.server.base}/rules`);
  await call(page, 'POST', '/api/session', { nickname: 'Imo' });
  const created = await call(page, 'POST', '/api/games', { mode: 'same_device' });
  await page.goto(`${setup.server.base}${created.body.url}`);
  await page.waitForSelector('body[data-status="live"]');
  // Through the page's import form, as a player would.
  await page.click('#import summary');
  await page.fill('#import-text', SHORTEST.join(' '));
  await page.click('#import-button');
  await page.waitForURL(/\/replay\/[A-Za-z0-9]+$/);
  const id = page.url().split('/').pop();
  await page.waitForSelector('#review:not([hidden])');
  await page.waitForSelector('#review[data-state="done"], #review[data-state="failed"]', { timeout: 120000 });
  assert.equal(await page.getAttribute('#review', 'data-state'), 'done', await page.textContent('#review-status'));
  const body = (await call(page, 'GET', `/api/games/${id}/analysis`)).body;
  const positions = (await call(page, 'GET', `/api/games/${id}`)).body.positions;
  assert.equal(body.status, 'done');
  assert.equal(body.plies.length, 9);
  // White's moves lose every disc: the engine calls at least one of them a blunder.
  assert.ok(body.plies.some((ply) => ply.color === 'white' && ply.class === 'blunder'), JSON.stringify(body.plies.map((ply) => ply.class)));
  await checkDoneReview(page, body, positions);
  const blunder = body.plies.find((ply) => ply.class === 'blunder');
  assert.equal(await page.textContent(`#moves li[data-ply="${blunder.ply}"] .review-mark`), '??');
  await checkPick(page, body, blunder.ply - 1);
  await checkPick(page, body, blunder.ply);
  assert.equal(await boardShown(page), positions[blunder.ply].board);
  assert.match(await page.textContent('#review-words'), new RegExp(`^${blunder.move} was a blunder: ${MINUS}\\d+ discs?; best was `));
  await screenshot(page, 'review-imported');
  if (blunder.best_line.length) {
    await page.click('#review-line');
    assert.match(await page.textContent('#review-next'), new RegExp(`^The best line instead of ${blunder.move}: `));
    assert.equal(await boardShown(page), blunder.best_line[0].board);
    await page.click('#review-line-exit');
    assert.equal(await boardShown(page), positions[blunder.ply].board);
  }
  assert.deepEqual(await axeViolations(page), []);
  assertNoConsoleErrors(page);
  await page.context().close();
});
