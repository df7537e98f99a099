// Following players, and finding them, in the browser, between accounts signed in through the
// local OpenID provider: alice follows bob from his profile (the counts change, the home page's
// Following panel lists him); the header's "Find a player" suggests bob as "bo" is typed and
// the keyboard opens his profile (on a phone too, from its button); when bob starts a game
// against cid, alice, on the home page, gets a toast and a bell entry with a link to watch,
// and the panel shows bob playing; a daily game's turn is a toast for the player to move, the
// reminder an alert. The profile with Follow, the home page with the panel and the search
// open, and the toasts pass axe. The words of the new notifications, and a suggestion's
// ratings, are checked on their own.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoConsoleErrors, axeViolations, call, launchBrowser, newPage, screenshot, signInAs, startProvider, startServer,
} from './helpers.mjs';
import { notificationText } from '../../web/js/notify/words.js';
import { ratingsText } from '../../web/js/players/lookup.js';

const GAME_PATH = /^\/game\/[A-Za-z0-9]+$/;

let browser;
let provider;
let server;
let alice;
let bob;
let cid;

before(async () => {
  provider = await startProvider();
  server = await startServer(provider.env);
  browser = await launchBrowser();
  // Axe is put in the pages by script, past their Content Security Policy.
  [alice, bob, cid] = await Promise.all([1, 2, 3].map(() => newPage(browser, { bypassCSP: true })));
  await Promise.all([
    signInAs(alice, server.base, provider, 'alice-sub', 'alice'),
    signInAs(bob, server.base, provider, 'bob-sub', 'bob'),
    signInAs(cid, server.base, provider, 'cid-sub', 'cid'),
  ]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
});

const text = (page, selector) => page.$eval(selector, (node) => node.textContent.replace(/\s+/g, ' ').trim());

/** Opens `path` on `page` and waits until its socket has said hello. */
async function openPage(page, path) {
  await page.goto(`${server.base}${path}`);
  await page.waitForSelector('#notify[data-ready]');
}

/** Waits until the text of `selector` on `page` is `expected`. */
const waitForText = (page, selector, expected) => page.waitForFunction(
  ([where, words]) => document.querySelector(where)?.textContent.replace(/\s+/g, ' ').trim() === words, [selector, expected],
);

describe('the words of the new notifications and of the search', () => {
  test('a followed player\'s game, a daily game\'s turn and reminder, and the guest history kept', () => {
    const say = (kind, data) => notificationText({ kind, data }, 'alice');
    assert.equal(say('followed_started', { game_id: 'g', player: 'bob', opponent: 'cid', mode: 'friend', control: '30s' }),
      'bob started a game against cid (30 s a move).');
    assert.equal(say('followed_started', { game_id: 'g', player: 'bob', opponent: 'cid', mode: 'ranked', control: '3+2' }),
      'bob started a ranked game against cid (3+2).');
    assert.equal(say('daily_turn', { game_id: 'g', opponent: 'ann', deadline: 0 }), 'Your move against ann.');
    assert.equal(say('daily_reminder', { game_id: 'g', opponent: 'ann', deadline: 0 }),
      'Less than a tenth of your time is left against ann.');
    assert.equal(say('guest_history_kept', { games: 3, puzzles: 2 }), 'Your 3 guest games and 2 puzzles are now on your account.');
    assert.equal(say('guest_history_kept', { games: 1, puzzles: 0 }), 'Your 1 guest game is now on your account.');
    assert.equal(say('guest_history_kept', { games: 0, puzzles: 0 }), 'What you played as a guest is now on your account.');
  });

  test('a suggestion\'s ratings: compact, the pools played most first', () => {
    const ratings = {
      '30s': { rating: 1210, provisional: false, rated_games: 12 },
      blitz: { rating: 1432, provisional: false, rated_games: 40 },
      xot: { rating: 1190, provisional: true, rated_games: 2 },
      rapid: { rating: 1300, provisional: true, rated_games: 1 },
    };
    assert.equal(ratingsText(ratings, { limit: 3 }), 'Blitz 1,432 · 30 s 1,210 · XOT 1,190?');
    assert.equal(ratingsText({}), '');
  });
});

describe('following players', () => {
  test('alice follows bob from his profile; the counts change; her home page lists him', async () => {
    await openPage(alice, '/players/bob');
    const button = '#follow-player';
    await alice.waitForSelector(button);
    assert.equal(await text(alice, button), 'Follow');
    assert.equal(await alice.getAttribute(button, 'aria-pressed'), 'false');
    assert.equal(await text(alice, '#stat-followers'), '0');
    assert.equal(await text(alice, '#stat-following'), '0');
    // Next to Challenge.
    const [challengeBox, followBox] = await Promise.all(['#challenge-player', button].map((at) => alice.locator(at).boundingBox()));
    assert.ok(Math.abs(challengeBox.y - followBox.y) < 4 && followBox.x > challengeBox.x, JSON.stringify({ challengeBox, followBox }));

    await alice.click(button);
    await alice.waitForSelector(`${button}[aria-pressed="true"]`);
    assert.equal(await text(alice, button), 'Following');
    await waitForText(alice, '#stat-followers', '1');
    assert.equal(await text(alice, '#follow-status'), 'You follow bob: you hear when they start a game.');
    // Pressed again, it stops; and once more, it follows again.
    await alice.click(button);
    await alice.waitForSelector(`${button}[aria-pressed="false"]`);
    await waitForText(alice, '#stat-followers', '0');
    assert.equal(await text(alice, '#follow-status'), 'You no longer follow bob.');
    await alice.click(button);
    await waitForText(alice, '#stat-followers', '1');
    assert.deepEqual((await call(alice, 'GET', '/api/follows')).body.following.map((entry) => entry.name), ['bob']);

    // Her own profile counts whom she follows and lists them.
    await openPage(alice, '/players/alice');
    await waitForText(alice, '#stat-following', '1');
    assert.equal(await alice.locator('#follow-player').count(), 0, 'nobody follows themselves');
    await alice.waitForSelector('#following-card .following-item[data-name="bob"]');

    await openPage(alice, '/');
    const entry = '#following .following-item[data-name="bob"]';
    await alice.waitForSelector(entry);
    assert.equal(await alice.isVisible('#following'), true);
    assert.equal(await alice.getAttribute(`${entry} a.following-name`, 'href'), '/players/bob');
    assert.match(await text(alice, `${entry} .online-dot`), /^(online|offline)$/);
    assert.equal(await alice.locator(`${entry} .following-watch`).count(), 0, 'bob is not playing');

    // Bob's home page has no panel: he follows nobody. A guest sees the counts, and no Follow.
    await openPage(bob, '/');
    await bob.waitForSelector('#site-search-input');
    assert.equal(await bob.isVisible('#following'), false);
    const guest = await newPage(browser);
    await guest.goto(`${server.base}/players/bob`);
    await waitForText(guest, '#stat-followers', '1');
    assert.equal(await guest.locator('#follow-player').count(), 0);
    assertNoConsoleErrors(guest);
    await guest.context().close();
    assertNoConsoleErrors(alice);
    assertNoConsoleErrors(bob);
  });

  test('the header\'s search suggests bob as "bo" is typed; the arrow keys and Enter open his profile', async () => {
    await openPage(alice, '/rules');
    const input = '#site-search-input';
    assert.equal(await alice.getAttribute(input, 'role'), 'combobox');
    assert.equal(await alice.getAttribute(input, 'aria-expanded'), 'false');
    await alice.locator(input).pressSequentially('bo');
    const option = '#site-search-list [role="option"]';
    await alice.waitForSelector(option);
    assert.equal(await alice.getAttribute(input, 'aria-expanded'), 'true');
    assert.deepEqual(await alice.$$eval(option, (nodes) => nodes.map((node) => node.dataset.name)), ['bob']);
    assert.match(await text(alice, option), /^bob (online|offline)$/);
    assert.equal(await alice.evaluate(() => document.activeElement.id), 'site-search-input');

    // Escape closes the list, then empties the field.
    await alice.keyboard.press('Escape');
    assert.equal(await alice.getAttribute(input, 'aria-expanded'), 'false');
    assert.equal(await alice.inputValue(input), 'bo');
    await alice.keyboard.press('ArrowDown');
    assert.equal(await alice.getAttribute(input, 'aria-expanded'), 'true');
    assert.equal(await alice.getAttribute(input, 'aria-activedescendant'), 'site-search-option-0');
    assert.equal(await alice.getAttribute(option, 'aria-selected'), 'true');
    await alice.keyboard.press('Enter');
    await alice.waitForURL(`${server.base}/players/bob`);
    await alice.waitForSelector('#follow-player[aria-pressed="true"]');

    // A name typed in full opens its profile with Enter alone; a name nobody has stays, said.
    await alice.fill(input, 'zz');
    await alice.press(input, 'Enter');
    await waitForText(alice, '#site-search-status', 'Nobody’s name starts with “zz”.');
    assert.equal(await alice.isVisible('.site-search-empty'), true);
    assert.equal(new URL(alice.url()).pathname, '/players/bob');
    await alice.fill(input, 'cid');
    await alice.press(input, 'Enter');
    await alice.waitForURL(`${server.base}/players/cid`);
    // The leaderboard's own search takes a name from the address (where Enter sends several).
    await alice.goto(`${server.base}/leaderboard?q=bo`);
    await alice.waitForSelector('#find-results a[href="/players/bob"]');
    assert.equal(await alice.inputValue('#find-name'), 'bo');

    // On a phone the search is a button that opens the field under the header.
    const phone = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    await phone.goto(`${server.base}/leaderboard`);
    await phone.waitForSelector('#site-search-toggle');
    assert.equal(await phone.isVisible(input), false);
    const header = await phone.locator('.site-header').boundingBox();
    await phone.click('#site-search-toggle');
    assert.equal(await phone.getAttribute('#site-search-toggle', 'aria-expanded'), 'true');
    assert.equal(await phone.evaluate(() => document.activeElement.id), 'site-search-input');
    await phone.locator(input).pressSequentially('ci');
    await phone.waitForSelector(option);
    assert.deepEqual(await phone.locator('.site-header').boundingBox(), header, 'the header keeps its size');
    assert.equal(await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth), 0);
    await screenshot(phone, 'header-search-phone');
    await phone.keyboard.press('Escape');
    await phone.keyboard.press('Escape');
    assert.equal(await phone.isVisible(input), false);
    assert.equal(await phone.evaluate(() => document.activeElement.id), 'site-search-toggle');
    await phone.click('#site-search-toggle');
    await phone.click(option);
    await phone.waitForURL(`${server.base}/players/cid`);
    assertNoConsoleErrors(phone);
    await phone.context().close();
    assertNoConsoleErrors(alice);
  });

  test('bob starts a game against cid: alice, on the home page, is told, with a link to watch, and sees him playing', async () => {
    assert.equal((await call(alice, 'POST', '/api/notifications/read', { all: true })).body.unread, 0);
    await openPage(alice, '/');
    await alice.waitForSelector('#following .following-item[data-name="bob"]');

    const made = await call(cid, 'POST', '/api/challenges', { to: 'bob' });
    assert.equal(made.status, 201);
    const accepted = await call(bob, 'POST', `/api/challenges/${made.body.id}/accept`);
    assert.equal(accepted.status, 200);
    const gamePath = `/game/${accepted.body.game_id}`;
    assert.match(gamePath, GAME_PATH);

    const toast = '.news-toast[data-kind="followed_started"]';
    await alice.waitForSelector(toast);
    assert.equal(await text(alice, `${toast} .toast-text`), 'bob started a game against cid (30 s a move).');
    assert.equal(await alice.getAttribute(`${toast} a.toast-go`, 'href'), gamePath);
    assert.equal(await text(alice, `${toast} a.toast-go`), 'Watch');
    await alice.waitForFunction(() => document.querySelector('#challenge-announce').textContent === 'bob started a game against cid (30 s a move).');

    // The panel shows him playing, with the way to watch.
    const watch = '#following .following-item[data-name="bob"] a.following-watch';
    await alice.waitForSelector(watch);
    assert.equal(await alice.getAttribute(watch, 'href'), gamePath);
    assert.equal(await text(alice, watch), 'playing — watch bob’s game');

    // The bell counts it and lists it, with the same link.
    await alice.waitForSelector('#notify-count:not([hidden])');
    assert.equal(await text(alice, '#notify-count'), '1');
    await alice.click('#notify-bell');
    const item = '#notify-list .notify-item[data-kind="followed_started"]';
    await alice.waitForSelector(item);
    assert.equal(await text(alice, `${item} .notify-text`), 'New: bob started a game against cid (30 s a move).');
    assert.equal(await alice.getAttribute(`${item} .notify-meta a`, 'href'), gamePath);
    await screenshot(alice, 'followed-started');
    assert.deepEqual(await axeViolations(alice), [], 'the home page with the toast and the bell open');
    await alice.keyboard.press('Escape');

    // Dismissed, the toast goes.
    await alice.click(`${toast} .toast-dismiss`);
    assert.equal(await alice.locator(toast).count(), 0);
    assertNoConsoleErrors(alice);
  });

  test('a daily game\'s turn is a toast for the player to move; the reminder is an alert that stands out', async () => {
    await openPage(bob, '/');
    const made = await call(alice, 'POST', '/api/challenges', { to: 'bob', control: '1d', colour: 'black' });
    assert.equal(made.status, 201);
    const accepted = await call(bob, 'POST', `/api/challenges/${made.body.id}/accept`);
    assert.equal(accepted.status, 200);
    const gamePath = `/game/${accepted.body.game_id}`;
    await alice.goto(`${server.base}${gamePath}`);
    await alice.locator('#board .square.legal').first().click();

    const toast = '.news-toast[data-kind="daily_turn"]';
    await bob.waitForSelector(toast);
    assert.equal(await text(bob, `${toast} .toast-text`), 'Your move against alice.');
    assert.match(await text(bob, `${toast} .toast-time`), /^2[34] h left$/);
    assert.equal(await bob.getAttribute(`${toast} a.toast-go`, 'href'), gamePath);
    assert.equal(await text(bob, `${toast} a.toast-go`), 'Play your move');

    // The reminder comes hours later: it is handed to the page's feed as the socket would.
    const pushed = (page, kind, id, deadline) => page.evaluate(async ([what, key, game, until]) => {
      const { feed } = await import('/js/notify/feed.js');
      feed.dispatchEvent(new CustomEvent('notification', {
        detail: {
          notification: {
            id: key, kind: what, created_at: Date.now(), read: false, data: { game_id: game, opponent: 'alice', deadline: until },
          },
        },
      }));
    }, [kind, id, accepted.body.game_id, deadline]);
    await pushed(bob, 'daily_reminder', 'reminder-1', Date.now() + 90 * 60 * 1000);
    const reminder = '.news-toast[data-kind="daily_reminder"]';
    await bob.waitForSelector(reminder);
    assert.equal(await bob.getAttribute(reminder, 'data-urgent'), 'true');
    assert.equal(await text(bob, `${reminder} .toast-text`), 'Hurry: Less than a tenth of your time is left against alice.');
    await bob.waitForFunction(() => /^Less than a tenth of your time is left against alice\. (89|90) min left\.$/.test(document.querySelector('#challenge-alert').textContent));
    await screenshot(bob, 'daily-reminder');
    assert.deepEqual(await axeViolations(bob), [], 'the home page with a daily game\'s toasts');
    // The bell lists the turn with the time left and the link.
    await bob.click('#notify-bell');
    const item = '#notify-list .notify-item[data-kind="daily_turn"]';
    await bob.waitForSelector(item);
    assert.equal(await text(bob, `${item} .notify-text`), 'New: Your move against alice.');
    assert.match(await text(bob, `${item} .notify-meta`), /^just now · 2[34] h left · Play your move$/);
    assert.equal(await bob.getAttribute(`${item} .notify-meta a`, 'href'), gamePath);
    await bob.keyboard.press('Escape');

    // On the game's own page, its news is no news: no toast there.
    await bob.goto(`${server.base}${gamePath}`);
    await bob.waitForSelector('#notify[data-ready]');
    await pushed(bob, 'daily_reminder', 'reminder-2', Date.now() + 60 * 60 * 1000);
    await bob.waitForTimeout(200);
    assert.equal(await bob.locator('.news-toast').count(), 0);
    assertNoConsoleErrors(bob);
    assertNoConsoleErrors(alice);
  });

  test('the profile with Follow and the home page with the panel and the search open pass axe', async () => {
    await openPage(alice, '/players/bob');
    await alice.waitForSelector('#follow-player[aria-pressed="true"]');
    await screenshot(alice, 'profile-follow');
    assert.deepEqual(await axeViolations(alice), [], 'the profile with Follow');

    await openPage(alice, '/');
    await alice.waitForSelector('#following .following-item[data-name="bob"]');
    await alice.locator('#site-search-input').pressSequentially('b');
    await alice.waitForSelector('#site-search-list [role="option"]');
    await alice.keyboard.press('ArrowDown');
    await screenshot(alice, 'home-following-search');
    assert.deepEqual(await axeViolations(alice), [], 'the home page with the Following panel and the search open');
    assertNoConsoleErrors(alice);
  });
});
