// The analysis board /analysis against the real server: the engine's values on the squares,
// playing both sides, taking back and branching, the address that carries the line, exact
// values near the end, the set-up box and its errors, the link from a finished game's replay,
// and axe, dark mode and a phone. Values are checked against what the server answers.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { assertNoConsoleErrors, axeViolations, boardShown, call, newPage, screenshot, serverAndBrowser } from './helpers.mjs';
import { layoutShift, movesAsShown, watchLayoutShift } from './game-helpers.mjs';

const setup = serverAndBrowser();

const DESKTOP = { viewport: { width: 1280, height: 800 }, bypassCSP: true };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true, bypassCSP: true };
const MINUS = '\u2212';
const START = '---------------------------OX------XO---------------------------';
// A line of 47 plies (a pass among them) that leaves White to move with 14 empty squares:
// every value there is exact.
const LATE = 'e6 f4 c3 d6 f6 e7 g4 c4 c5 b2 c6 d7 a1 f7 c7 b7 e8 f5 a7 b8 g5 b6 a6 b5 g8 g6 a5 g7 a8 h4 h7 f8 h6 c8 d8 h8 pass b4 a4 h5 b3 c2 g3 e3 d1 b1 a2'.split(' ');
// The shortest possible game: White has no discs left after nine plies, Black 13 – White 0.
const SHORTEST = ['d3', 'c3', 'b3', 'd2', 'e1', 'd6', 'd7', 'e3', 'f4'];

const signed = (value) => (value > 0 ? `+${value}` : value < 0 ? `${MINUS}${-value}` : '0');

