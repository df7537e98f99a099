// Trust and safety in the browser, from a report to a sanction and back: Ann loses a ranked
// game to Bob and reports him from the finished game; Mia, made a moderator with the server
// binary, finds him in the queue, opens his file and sanctions him for engine assistance; Ann
// sees her report acted on, the refund notice and her rating back, Bob's profile his label,
// the leaderboard no longer him; the log's Undo lifts it again. Also blocking (the lobby hides
// who you blocked), the desk refused to everyone else, and finding those players by the start
// of their name on the leaderboard page.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoConsoleErrors, axeViolations, launchBrowser, newPage, screenshot, signInAs, startProvider, startServer,
} from './helpers.mjs';
import { assertBoardUncovered } from './game-helpers.mjs';

const GAME_URL = /\/game\/[A-Za-z0-9]+$/;
// The first six plies of the shortest game: three discs a side, so that resigning is rated.
const OPENING = ['d3', 'c3', 'b3', 'd2', 'e1', 'd6'];

let browser;
let provider;
let server;

before(async () => {
  provider = await startProvider();
  // Nobody gets the computer within the test: the two people pair with each other.
  server = await startServer({ ...provider.env, OUTFLANK_COMPUTER_AFTER_MS: '600000' });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
});

const rows = (page, selector) => page.$$eval(selector, (items) => items.map((item) => item.textContent.replace(/\s+/g, ' ').trim()));

/** Signs `page` in again as `account`, whose public name is chosen already: home at once. */
async function signInAgain(page, account) {
  const escaped = provider.issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  page.allowedErrors.push(new RegExp(`\\(${escaped}/favicon\\.ico\\)$`));
  await page.goto(`${server.base}/auth/google?return_to=%2F`);
  await page.waitForSelector('input[name="login"]');
  await page.getByLabel('Account').fill(account);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(`${server.base}/`);
}

/** Ann and Bob meet in the ranked queue and play the opening; Ann resigns. Returns the game's id. */
async function annLosesToBob(ann, bob) {
  await ann.click('#ranked-game');
  await ann.waitForFunction(() => /Searching/.test(document.querySelector('#ranked-status').textContent));
  await bob.click('#ranked-game');
  await Promise.all([ann.waitForURL(GAME_URL), bob.waitForURL(GAME_URL)]);
  for (const page of [ann, bob]) await page.waitForSelector('body[data-you]');
  const black = (await ann.evaluate(() => document.body.dataset.you)) === 'black' ? ann : bob;
  const white = black === ann ? bob : ann;
  for (const [index, square] of OPENING.entries()) {
    const [mover, other] = index % 2 === 0 ? [black, white] : [white, black];
    await mover.waitForSelector(`#board [data-square="${square}"].legal`);
    await mover.click(`#board [data-square="${square}"]`);
    await other.waitForFunction((count) => document.querySelectorAll('#moves li').length === count, index + 1);
  }
  await ann.click('#resign');
  await ann.click('#resign-confirm');
  for (const page of [ann, bob]) await page.waitForSelector('#result-rating .rating-line');
  assert.match(await ann.textContent('#result-rating'), /^Your rating: [\u2212-]20 · 1,180\?$/);
  return new URL(ann.url()).pathname.split('/')[2];
}

