// Puzzles from your own games (/puzzles), against the real server and engine: a game played on
// one device and reviewed gives its player puzzles; a wrong answer is told and counted, the best
// move solves the puzzle; a visitor may try a shared puzzle and see its solution; axe finds
// nothing, in dark mode and on a phone.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoConsoleErrors, axeViolations, boardShown, call, newPage, screenshot, serverAndBrowser } from './helpers.mjs';

const setup = serverAndBrowser();

const DESKTOP = { viewport: { width: 1280, height: 800 }, bypassCSP: true };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, bypassCSP: true };
// The shortest possible game: both sides blunder on the way to Black 13 – White 0.
const SHORTEST = 'd3 c3 b3 d2 e1 d6 d7 e3 f4';

/**
 * Plays `moves` in a new game on one device (both sides the page's player), over the game's
 * WebSocket from the page, until the game ends; returns its id.
 */
async function playedOnOneDevice(page, moves) {
  const created = await call(page, 'POST', '/api/games', { mode: 'same_device' });
  assert.equal(created.status, 201, JSON.stringify(created.body));
  const id = created.body.id;
  const outcome = await page.evaluate(async ({ id, moves }) => {
    const socket = new WebSocket(`${location.origin.replace(/^http/, 'ws')}/api/games/${id}/ws`);
    const inbox = [];
    let wake = () => {};
    socket.onmessage = (event) => { inbox.push(JSON.parse(event.data)); wake(); };
    await new Promise((resolve, reject) => { socket.onopen = resolve; socket.onerror = reject; });
    const next = async (type) => {
      for (;;) {
        const index = inbox.findIndex((msg) => msg.type === type || msg.type === 'error');
        if (index >= 0) return inbox.splice(index, 1)[0];
        await new Promise((resolve) => { wake = resolve; });
      }
    };
    socket.send(JSON.stringify({ type: 'join', game_id: id }));
    await next('snapshot');
    for (const square of moves.split(' ')) {
      socket.send(JSON.stringify({ type: 'move', square }));
      const answer = await next('moved');
      if (answer.type === 'error') return answer;
    }
    const ended = await next('ended');
    socket.close();
    return ended;
  }, { id, moves });
  assert.equal(outcome.type, 'ended', JSON.stringify(outcome));
  return id;
}

/** A player `nickname` whose game played on one device has been reviewed: their page and puzzles. */
async function playerWithPuzzles(options, nickname) {
  const page = await newPage(setup.browser, options);
  await page.goto(`${setup.server.base}/rules`);
  assert.equal((await call(page, 'POST', '/api/session', { nickname })).status, 200);
  const gameId = await playedOnOneDevice(page, SHORTEST);
  for (let tries = 0; tries < 600; tries += 1) {
    const analysis = await call(page, 'GET', `/api/games/${gameId}/analysis`);
    if (analysis.body.status === 'done') break;
    assert.notEqual(analysis.body.status, 'failed');
    await page.waitForTimeout(100);
  }
  const mine = (await call(page, 'GET', '/api/puzzles')).body;
  assert.ok(mine.puzzles.length > 0, JSON.stringify(mine));
  return { page, mine, gameId };
}