/** A POST to the server from the test itself: {status, body}. */
async function post(pathName, body) {
  const response = await fetch(`${setup.server.base}${pathName}`, {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

/** The values on the board: {square: {text, best, exact, label}} for every marked square. */
const marksShown = (page) => page.$$eval('#board .square.page-mark', (squares) => Object.fromEntries(squares.map((square) => [
  square.dataset.square,
  {
    text: square.querySelector('.mark-text')?.textContent,
    best: !square.classList.contains('mark-value'),
    exact: square.classList.contains('mark-exact'),
    label: square.getAttribute('aria-label'),
  },
])));

/** What the board should show for the server's `values`. */
function expectedMarks(values) {
  const best = values.moves[0].value;
  return Object.fromEntries(values.moves.filter((entry) => entry.move !== 'pass').map((entry) => [entry.move, {
    text: signed(entry.value), best: entry.value === best, exact: entry.exact,
  }]));
}

const withoutLabels = (marks) => Object.fromEntries(Object.entries(marks).map(([square, { label, ...rest }]) => [square, rest]));

/** The page's address: path and query. */
const address = (page) => { const url = new URL(page.url()); return `${url.pathname}${url.search}`; };

/** Waits until the engine's values for the position shown are drawn. */
const valuesShown = (page) => page.waitForSelector('#engine[data-state="done"]');

/** Holds every values request until `release()`; `seen` lists the moves of each request. */
async function holdValues(page) {
  const seen = [];
  let open;
  let gate = new Promise((resolve) => { open = resolve; });
  await page.route('**/api/analysis/values', async (route) => {
    seen.push(JSON.parse(route.request().postData()).moves || []);
    await gate;
    await route.continue();
  });
  return {
    seen,
    release() { open(); },
    hold() { gate = new Promise((resolve) => { open = resolve; }); },
  };
}

test('the opening: values on the four squares, play f5, the line and address follow, take back and branch', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  page.allowedErrors.push(/status of 409/);
  const held = await holdValues(page);
  await page.goto(`${setup.server.base}/analysis`);
  // While the engine thinks the page says so, with the legal moves ready to play.
  await page.waitForSelector('#board .square.legal');
  assert.equal(await page.getAttribute('#engine', 'data-state'), 'thinking');
  assert.equal(await page.textContent('#engine-status'), 'The engine is thinking…');
  assert.equal(await page.getAttribute('#board', 'aria-busy'), 'true');
  assert.equal(await page.locator('#board .page-mark').count(), 0);
  assert.deepEqual(await page.$$eval('#values-list button', (buttons) => buttons.map((button) => button.dataset.move)), ['d3', 'c4', 'f5', 'e6']);
  assert.equal(await boardShown(page), START);
  assert.equal(await page.textContent('#turn'), 'Black to move');
  assert.equal(await page.textContent('#empties'), '60 empty');
  await watchLayoutShift(page);
  held.release();
  await valuesShown(page);
  const opening = (await post('/api/analysis/values', {})).body.values;
  const shown = await marksShown(page);
  assert.deepEqual(withoutLabels(shown), expectedMarks(opening));
  assert.deepEqual(Object.keys(shown).sort(), ['c4', 'd3', 'e6', 'f5']);
  assert.equal(shown.d3.label, `d3, empty, legal move, best move ${signed(opening.moves.find((entry) => entry.move === 'd3').value)}`);
  assert.equal(await page.getAttribute('#board', 'aria-busy'), 'false');
  // The eval bar beside the board: the best value, Black to move.
  const best = opening.moves[0].value;
  assert.equal(await page.getAttribute('#eval-bar', 'aria-label'), `Evaluation: ${best > 0 ? `Black +${best}` : best < 0 ? `White +${-best}` : 'even'}${opening.moves[0].exact ? ', exact' : ''}`);
  assert.equal(await page.textContent('#engine-best'), `Best for Black: ${opening.moves.filter((entry) => entry.value === opening.moves[0].value).map((entry) => entry.move).join(', ').replace(/, ([^,]*)$/, ' or $1')} (${signed(opening.moves[0].value)}).`);
  // Each move of the line numbered as Othello counts them: the discs placed, from 1.
  const numbered = opening.best_line.map((move, index) => `${index + 1}. ${move}`);
  assert.equal(await page.textContent('#engine-line'), `Best line: ${numbered.join(' ')}`);
  const { total, sources } = await layoutShift(page);
  assert.ok(total < 0.01, `layout shift ${total}: ${sources.join(', ')}`);

  // f5 for Black: the board, the line, the address and the values follow.
  held.hold();
  const asked = page.waitForRequest('**/api/analysis/values');
  await page.click('#board [data-square="f5"]');
  await page.waitForURL(`${setup.server.base}/analysis?moves=f5`);
  const afterF5 = (await post('/api/analysis/position', { moves: ['f5'] })).body;
  assert.equal(await movesAsShown(page), '1. f5');
  await page.waitForFunction(() => document.querySelector('#turn').textContent === 'White to move');
  assert.equal(await boardShown(page), afterF5.positions[1].board);
  assert.equal(await page.textContent('#count-black'), '4');
  assert.equal(await page.textContent('#count-white'), '1');
  assert.equal(await page.getAttribute('#moves li[data-ply="1"] button', 'aria-current'), 'step');
  await asked;
  assert.equal(await page.getAttribute('#engine', 'data-state'), 'thinking');

  // Take back before f5's values come: the start again, its values at once (kept), the line
  // kept for stepping forward.
  await page.click('#nav-back');
  await page.waitForURL(`${setup.server.base}/analysis?moves=f5&ply=0`);
  assert.equal(await boardShown(page), START);
  await valuesShown(page);
  assert.deepEqual(withoutLabels(await marksShown(page)), expectedMarks(opening));
  assert.equal(await movesAsShown(page), '1. f5');
  // f5's answer, come late, is not drawn over the start (but is kept).
  const late = page.waitForResponse('**/api/analysis/values');
  held.release();
  await late;
  await page.evaluate(() => new Promise((resolve) => { setTimeout(resolve, 0); }));
  assert.equal(await page.getAttribute('#engine', 'data-state'), 'done');
  assert.deepEqual(withoutLabels(await marksShown(page)), expectedMarks(opening));
  assert.equal(await page.textContent('#turn'), 'Black to move');
  // → and ← step through the line from the keyboard.
  await page.keyboard.press('ArrowRight');
  await page.waitForURL(`${setup.server.base}/analysis?moves=f5`);
  assert.equal(await boardShown(page), afterF5.positions[1].board);
  await valuesShown(page);
  const f5Values = (await post('/api/analysis/values', { moves: ['f5'] })).body.values;
  assert.deepEqual(withoutLabels(await marksShown(page)), expectedMarks(f5Values));
  assert.equal(held.seen.length, 2, 'the values of a position are asked for once');
  await page.keyboard.press('ArrowLeft');
  await page.waitForURL(`${setup.server.base}/analysis?moves=f5&ply=0`);
  assert.equal(await boardShown(page), START);

  // A link copied says so until the line changes.
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  await page.click('#copy-link');
  await page.waitForFunction(() => document.querySelector('#copy-status').textContent !== '');
  // Another move from the start branches: the line is cut there and goes on with it.
  await page.click('#board [data-square="d3"]');
  await page.waitForURL(`${setup.server.base}/analysis?moves=d3`);
  assert.equal(await page.textContent('#copy-status'), '');
  assert.equal(await page.textContent('#copy-link'), 'Copy link');
  assert.equal(await movesAsShown(page), '1. d3');
  // Both sides play freely: White answers c3 through the typed move, then Black f5 on the list.
  await valuesShown(page);
  await page.fill('#move-input', 'c3');
  await page.press('#move-input', 'Enter');
  await page.waitForURL(`${setup.server.base}/analysis?moves=d3c3`);
  await valuesShown(page);
  const values = (await post('/api/analysis/values', { moves: ['d3', 'c3'] })).body.values;
  const listed = await page.$$eval('#values-list button', (buttons) => buttons.map((button) => button.textContent));
  assert.deepEqual(listed, values.moves.map((entry) => `${entry.move}${signed(entry.value)}: ${signed(entry.value)} for Black, estimate${entry.value === values.moves[0].value ? ', best' : ''}`));
  await page.click(`#values-list button[data-move="${values.moves[0].move}"]`);
  await page.waitForURL(`${setup.server.base}/analysis?moves=d3c3${values.moves[0].move}`);
  assert.equal(await movesAsShown(page), `1. d3 2. c3 3. ${values.moves[0].move}`);
  // Home and End jump; a ply of the list is a button that goes there.
  await page.focus('#nav-end');
  await page.keyboard.press('Home');
  await page.waitForURL(/ply=0$/);
  await page.keyboard.press('End');
  await page.waitForURL(`${setup.server.base}/analysis?moves=d3c3${values.moves[0].move}`);
  await page.click('#moves li[data-ply="2"] button');
  await page.waitForURL(`${setup.server.base}/analysis?moves=d3c3${values.moves[0].move}&ply=2`);
  assert.equal(await page.isDisabled('#nav-forward'), false);
  // An illegal typed move is refused in words, and nothing changes.
  await page.fill('#move-input', 'a1');
  await page.press('#move-input', 'Enter');
  assert.equal(await page.textContent('#board-error'), 'a1 is not a legal move for Black here.');
  assert.equal(address(page), `/analysis?moves=d3c3${values.moves[0].move}&ply=2`);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a line near the end: exact values, the best line, and the ply of the address', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  const moves = LATE.filter((move) => move !== 'pass').join('');
  await page.goto(`${setup.server.base}/analysis?moves=${moves}`);
  await valuesShown(page);
  const answer = (await post('/api/analysis/values', { moves: LATE })).body;
  assert.equal(answer.empties, 14);
  assert.ok(answer.values.moves.every((entry) => entry.exact), 'the server solves 14 empties exactly');
  // The pass is back in the line (the address leaves it out), and the address is unchanged.
  assert.equal(address(page), `/analysis?moves=${moves}`);
  assert.equal(await page.locator('#moves li').count(), LATE.length);
  assert.equal(await page.textContent('#moves li[data-ply="37"] .move'), 'Black pass');
  assert.equal(await boardShown(page), answer.positions[LATE.length].board);
  assert.equal(await page.textContent('#turn'), 'White to move');
  assert.equal(await page.textContent('#empties'), '14 empty');
  const shown = await marksShown(page);
  assert.deepEqual(withoutLabels(shown), expectedMarks(answer.values));
  const best = answer.values.moves[0];
  assert.equal(shown[best.move].text, signed(best.value));
  assert.equal(shown[best.move].label, `${best.move}, empty, legal move, best move ${signed(best.value)}, exact`);
  assert.equal(await page.textContent('#engine-best'), `Best for White: ${best.move} (${signed(best.value)}, exact).`);
  assert.equal(await page.textContent(`#values-list button[data-move="${best.move}"] .value-number.exact`), signed(best.value));

  // The best line, step by step, and back.
  const line = answer.values.best_line;
  const lineAnswer = (await post('/api/analysis/position', { moves: [...LATE, ...line] })).body;
  await page.click('#best-line');
  await page.waitForSelector('#best-line-next:not([hidden])');
  assert.equal(await boardShown(page), lineAnswer.positions[LATE.length + 1].board);
  assert.equal(await page.textContent('#line-note'), `The best line: ${line[0]}, step 1 of ${lineAnswer.moves.length - LATE.length}.`);
  await page.click('#best-line-next');
  assert.equal(await boardShown(page), lineAnswer.positions[LATE.length + 2].board);
  await page.click('#best-line-exit');
  assert.equal(await boardShown(page), answer.positions[LATE.length].board);
  assert.equal(await page.isVisible('#line-note'), false);
  assert.equal(address(page), `/analysis?moves=${moves}`);

  // ply=N opens the line at that ply.
  await page.goto(`${setup.server.base}/analysis?moves=${moves}&ply=10`);
  await page.waitForSelector('#moves li[data-ply="10"] button[aria-current="step"]');
  assert.equal(await boardShown(page), answer.positions[10].board);
  assert.equal(await page.locator('#moves li').count(), LATE.length);
  // After h8 Black has no move: the server puts the pass in, and White is to move.
  await page.click('#moves li[data-ply="36"] button');
  await page.waitForURL(`${setup.server.base}/analysis?moves=${moves}&ply=36`);
  await page.waitForFunction(() => document.querySelector('#turn').textContent === 'White to move');
  assert.equal(await boardShown(page), answer.positions[36].board);
  // White's move of the line, played here, steps along the line past the pass (no new branch).
  await page.click(`#board [data-square="${LATE[37]}"]`);
  await page.waitForURL(`${setup.server.base}/analysis?moves=${moves}&ply=38`);
  assert.equal(await page.locator('#moves li').count(), LATE.length);
  assert.equal(await boardShown(page), answer.positions[38].board);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a busy engine is said plainly, and asked again after Retry-After', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  page.allowedErrors.push(/status of 503/);
  let refused = 0;
  await page.route('**/api/analysis/values', (route) => {
    if (refused > 0) {
      route.continue();
      return;
    }
    refused += 1;
    route.fulfill({
      status: 503, contentType: 'application/json', headers: { 'Retry-After': '2' },
      body: JSON.stringify({ error: { code: 'analysis_busy', message: 'the engine is busy with other positions' } }),
    });
  });
  await page.goto(`${setup.server.base}/analysis?moves=f5`);
  await page.waitForSelector('#engine[data-state="busy"]');
  assert.match(await page.textContent('#engine-status'), /^The engine is busy with other positions\. Trying again in [12] s…$/);
  assert.equal(await page.isVisible('#engine-retry'), true);
  assert.equal(await page.locator('#board .page-mark').count(), 0);
  // The board still plays while the engine is busy.
  assert.equal(await page.locator('#board .square.legal').count(), 3);
  await valuesShown(page);
  assert.equal(refused, 1);
  assert.equal(await page.locator('#board .page-mark').count(), 3);
  assert.equal(await page.isVisible('#engine-retry'), false);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('a position pasted in the move box goes to Set up, ready to load, instead of being refused as a square', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await page.goto(`${setup.server.base}/analysis`);
  await valuesShown(page);
  const afterF5 = (await post('/api/analysis/position', { moves: ['f5'] })).body.positions[1].board;
  await page.evaluate((text) => {
    const data = new DataTransfer();
    data.setData('text', text);
    const paste = new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true });
    document.querySelector('#move-input').dispatchEvent(paste);
  }, `${afterF5} O`);
  assert.equal(await page.inputValue('#move-input'), '');
  assert.equal(await page.inputValue('#setup-text'), `${afterF5} O`);
  assert.equal(await page.textContent('#setup-error'), 'That is more than a move, so it is here to load: press Load.');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'setup-text');
  await page.click('#setup-load');
  await page.waitForURL(`${setup.server.base}/analysis?start=${afterF5}O`);
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('set up: a move list sets the line, a bad one shows the server\'s words, a position string sets the start', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  page.allowedErrors.push(/status of 422/, /status of 409/);
  await page.goto(`${setup.server.base}/analysis`);
  await valuesShown(page);
  await page.fill('#setup-text', 'f5 d6 c3');
  await page.click('#setup-load');
  await page.waitForURL(`${setup.server.base}/analysis?moves=f5d6c3`);
  assert.equal(await movesAsShown(page), '1. f5 2. d6 3. c3');
  assert.equal(await page.textContent('#opening-name'), 'Perpendicular');
  assert.equal(await page.textContent('#setup-error'), '');

  const refused = await post('/api/analysis/position', { record: 'f5 d6 a1' });
  assert.equal(refused.status, 422);
  const message = refused.body.error.message;
  await page.fill('#setup-text', 'f5 d6 a1');
  await page.click('#setup-load');
  await page.waitForFunction(() => document.querySelector('#setup-error').textContent !== '');
  const words = await page.textContent('#setup-error');
  assert.equal(words, `Not loaded: ${message[0].toUpperCase()}${message.slice(1)}${/[.!?]$/.test(message) ? '' : '.'} The board is unchanged.`);
  assert.match(words, /a1/);
  assert.equal(address(page), '/analysis?moves=f5d6c3');
  assert.equal(await movesAsShown(page), '1. f5 2. d6 3. c3');

  // A position string: White to move from a position of its own, which the address carries.
  const afterF5 = (await post('/api/analysis/position', { moves: ['f5'] })).body.positions[1].board;
  await page.fill('#setup-text', `${afterF5} O`);
  await page.click('#setup-load');
  await page.waitForURL(`${setup.server.base}/analysis?start=${afterF5}O`);
  assert.equal(await page.textContent('#setup-error'), '');
  assert.equal(await boardShown(page), afterF5);
  assert.equal(await page.textContent('#turn'), 'White to move');
  await page.click('#board [data-square="f6"]');
  await page.waitForURL(`${setup.server.base}/analysis?moves=f6&start=${afterF5}O`);
  // A set-up position with one disc placed: its first move is move 2.
  assert.equal(await movesAsShown(page), '2. f6');
  // The link opens the same board.
  await page.goto(`${setup.server.base}/analysis?moves=f6&start=${afterF5}O`);
  await page.waitForSelector('#moves li[data-ply="1"] button[aria-current="step"]');
  assert.equal(await page.textContent('#turn'), 'Black to move');
  // Start position resets.
  await page.click('#setup-reset');
  await page.waitForURL(`${setup.server.base}/analysis`);
  assert.equal(await boardShown(page), START);
  assert.equal(await movesAsShown(page), '');
  assertNoConsoleErrors(page);
  await page.context().close();
});

test('"Analyse this position" on a finished game\'s replay opens its line at the move looked at', async () => {
  const page = await newPage(setup.browser, DESKTOP);
  await page.route('**/api/games/*/analysis', (route) => route.fulfill({
    status: 200, contentType: 'application/json', body: JSON.stringify({ status: 'none' }),
  }));
  await page.goto(`${setup.server.base}/rules`);
  await call(page, 'POST', '/api/session', { nickname: 'Ana' });
  const imported = await call(page, 'POST', '/api/games/import', { record: SHORTEST.join(' '), level: 1 });
  assert.equal(imported.status, 201, JSON.stringify(imported.body));
  const stored = (await call(page, 'GET', `/api/games/${imported.body.id}`)).body;
  await page.goto(`${setup.server.base}${imported.body.url}`);
  await page.waitForSelector('#review-analyse');
  assert.equal(await page.getAttribute('#review-analyse', 'href'), `/analysis?moves=${SHORTEST.join('')}`);
  await page.click('#moves li[data-ply="5"] button');
  await page.waitForFunction(() => document.querySelector('#review-analyse').getAttribute('href') === '/analysis?moves=d3c3b3d2e1');
  await page.click('#review-analyse');
  await page.waitForURL(`${setup.server.base}/analysis?moves=d3c3b3d2e1`);
  await page.waitForSelector('#moves li[data-ply="5"] button[aria-current="step"]');
  assert.equal(await movesAsShown(page), '1. d3 2. c3 3. b3 4. d2 5. e1');
  assert.equal(await boardShown(page), stored.positions[5].board);
  assert.equal(await page.textContent('#turn'), 'White to move');
  assertNoConsoleErrors(page);
  await page.context().close();
});

for (const [label, options] of [['light', DESKTOP], ['dark', { ...DESKTOP, colorScheme: 'dark' }], ['phone', PHONE]]) {
  test(`${label}: axe finds nothing${label === 'phone' ? ', and the board and controls fit a 390×844 phone' : ''}`, async () => {
    const page = await newPage(setup.browser, options);
    await page.goto(`${setup.server.base}/analysis?moves=f5d6c3d3c4`);
    await valuesShown(page);
    assert.equal(await page.locator('#board .page-mark').count(), (await post('/api/analysis/position', { moves: ['f5', 'd6', 'c3', 'd3', 'c4'] })).body.legal_moves.length);
    assert.deepEqual(await axeViolations(page), []);
    await page.click('#best-line');
    await page.waitForSelector('#best-line-exit:not([hidden])');
    assert.deepEqual(await axeViolations(page), []);
    await page.click('#best-line-exit');
    if (label === 'phone') {
      const sizes = await page.evaluate(() => ({
        overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
        board: document.querySelector('#board .board').getBoundingClientRect().width,
        square: document.querySelector('#board .square').getBoundingClientRect().width,
        small: [...document.querySelectorAll('main button, main a.button, main input, main textarea')]
          .filter((node) => node.getBoundingClientRect().width > 0 && node.getBoundingClientRect().height < 44)
          .map((node) => node.id || node.textContent),
      }));
      assert.equal(sizes.overflow, 0);
      assert.ok(sizes.board >= 390 - 24, `board ${sizes.board}px`);
      assert.ok(sizes.square >= 44, `square ${sizes.square}px`);
      assert.deepEqual(sizes.small, []);
    }
    await page.evaluate(() => window.scrollTo(0, 0));
    await screenshot(page, `analysis-${label}`);
    assertNoConsoleErrors(page);
    await page.context().close();
  });
}