describe('reports, sanctions and blocks', () => {
  test('a report from a game leads to a sanction, a refund and a label, and Undo lifts it', async () => {
    // Axe is put in the pages by script, past their Content Security Policy.
    const ann = await newPage(browser, { bypassCSP: true });
    const bob = await newPage(browser);
    const mia = await newPage(browser, { bypassCSP: true });
    // Reporting twice is refused (409); the desk is refused to Mia before she moderates (403).
    ann.allowedErrors.push(/status of 409/);
    mia.allowedErrors.push(/status of 403/);
    await signInAs(ann, server.base, provider, 'ann-sub', 'Ann');
    await signInAs(bob, server.base, provider, 'bob-sub', 'Bob');
    const gameId = await annLosesToBob(ann, bob);

    // The finished game offers Ann to report or block Bob, in a card away from the board.
    await ann.waitForSelector('#conduct:not([hidden]) #block-player');
    assert.equal(await ann.textContent('#conduct-title'), 'Report or block');
    assert.equal(await ann.textContent('#report-player'), 'Report Bob');
    assert.equal(await ann.textContent('#block-player'), 'Block Bob');
    await assertBoardUncovered(ann, 'with the report card');
    // Bob, the winner, may report Ann too; nobody is offered the computer or themselves.
    await bob.waitForSelector('#conduct:not([hidden])');
    assert.equal(await bob.textContent('#report-player'), 'Report Ann');

    // The dialog: a reason is needed, details are counted up to 500 characters.
    await ann.click('#report-player');
    assert.equal(await ann.isVisible('#report-dialog'), true);
    assert.equal(await ann.textContent('#report-title'), 'Report Bob');
    assert.equal(await ann.isVisible('#report-who'), false, 'a player reports their opponent: no seat to choose');
    assert.deepEqual(await rows(ann, '#report-why label .choice-name'),
      ['Engine assistance', 'Offensive name', 'Rating manipulation', 'Something else']);
    assert.equal(await ann.textContent('#report-count'), '0 / 500 characters');
    await ann.click('#report-send');
    assert.equal(await ann.textContent('#report-error'), 'Choose what is wrong.');
    await ann.check('#report-why input[value="other"]');
    await ann.click('#report-send');
    assert.equal(await ann.textContent('#report-error'), 'Say what happened in the details.');
    assert.equal(await ann.evaluate(() => document.activeElement.id), 'report-details');
    await ann.check('#report-why input[value="engine"]');
    await ann.fill('#report-details', 'Every move was the best one, instantly.');
    assert.equal(await ann.textContent('#report-count'), '39 / 500 characters');
    assert.equal(await ann.getAttribute('#report-details', 'maxlength'), '500');
    await screenshot(ann, 'report-dialog');
    assert.deepEqual(await axeViolations(ann), [], 'the report dialog');
    await ann.click('#report-send');
    await ann.waitForSelector('#report-dialog', { state: 'hidden' });
    assert.equal(await ann.textContent('#conduct-status'), 'Report received: a moderator will look at what Bob did.');
    // A second report while the first is open is refused, said in the dialog.
    await ann.click('#report-player');
    await ann.check('#report-why input[value="engine"]');
    await ann.click('#report-send');
    await ann.waitForFunction(() => document.querySelector('#report-error').textContent !== '');
    assert.match(await ann.textContent('#report-error'), /^Not sent: You already reported this player/);
    await ann.click('#report-cancel');
    await assertBoardUncovered(ann, 'after reporting');
    // Block and Unblock the opponent from the game.
    await ann.click('#block-player');
    await ann.waitForFunction(() => document.querySelector('#block-player').textContent === 'Unblock Bob');
    assert.match(await ann.textContent('#conduct-status'), /^You blocked Bob: you will not be paired with them/);
    await ann.click('#block-player');
    await ann.waitForFunction(() => document.querySelector('#block-player').textContent === 'Block Bob');
    assert.equal(await ann.textContent('#conduct-status'), 'You unblocked Bob.');

    // Ann's profile lists her report, received.
    await ann.goto(`${server.base}/players/Ann`);
    await ann.waitForSelector('#my-reports li');
    assert.match((await rows(ann, '#my-reports li'))[0], /^Bob Engine assistance · .+ · the game Received$/);
    assert.equal(await ann.isVisible('#conduct-card'), false, 'nobody reports themselves');

    // Mia signs in; until she moderates, the desk is refused.
    await signInAs(mia, server.base, provider, 'mia-sub', 'Mia');
    // Watching the game, she chooses which player to report; there is nobody to block.
    await mia.goto(`${server.base}/game/${gameId}`);
    await mia.waitForSelector('#conduct:not([hidden]) #report-player');
    assert.equal(await mia.textContent('#report-player'), 'Report a player');
    assert.equal(await mia.locator('#block-player').count(), 0);
    await mia.click('#report-player');
    assert.equal(await mia.textContent('#report-title'), 'Report a player');
    assert.match((await rows(mia, '#report-who label')).join(' | '), /^(Ann \(Black\) \| Bob \(White\)|Bob \(Black\) \| Ann \(White\))$/);
    assert.equal(await mia.isChecked('#report-who input >> nth=0'), true);
    await mia.click('#report-cancel');
    assert.equal(await mia.isVisible('#report-dialog'), false);
    await mia.goto(`${server.base}/mod`);
    await mia.waitForSelector('#refused:not([hidden])');
    assert.equal(await mia.textContent('#refused-text'), 'Only moderators can see this page.');
    assert.equal(await mia.locator('#mod-link').count(), 0);
    assert.match(server.command(['moderators', 'add', 'Mia']), /Mia is now a moderator/);

    // The queue: Bob, with Ann's report and its game; the header links the desk from now on.
    await mia.reload();
    await mia.waitForSelector('#queue-view:not([hidden])');
    await mia.waitForSelector('#mod-link');
    assert.equal(await mia.getAttribute('#mod-link', 'href'), '/mod');
    assert.equal(await mia.getAttribute('#tab-queue', 'aria-current'), 'page');
    const queued = mia.locator('.queue-player');
    assert.equal(await queued.count(), 1);
    assert.equal(await queued.locator('.queue-name').textContent(), 'Bob: open the file');
    const report = queued.locator('.report').first();
    assert.equal(await report.locator('strong').textContent(), 'Engine assistance');
    assert.equal(await report.locator('.report-details').textContent(), 'Every move was the best one, instantly.');
    assert.equal(await report.locator(`a[href="/game/${gameId}"]`).count(), 1);
    await screenshot(mia, 'mod-queue');
    assert.deepEqual(await axeViolations(mia), [], 'the queue');

    // Bob's file: his game's ending, the report, his name; then the sanction, with a reason.
    await queued.locator('.queue-name a').click();
    await mia.waitForURL(/\/mod\?player=/);
    await mia.waitForSelector('#file-name');
    assert.equal(await mia.textContent('#file-name'), 'Bob');
    assert.equal(await mia.textContent('#file-endings div:first-child dd'), '1');
    assert.match(await mia.textContent('#file-reports'), /Engine assistance.*Open/);
    assert.match(await mia.textContent('#file-names'), /^Bob · from /);
    assert.equal(await mia.isVisible('#file-active'), false);
    await mia.click('#action-engine');
    assert.equal(await mia.textContent('#reason-title'), 'Sanction Bob for engine assistance?');
    await mia.click('#reason-confirm');
    assert.match(await mia.textContent('#reason-error'), /^Give a reason/);
    await mia.fill('#reason-text', 'Engine-like play, reported by his opponent.');
    await mia.click('#reason-confirm');
    await mia.waitForFunction(() => document.querySelector('#file-status')?.textContent === 'Bob is sanctioned for engine assistance.');
    assert.equal(await mia.isVisible('#reason-dialog'), false);
    assert.match(await mia.textContent('#file-active'), /^In force: Engine assistance since /);
    assert.equal(await mia.locator('#action-engine').count(), 0, 'no second engine sanction');
    assert.match(await mia.textContent('#file-reports'), /Acted on/);
    assert.equal(await mia.locator('.sanction-list li[data-active="true"] .lift-button').count(), 1);
    await screenshot(mia, 'mod-file');
    assert.deepEqual(await axeViolations(mia), [], 'the file');

    // Ann: her report acted on, her rating back at 1,200, and a notice saying why.
    await ann.goto(`${server.base}/players/Ann`);
    await ann.waitForSelector('#my-reports li');
    assert.match((await rows(ann, '#my-reports li'))[0], /Acted on$/);
    assert.equal(await ann.textContent('#stat-rating'), '1,200?');
    await ann.goto(`${server.base}/`);
    await ann.waitForSelector('#account-notices:not([hidden]) .account-notice');
    assert.equal(await ann.textContent('#account-notices .account-notice p'), 'A moderator gave you back 20 rating points (30 s a move) '
      + 'for a game lost to an account that used engine assistance. See the game');
    await ann.click('#account-notices .notice-dismiss');
    assert.equal(await ann.isVisible('#account-notices'), false);
    await ann.reload();
    await ann.waitForSelector('#ranked-account[data-state="named"]');
    await ann.waitForLoadState('networkidle');
    assert.equal(await ann.isVisible('#account-notices'), false, 'dismissed for good');

    // Bob's profile carries the label; the leaderboard lists Ann alone.
    await ann.goto(`${server.base}/players/Bob`);
    await ann.waitForSelector('#player-label:not([hidden])');
    assert.match(await ann.textContent('#player-label'), /^This account was found to have used engine assistance\./);
    await ann.goto(`${server.base}/leaderboard`);
    await ann.waitForSelector('#board-card:not([hidden])');
    assert.deepEqual((await rows(ann, '#board-rows tr td:nth-child(2)')), ['Ann (you)']);

    // Bob is told, and ranked games are closed to him.
    await bob.goto(`${server.base}/`);
    await bob.waitForSelector('#account-notices .account-notice');
    assert.match(await bob.textContent('#account-notices'), /Your account is labelled for engine assistance since .+: it is off the leaderboards and cannot play ranked games\./);
    await bob.waitForSelector('#ranked-account[data-state="closed"]');
    assert.equal(await bob.isDisabled('#ranked-game'), true);

    // The log: the sanction, newest first, with Undo; Undo lifts it.
    await mia.click('#mod-link');
    await mia.waitForURL(`${server.base}/mod`);
    await mia.waitForSelector('#queue-empty:not([hidden])');
    await mia.click('#tab-log');
    await mia.waitForURL(`${server.base}/mod?view=log`);
    await mia.waitForSelector('#log-view:not([hidden]) .log-entry');
    const first = mia.locator('.log-entry').first();
    assert.match(await first.locator('.log-line').textContent(), / · Mia sanctioned Bob for engine assistance$/);
    assert.equal(await first.locator('.report-details').textContent(), 'Engine-like play, reported by his opponent.');
    assert.equal(await mia.locator('.log-entry[data-action="moderator_added"] .undo-button').count(), 0);
    await first.locator('.undo-button').click();
    assert.equal(await mia.textContent('#reason-title'), 'Lift the engine-assistance sanction on Bob?');
    await mia.fill('#reason-text', 'A second look: his play fits his rating.');
    await mia.click('#reason-confirm');
    await mia.waitForFunction(() => document.querySelector('#log-status').textContent === 'The sanction is lifted.');
    assert.match(await mia.locator('.log-entry .log-line').first().textContent(), /Mia lifted the engine-assistance sanction on Bob$/);
    assert.equal(await mia.locator('.undo-button').count(), 0, 'nothing left to undo');
    assert.equal(await mia.isVisible('#log-more'), false, 'one page');
    await screenshot(mia, 'mod-log');
    assert.deepEqual(await axeViolations(mia), [], 'the log');

    // Bob's label is gone, and Ann's refund with it.
    await ann.goto(`${server.base}/players/Bob`);
    await ann.waitForSelector('#profile:not([hidden])');
    assert.equal(await ann.isVisible('#player-label'), false);
    await ann.goto(`${server.base}/players/Ann`);
    await ann.waitForSelector('#profile:not([hidden])');
    assert.equal(await ann.textContent('#stat-rating'), '1,180?');

    for (const page of [ann, bob, mia]) {
      assertNoConsoleErrors(page);
      await page.context().close();
    }
  });

  test('a player blocks another from their profile: the lobby hides them until unblocked', async () => {
    const cat = await newPage(browser, { bypassCSP: true });
    await signInAs(cat, server.base, provider, 'cat-sub', 'Cat');
    // The last test's game is among the recent results.
    await cat.waitForSelector('#recent-results li');
    assert.match((await rows(cat, '#recent-results li'))[0], /^Bob beat Ann, who resigned/);

    await cat.goto(`${server.base}/players/Ann`);
    await cat.waitForSelector('#conduct-card:not([hidden]) #block-player');
    assert.equal(await cat.textContent('#block-player'), 'Block Ann');
    await cat.click('#block-player');
    await cat.waitForFunction(() => document.querySelector('#block-player').textContent === 'Unblock Ann');
    assert.match(await cat.textContent('#conduct-status'), /^You blocked Ann/);

    await cat.goto(`${server.base}/`);
    await cat.waitForSelector('#stats:not([hidden])');
    await cat.waitForFunction(() => document.querySelectorAll('#recent-results li').length === 0);

    // Her own profile lists the block, with Unblock.
    await cat.goto(`${server.base}/players/Cat`);
    await cat.waitForSelector('#my-blocks li');
    assert.match((await rows(cat, '#my-blocks li'))[0], /^Ann since .+ Unblock Ann$/);
    assert.equal(await cat.isVisible('#my-reports-empty'), true);
    assert.deepEqual(await axeViolations(cat), [], 'the own profile');
    await cat.click('#my-blocks li button');
    await cat.waitForSelector('#my-blocks-empty:not([hidden])');
    assert.equal(await cat.textContent('#my-blocks-status'), 'You unblocked Ann.');

    await cat.goto(`${server.base}/`);
    await cat.waitForSelector('#recent-results li');
    assertNoConsoleErrors(cat);
    await cat.context().close();
  });

  test('the desk is for moderators only, and fits a phone', async () => {
    const guest = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await guest.goto(`${server.base}/mod`);
    await guest.waitForSelector('#refused:not([hidden])');
    assert.match(await guest.textContent('#refused-text'), /^Only moderators can see this page\./);
    assert.equal(await guest.isVisible('#desk'), false);
    // A guest on a profile is told how to report.
    await guest.goto(`${server.base}/players/Bob`);
    await guest.waitForSelector('#conduct-card:not([hidden])');
    assert.equal(await guest.textContent('#conduct-sign-in'), 'Sign in to report or block this player.');
    assertNoConsoleErrors(guest);
    await guest.context().close();

    const mia = await newPage(browser, { viewport: { width: 390, height: 844 } });
    await signInAgain(mia, 'mia-sub');
    await mia.waitForSelector('#mod-link');
    const bobId = (await mia.evaluate(async () => (await fetch('/api/players/Bob')).json())).id;
    for (const url of ['/mod', `/mod?player=${bobId}`, '/mod?view=log']) {
      await mia.goto(`${server.base}${url}`);
      await mia.waitForSelector('#queue-view:not([hidden]), #file-view:not([hidden]), #log-view:not([hidden])');
      const overflow = await mia.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, url);
    }
    await screenshot(mia, 'mod-log-phone');
    assertNoConsoleErrors(mia);
    await mia.context().close();
  });
});

describe('finding a player', () => {
  test('the start of a name, in any case, finds the player on the leaderboard page', async () => {
    const page = await newPage(browser, { bypassCSP: true });
    await page.goto(`${server.base}/leaderboard`);
    await page.fill('#find-name', 'AN');
    await page.waitForSelector('#find-results li');
    assert.deepEqual(await rows(page, '#find-results li'), ['Ann — 30s 1,180?'], 'her rating after the undone refund');
    await page.click('#find-results a');
    await page.waitForURL(`${server.base}/players/Ann`);
    await page.goBack();
    await page.fill('#find-name', 'zed');
    await page.press('#find-name', 'Enter');
    await page.waitForFunction(() => document.querySelector('#find-status').textContent.startsWith('Nobody'));
    assert.equal(await page.textContent('#find-status'), 'Nobody\u2019s name starts with \u201Czed\u201D.');
    assert.deepEqual(await axeViolations(page), []);
    assertNoConsoleErrors(page);
    await page.context().close();
  });
});
