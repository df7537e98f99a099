// Challenges and notifications in the browser, between two accounts signed in through the
// local OpenID provider: alice challenges bob from his profile, bob hears of it on another page
// (a toast with the terms and the time left) and accepts, and both are sent to the game; bob
// declines another, found through the leaderboard's "Find a player", and alice is told; the
// header's bell counts alice's unread notifications, lists them and marks them read once
// opened. The profile's challenge form, the toasts and the bell's list pass axe; guests see
// none of it.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoConsoleErrors, axeViolations, call, launchBrowser, newPage, screenshot, signInAs, startProvider, startServer,
} from './helpers.mjs';

const GAME_URL = /\/game\/[A-Za-z0-9]+$/;

let browser;
let provider;
let server;
let alice;
let bob;

before(async () => {
  provider = await startProvider();
  server = await startServer(provider.env);
  browser = await launchBrowser();
  // Axe is put in the pages by script, past their Content Security Policy.
  alice = await newPage(browser, { bypassCSP: true });
  bob = await newPage(browser, { bypassCSP: true });
  await signInAs(alice, server.base, provider, 'alice-sub', 'alice');
  await signInAs(bob, server.base, provider, 'bob-sub', 'bob');
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
});

const text = (page, selector) => page.$eval(selector, (node) => node.textContent.replace(/\s+/g, ' ').trim());

/** Opens `path` on `page` and waits until its socket has said hello (the bell is drawn then). */
async function openPage(page, path) {
  await page.goto(`${server.base}${path}`);
  await page.waitForSelector('#notify-bell');
  await page.waitForSelector('#notify[data-ready]');
}

/** Whether the bell's accessible name (what a screen reader says) is `name`. */
const bellNamed = async (page, name) => (await page.getByRole('button', { name, exact: true }).getAttribute('id')) === 'notify-bell';