test('your puzzles: a wrong answer is told and counted, the best move solves it', async () => {
  const { page, mine, gameId } = await playerWithPuzzles(DESKTOP, 'Pia');
  await page.goto(`${setup.server.base}/puzzles`);
  const first = mine.puzzles[0];
  await page.waitForURL(`${setup.server.base}/puzzles/${first.id}`);
  const side = first.side_to_move === 'black' ? 'Black' : 'White';
  assert.equal(await page.textContent('#prompt'), `${side} to play: find the best move.`);
  assert.equal(await page.textContent('#context'), `In your game you played ${first.played} here and lost ${first.loss} discs.`);
  assert.equal(await boardShown(page), first.board);
  assert.equal(await page.textContent('#counts'), `${mine.counts.total} puzzle${mine.counts.total === 1 ? '' : 's'}, 0 solved.`);
  assert.equal(await page.locator('#puzzle-list li').count(), mine.puzzles.length);
  assert.equal(await page.getAttribute('#game-link', 'href'), `/replay/${gameId}`);

  const { values } = (await call(page, 'GET', `/api/puzzles/${first.id}/solution`)).body;
  const [best, wrong] = values;
  await page.click(`#board [data-square="${wrong.move}"]`);
  await page.waitForSelector('#feedback.wrong');
  const minus = (n) => (n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : '0');
  const lost = best.value - wrong.value;
  assert.match(await page.textContent('#feedback'),
    new RegExp(`^${wrong.move} is worth ${minus(wrong.value).replace('+', '\\+')}, ${lost} discs? less than the best.*Try again\\.$`));
  assert.match(await page.textContent('#puzzle-list li:first-child button'), /1 try$/);
  const afterWrong = (await call(page, 'GET', `/api/puzzles/${first.id}`)).body;
  assert.equal(afterWrong.attempts, 1);
  assert.equal(await page.textContent(`#board [data-square="${wrong.move}"].page-mark .mark-text`), minus(wrong.value));

  // A square that is no legal move is refused by the server, and not counted.
  const legal = new Set(first.legal_moves.map((move) => move.square));
  const illegal = ['a1', 'h8', 'a8', 'h1'].find((square) => !legal.has(square));
  await page.fill('#answer-input', illegal);
  await page.press('#answer-input', 'Enter');
  await page.waitForFunction((square) => document.querySelector('#feedback').textContent.startsWith(square), illegal);
  assert.equal(await page.textContent('#feedback'), `${illegal} is not a legal move here; the legal moves are shown on the board.`);
  // The answer typed, as a keyboard player would.
  await page.fill('#answer-input', best.move.toUpperCase());
  await page.press('#answer-input', 'Enter');
  await page.waitForSelector('#feedback.right');
  assert.match(await page.textContent('#feedback'), new RegExp(`^Right! ${best.move} is the best move: ${minus(best.value).replace('+', '\\+')}`));
  assert.match(await page.textContent('#puzzle-list li:first-child button'), /Solved$/);
  assert.equal(await page.textContent('#counts'), `${mine.counts.total} puzzle${mine.counts.total === 1 ? '' : 's'}, 1 solved.`);
  const stored = (await call(page, 'GET', `/api/puzzles/${first.id}`)).body;
  assert.deepEqual([stored.attempts, stored.solved], [2, true]);
  await screenshot(page, 'puzzles');
  assert.deepEqual(await axeViolations(page), []);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a visitor opens a shared puzzle, sees it is someone else\'s, and can see the solution', async () => {
  const { page: owner, mine } = await playerWithPuzzles(DESKTOP, 'Quin');
  const puzzle = mine.puzzles[0];
  await owner.context().close();
  const visitor = await newPage(setup.browser, DESKTOP);
  await visitor.goto(`${setup.server.base}/puzzles/${puzzle.id}`);
  await visitor.waitForSelector('#solver:not([hidden])');
  assert.equal(await visitor.isVisible('#visitor-card'), true);
  assert.equal(await visitor.isVisible('#list-card'), false);
  assert.match(await visitor.textContent('#context'), /^In the game, the player played /);
  await visitor.click('#show-solution');
  await visitor.waitForSelector('#show-solution:disabled');
  const solution = (await call(visitor, 'GET', `/api/puzzles/${puzzle.id}/solution`)).body;
  assert.match(await visitor.textContent('#feedback'), new RegExp(`^The best move is ${solution.solution} `));
  assert.equal(await visitor.locator(`#board [data-square="${solution.solution}"].page-mark`).count(), 1);
  // Answering needs a session: the page says so instead of failing.
  await visitor.click(`#board [data-square="${solution.solution}"]`);
  await visitor.waitForSelector('#feedback.wrong');
  assert.equal(await visitor.textContent('#feedback'), 'Choose a nickname on the home page to answer puzzles.');
  visitor.allowedErrors.push(/status of 401/);
  assertNoConsoleErrors(visitor);
  await visitor.context().close();
});

test('without a session or puzzles the page says where puzzles come from', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await page.goto(`${setup.server.base}/puzzles`);
  await page.waitForSelector('#no-puzzles:not([hidden])');
  assert.match(await page.textContent('#no-puzzles-text'), /^Puzzles come from the mistakes in your own games\./);
  assert.equal(await page.isVisible('#solver'), false);
  await page.goto(`${setup.server.base}/puzzles/k7Hq2mXp9R-3`);
  await page.waitForSelector('#no-puzzles:not([hidden])');
  assert.equal(await page.textContent('#no-puzzles-title'), 'No such puzzle');
  page.allowedErrors.push(/status of 404/);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('dark mode and a phone: the puzzle reads, fits and passes axe', async () => {
  const { page, mine } = await playerWithPuzzles({ ...PHONE, colorScheme: 'dark' }, 'Ria');
  await page.goto(`${setup.server.base}/puzzles`);
  await page.waitForURL(`${setup.server.base}/puzzles/${mine.puzzles[0].id}`);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.equal(overflow, 0);
  const boardBox = await page.locator('#board').boundingBox();
  assert.ok(boardBox.width >= 360, `board ${boardBox.width} px wide`);
  assert.deepEqual(await axeViolations(page), []);
  await screenshot(page, 'puzzles-phone-dark');
  assertNoConsoleErrors(page);
  await page.context().close();
});
