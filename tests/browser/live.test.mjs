// Timed games and connection drops: the clocks count down from the server's time, a game
// nobody starts is aborted, and a dropped connection is announced and resumed by itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoConsoleErrors, newPage, serverAndBrowser, setNickname, startComputerGame, waitForTurnOrEnd,
} from './helpers.mjs';

const setup = serverAndBrowser({ env: { OUTFLANK_MOVE_TIME_MS: '3000' } });

/** Two pages in one friend game, timed by the clock chosen on the home page (`control`, the
 *  default when empty); returns [black, white]. */
async function friendGame(control = '') {
  const host = await newPage(setup.browser);
  const guest = await newPage(setup.browser);
  await host.goto(`${setup.server.base}/`);
  await setNickname(host, 'Cleo');
  await host.check(`#friend-control input[value="${control}"]`);
  await host.click('#create-link');
  await host.waitForSelector('#room:not([hidden])');
  await guest.goto((await host.textContent('#room-link')).trim());
  await guest.fill('#nickname', 'Dan');
  await guest.click('#join');
  for (const page of [host, guest]) await page.waitForSelector('body[data-you]');
  const hostIsBlack = (await host.evaluate(() => document.body.dataset.you)) === 'black';
  return hostIsBlack ? [host, guest] : [guest, host];
}

test('the clock counts down and a game nobody starts is aborted', async () => {
  const [black, white] = await friendGame();
  const first = await black.textContent('#clock-black');
  assert.match(first, /^0:0[0-3]\.\d left$/);
  assert.equal(await white.textContent('#clock-white'), '0:03.0');
  await black.waitForFunction(() => document.querySelector('#clock-black').textContent.startsWith('0:01.'));
  for (const page of [black, white]) {
    await page.waitForSelector('#result:not([hidden])', { timeout: 10000 });
    assert.equal(await page.textContent('#result-title'), 'Game aborted');
  }
  assertNoConsoleErrors(black);
  assertNoConsoleErrors(white);
  await black.context().close();
  await white.context().close();
});

test('a friend game timed 3 + 2 on the home page gives each side three minutes', async () => {
  const [black, white] = await friendGame('3+2');
  assert.match(await black.textContent('#clock-black'), /^(3:00|2:5\d) left$/);
  assert.equal(await black.textContent('#clock-white'), '3:00');
  assert.equal(await white.textContent('#clock-white'), '3:00');
  assertNoConsoleErrors(black);
  assertNoConsoleErrors(white);
  await black.context().close();
  await white.context().close();
});

test('a dropped connection is announced, and the game resumes when the server is back', async () => {
  const page = await newPage(setup.browser);
  // While the server is away the page's reconnection attempts fail; that is expected here.
  page.allowedErrors.push(/WebSocket connection/, /ERR_CONNECTION_REFUSED/);
  await startComputerGame(page, setup.server.base, { name: 'Rex' });
  await waitForTurnOrEnd(page);
  await page.click('#board [data-square="d3"]');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length === 2);
  await page.evaluate(() => {
    const line = document.querySelector('#connection');
    new MutationObserver(() => {
      if (!line.hidden) window.lostMessage = line.textContent;
    }).observe(line, { attributes: true, childList: true, subtree: true });
  });
  setup.server = await setup.server.restart();
  await page.waitForFunction(() => window.lostMessage);
  assert.match(await page.evaluate(() => window.lostMessage), /Connection lost — reconnecting/);
  await page.waitForSelector('#connection', { state: 'hidden', timeout: 15000 });
  await waitForTurnOrEnd(page);
  assert.equal(await page.locator('#moves li').count(), 2);
  await page.locator('#board .square.legal').first().click();
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 3);
  assertNoConsoleErrors(page);
  await page.context().close();
});