describe('challenges between accounts', () => {
  test('alice challenges bob from his profile; bob accepts from a toast on another page; both play', async () => {
    await openPage(bob, '/');
    await openPage(alice, '/players/bob');
    await alice.click('#challenge-player');
    assert.equal(await alice.isVisible('#challenge-dialog'), true);
    assert.equal(await text(alice, '#challenge-title'), 'Challenge bob');
    assert.equal(await alice.evaluate(() => document.activeElement.id), 'challenge-control');
    await alice.selectOption('#challenge-control', '3+2');
    await alice.check('#challenge-colour input[value="black"]');
    await alice.click('#challenge-send');
    await alice.waitForSelector('#challenge-dialog', { state: 'hidden' });

    // Alice waits, with the time left and Cancel.
    const sent = '.challenge-toast[data-kind="outgoing"]';
    await alice.waitForSelector(sent);
    assert.equal(await text(alice, `${sent} .toast-text`), 'Waiting for bob to answer your challenge: 3+2, not rated, you play Black…');
    assert.match(await text(alice, `${sent} [role="timer"]`), /^(60|59|58|57|56|55) s left$/);
    assert.equal(await alice.isVisible(`${sent} .toast-cancel`), true);

    // Bob, on the home page, is told at once, with the terms as he plays them.
    const received = '.challenge-toast[data-kind="incoming"]';
    await bob.waitForSelector(received);
    assert.equal(await text(bob, `${received} .toast-text`), 'alice challenges you: 3+2, not rated, you play White');
    assert.match(await text(bob, `${received} [role="timer"]`), /^\d\d s left$/);
    await bob.waitForFunction(() => /^alice challenges you: 3\+2, not rated, you play White\./.test(document.querySelector('#challenge-alert').textContent));
    assert.deepEqual(await bob.$$eval(`${received} button`, (buttons) => buttons.map((button) => button.textContent)), ['Accept', 'Decline', 'Later']);
    await screenshot(bob, 'challenge-received');
    assert.deepEqual(await axeViolations(bob), [], 'the home page with a challenge toast');

    await bob.click(`${received} .toast-accept`);
    await Promise.all([alice.waitForURL(GAME_URL), bob.waitForURL(GAME_URL)]);
    assert.equal(new URL(alice.url()).pathname, new URL(bob.url()).pathname, 'the same game');
    for (const page of [alice, bob]) await page.waitForSelector('body[data-you]');
    assert.equal(await alice.evaluate(() => document.body.dataset.you), 'black');
    assert.equal(await bob.evaluate(() => document.body.dataset.you), 'white');
    assertNoConsoleErrors(alice);
    assertNoConsoleErrors(bob);
  });

  test('bob declines a challenge sent from the leaderboard\'s search, and alice is told', async () => {
    await openPage(bob, '/rules');
    await openPage(alice, '/leaderboard');
    await alice.fill('#find-name', 'bo');
    await alice.press('#find-name', 'Enter');
    const link = '#find-results a.search-challenge';
    await alice.waitForSelector(link);
    assert.equal(await alice.getAttribute(link, 'href'), '/players/bob#challenge');
    assert.equal(await alice.getAttribute(link, 'aria-label'), 'Challenge bob');
    await alice.fill('#find-name', 'ali');
    await alice.press('#find-name', 'Enter');
    await alice.waitForFunction(() => /^alice/.test(document.querySelector('#find-results li')?.textContent || ''));
    assert.equal(await alice.locator(link).count(), 0, 'nobody challenges themselves');
    await alice.fill('#find-name', 'bo');
    await alice.press('#find-name', 'Enter');
    await alice.waitForSelector(link);

    // The link opens bob's profile with the form open.
    await alice.click(link);
    await alice.waitForSelector('#challenge-dialog[open]');
    await alice.click('#challenge-send');
    await alice.waitForSelector('.challenge-toast[data-kind="outgoing"]');

    const received = '.challenge-toast[data-kind="incoming"]';
    await bob.waitForSelector(received);
    // The form chose the time control alice chose last time.
    assert.equal(await text(bob, `${received} .toast-text`), 'alice challenges you: 3+2, not rated, you play a random colour');
    await bob.click(`${received} .toast-decline`);
    await bob.waitForSelector(received, { state: 'detached' });
    await bob.waitForFunction(() => document.querySelector('#challenge-announce').textContent === 'You declined alice’s challenge.');

    const done = '.challenge-toast[data-kind="outgoing"][data-state="declined"]';
    await alice.waitForSelector(done);
    assert.equal(await text(alice, `${done} .toast-text`), 'bob declined your challenge.');
    assert.equal(await alice.isVisible(`${done} .toast-dismiss`), true);
    assert.equal(new URL(alice.url()).pathname, '/players/bob', 'alice stays where she was');
    await alice.click(`${done} .toast-dismiss`);
    assert.equal(await alice.locator('.challenge-toast').count(), 0);
    assertNoConsoleErrors(alice);
    assertNoConsoleErrors(bob);
  });

  test('the bell counts what is unread, lists it, and marks it read when opened', async () => {
    assert.equal((await call(alice, 'POST', '/api/notifications/read', { all: true })).body.unread, 0);
    await openPage(alice, '/rules');
    assert.equal(await alice.getAttribute('#notify', 'data-unread'), '0');
    assert.equal(await alice.isVisible('#notify-count'), false, 'no number at 0');
    assert.ok(await bellNamed(alice, 'Notifications'));

    // Bob accepts alice's next challenge: alice, waiting, goes to the game, and the bell says 1.
    const made = await call(alice, 'POST', '/api/challenges', { to: 'bob' });
    assert.equal(made.status, 201);
    const accepted = await call(bob, 'POST', `/api/challenges/${made.body.id}/accept`);
    assert.equal(accepted.status, 200);
    assert.equal(accepted.body.status, 'accepted');
    await alice.waitForURL(GAME_URL);
    const gamePath = `/game/${accepted.body.game_id}`;
    assert.equal(new URL(alice.url()).pathname, gamePath);
    await alice.waitForSelector('#notify-count:not([hidden])');
    assert.equal(await text(alice, '#notify-count'), '1');
    assert.ok(await bellNamed(alice, 'Notifications 1 unread'));
    assert.equal(await alice.getAttribute('#notify-bell', 'aria-expanded'), 'false');

    await alice.click('#notify-bell');
    assert.equal(await alice.getAttribute('#notify-bell', 'aria-expanded'), 'true');
    const item = '#notify-list .notify-item[data-kind="challenge_accepted"]';
    await alice.waitForSelector(item);
    assert.equal(await text(alice, `${item} .notify-text`), 'New: bob accepted your challenge: 30 s a move, not rated, you play a random colour.');
    assert.equal(await alice.getAttribute(`${item} a`, 'href'), gamePath);
    assert.equal(await text(alice, `${item} time`), 'just now');
    // Opened, it is read: the number goes.
    await alice.waitForSelector('#notify-count', { state: 'hidden' });
    assert.ok(await bellNamed(alice, 'Notifications'));
    await screenshot(alice, 'notifications');
    assert.deepEqual(await axeViolations(alice), [], 'the game page with the notifications open');
    await alice.keyboard.press('Escape');
    assert.equal(await alice.isVisible('#notify-panel'), false);
    assert.equal(await alice.evaluate(() => document.activeElement.id), 'notify-bell');

    await alice.reload();
    await alice.waitForSelector('#notify[data-ready]');
    assert.equal(await alice.getAttribute('#notify', 'data-unread'), '0');
    assert.equal(await alice.isVisible('#notify-count'), false);

    // Bob's list: the challenges he received, no longer open, so without Accept or Decline.
    await openPage(bob, '/rules');
    await bob.click('#notify-bell');
    await bob.waitForSelector('#notify-list .notify-item');
    const kinds = await bob.$$eval('#notify-list .notify-item', (items) => items.map((li) => li.dataset.kind));
    assert.deepEqual(kinds, ['challenge_received', 'challenge_received', 'challenge_received']);
    assert.equal(await bob.locator('#notify-list .notify-accept').count(), 0);
    assert.match(await text(bob, '#notify-list .notify-item .notify-meta'), /No longer open$/);
    assertNoConsoleErrors(alice);
    assertNoConsoleErrors(bob);
  });

  test('the profile\'s challenge form passes axe, says the server\'s refusals, and Cancel withdraws', async () => {
    await openPage(alice, '/players/bob');
    await alice.click('#challenge-player');
    await alice.waitForSelector('#challenge-dialog[open]');
    assert.deepEqual(await alice.$$eval('#challenge-colour label', (labels) => labels.map((label) => label.textContent)),
      ['Random', 'Black (moves first)', 'White']);
    await screenshot(alice, 'challenge-form');
    assert.deepEqual(await axeViolations(alice), [], 'the profile with the challenge form open');

    // The server's refusals are said in the form: a rated game needs a rating pool's control…
    alice.allowedErrors.push(/status of 422/, /status of 429/);
    await alice.selectOption('#challenge-control', '2d');
    await alice.check('#challenge-rated');
    await alice.check('#challenge-xot');
    await alice.click('#challenge-send');
    await alice.waitForFunction(() => document.querySelector('#challenge-error').textContent !== '');
    assert.equal(await text(alice, '#challenge-error'), 'Not sent: No rating pool plays this control: choose a pool\'s control, or play it unrated.');
    // … and three challenges waiting already (sent elsewhere, daily: no toasts here) are the most.
    const waiting = [];
    for (let i = 0; i < 3; i += 1) {
      const made = await call(alice, 'POST', '/api/challenges', { to: 'bob', control: '1d' });
      assert.equal(made.status, 201);
      waiting.push(made.body.id);
    }
    await alice.uncheck('#challenge-xot');
    await alice.click('#challenge-send');
    await alice.waitForFunction(() => /^Not sent: You have/.test(document.querySelector('#challenge-error').textContent));
    assert.equal(await text(alice, '#challenge-error'), 'Not sent: You have 3 challenges waiting already; cancel one first.');
    assert.equal(await alice.isVisible('#challenge-dialog'), true);
    assert.equal(await alice.locator('.challenge-toast').count(), 0);
    for (const id of waiting) assert.equal((await call(alice, 'POST', `/api/challenges/${id}/cancel`)).status, 200);

    await alice.click('#challenge-send');
    await alice.waitForSelector('#challenge-dialog', { state: 'hidden' });
    const sent = '.challenge-toast[data-kind="outgoing"]';
    await alice.waitForSelector(sent);
    assert.equal(await text(alice, `${sent} .toast-text`), 'Waiting for bob to answer your challenge: 2 days a move, rated, you play a random colour…');
    assert.match(await text(alice, `${sent} [role="timer"]`), /^[67] days left$/);
    assert.equal(await alice.evaluate(() => document.activeElement.id), 'challenge-player');
    await alice.click(`${sent} .toast-cancel`);
    await alice.waitForSelector(sent, { state: 'detached' });
    await alice.waitForFunction(() => document.querySelector('#challenge-announce').textContent === 'Your challenge to bob is cancelled.');
    assert.deepEqual((await call(alice, 'GET', '/api/challenges')).body, { incoming: [], outgoing: [] });
    assertNoConsoleErrors(alice);
  });

  test('guests see no bell and no Challenge', async () => {
    const guest = await newPage(browser);
    await guest.goto(`${server.base}/players/bob#challenge`);
    await guest.waitForSelector('#challenge-sign-in');
    assert.equal(await text(guest, '#challenge-sign-in'), 'Sign in to challenge bob.');
    assert.equal(await guest.locator('#notify-bell').count(), 0);
    assert.equal(await guest.locator('#challenge-player').count(), 0);
    assert.equal(await guest.locator('#challenge-tray').count(), 0);
    assertNoConsoleErrors(guest);
    await guest.context().close();
  });
});
