// Accounts and ranked games in the browser, signing in through a local OpenID provider that
// stands in for Google (tests/oidc/provider.mjs): two people sign in, choose public names, meet
// in the ranked queue, one resigns, and both see the rating change, the leaderboard and their
// profiles. Deleting an account, confirmed first. And a server without Google settings: no
// sign-in button, a note saying why, the sign-in error banner and an empty leaderboard.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoConsoleErrors, launchBrowser, newPage, screenshot, startProvider, startServer, waitForTurnOrEnd,
} from './helpers.mjs';

const GAME_URL = /\/game\/[A-Za-z0-9]+$/;

let browser;
let provider; // the OpenID provider, while the tests with sign-in run

before(async () => {
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
});

/** Signs in from the home page through the provider's form as `account`, chooses the public
 *  name `name` on the welcome page and comes back home. `returnTo` replaces the welcome page's
 *  return_to, to check that only paths on this site are followed; `beforeSaving` runs on the
 *  welcome page first. */
async function signIn(page, base, account, name, returnTo = null, beforeSaving = null) {
  await page.goto(`${base}/`);
  await page.waitForSelector('#ranked-account[data-state="guest"]');
  assert.equal(await page.textContent('#ranked-account'), 'Sign in with Google to play ranked.');
  assert.equal(await page.isDisabled('#ranked-game'), true);
  assert.equal(await page.isVisible('#sign-in'), true, 'the header offers sign-in');
  // The provider's own page has no icon: the browser's request for one is not ours.
  const escaped = provider.issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  page.allowedErrors.push(new RegExp(`\\(${escaped}/favicon\\.ico\\)$`));
  await page.click('#ranked-sign-in');
  // The provider's sign-in page, standing in for Google's.
  await page.waitForSelector('input[name="login"]');
  await page.getByLabel('Account').fill(account);
  await page.getByRole('button', { name: 'Sign in' }).click();
  // A new account chooses its public name first, offered the guest nickname if there is one.
  await page.waitForURL((url) => url.pathname === '/welcome');
  assert.equal(new URL(page.url()).searchParams.get('return_to'), '/');
  if (returnTo !== null) await page.goto(`${base}/welcome?return_to=${encodeURIComponent(returnTo)}`);
  await page.waitForSelector('#name-card:not([hidden])');
  const offered = await page.inputValue('#public-name');
  if (beforeSaving) await beforeSaving();
  await page.fill('#public-name', name);
  await page.click('#save-name');
  await page.waitForURL(`${base}/`);
  await page.waitForSelector('#ranked-account[data-state="named"]');
  return offered;
}

describe('with sign-in configured', () => {
  let server;

  before(async () => {
    provider = await startProvider();
    // Nobody gets the computer within the test: the two people pair with each other.
    server = await startServer({ ...provider.env, OUTFLANK_COMPUTER_AFTER_MS: '600000' });
  });

  after(async () => {
    await server?.stop();
    await provider?.stop();
  });

  test('an empty leaderboard offers Play ranked where sign-in is set up', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.base}/leaderboard`);
    await page.waitForSelector('#board-empty:not([hidden])');
    assert.match(await page.textContent('#board-empty-text'), /^Play a ranked game to be the first\./);
    assert.equal(await page.isVisible('#board-play-ranked'), true);
    assert.equal(await page.textContent('#board-play-ranked'), 'Play ranked');
    assert.equal(await page.getAttribute('#board-play-ranked', 'href'), '/#ranked-card');
    assert.equal(await page.isVisible('#board-play'), false);
    assertNoConsoleErrors(page);
    await page.context().close();
  });

  test('on a phone, with the header\'s sign-in line, the result\'s buttons are in view at the end', async () => {
    const page = await newPage(browser, { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    await page.goto(`${server.base}/rules`);
    // The account corner's line is there from the first paint, before the script fills it.
    assert.equal(await page.getAttribute('#site-account', 'data-sign-in'), 'on');
    const call = (path, body) => page.evaluate(async ({ path, body }) => (await fetch(path, {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    })).json(), { path, body });
    await call('/api/session', { nickname: 'Pia' });
    const created = await call('/api/games', { mode: 'computer', level: 1, color: 'black', control: '3+2' });
    await page.goto(`${server.base}${created.url}`);
    await waitForTurnOrEnd(page);
    await page.locator('#board .square.legal').first().click();
    await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 2);
    await page.click('#resign');
    await page.click('#resign-confirm');
    await page.waitForSelector('#result:not([hidden])');
    await page.evaluate(() => window.scrollTo(0, 0));
    for (const id of ['#rematch', '#result a.button', '#result-see-review']) {
      const box = await page.locator(id).boundingBox();
      assert.ok(box && box.y >= 0 && box.y + box.height <= 844, `${id} ${JSON.stringify(box)}`);
    }
    await screenshot(page, 'result-phone-with-sign-in');
    assertNoConsoleErrors(page);
    await page.context().close();
  });

  test('two signed-in players meet in the ranked queue and see the rating change everywhere', async () => {
    const alice = await newPage(browser);
    const bob = await newPage(browser);
    // Alice played as a guest first: her nickname is offered as her public name.
    await alice.goto(`${server.base}/`);
    await alice.evaluate(() => fetch('/api/session', {
      method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ nickname: 'Ally B' }),
    }));
    assert.equal(await signIn(alice, server.base, 'alice-sub', 'Alice'), 'Ally_B');
    await signIn(bob, server.base, 'bob-sub', 'Bob');

    // Signed in: the computer's suggested level is for the account's own rating.
    await alice.waitForFunction(() => /^Level \d+ is rated nearest/.test(document.querySelector('#level-hint').textContent));
    assert.match(await alice.textContent('#level-hint'), /^Level \d+ is rated nearest 1,200, your rating\. /);
    // Signed in: the header shows the public name and the provisional starting rating.
    assert.equal(await alice.textContent('#account-link .account-name'), 'Alice');
    assert.equal(await alice.textContent('#account-link .account-rating'), '1,200?');
    assert.equal(await alice.getAttribute('#account-link', 'href'), '/players/Alice');
    assert.equal(await alice.isVisible('#sign-out'), true);
    assert.equal(await alice.isVisible('#sign-in'), false);
    assert.equal(await alice.textContent('#ranked-account'), 'Signed in as Alice');
    // One checkbox per time control, with her rating there; at first 30 s a move alone.
    const ticked = (page) => page.$$eval('#ranked-pool-options input:checked', (inputs) => inputs.map((input) => input.value));
    assert.deepEqual(await alice.$$eval('#ranked-pool-options label', (labels) => labels.map((label) => label.textContent.trim())),
      ['30 s a move · 1,200?', 'Blitz 3+2 · 1,200?', 'Rapid 10+5 · 1,200?', 'Daily, 2 days a move · 1,200?', 'XOT 5+3 · 1,200?']);
    assert.deepEqual(await ticked(alice), ['30s']);
    // Nothing ticked, nothing to seek.
    await alice.uncheck('#ranked-pool-options input[value="30s"]');
    assert.equal(await alice.isDisabled('#ranked-game'), true);
    await alice.check('#ranked-pool-options input[value="30s"]');
    assert.equal(await alice.isEnabled('#ranked-game'), true);
    await screenshot(alice, 'ranked-pools');
    // Bob will take blitz too; his choice is remembered.
    await bob.waitForSelector('#ranked-pools:not([hidden])');
    await bob.check('#ranked-pool-options input[value="blitz"]');
    await bob.reload();
    await bob.waitForSelector('#ranked-pools:not([hidden])');
    assert.deepEqual(await ticked(bob), ['30s', 'blitz']);
    await alice.click('#ranked-game');
    await alice.waitForFunction(() => /Searching for an opponent… \d+ s/.test(document.querySelector('#ranked-status').textContent));
    assert.equal(await alice.isVisible('#ranked-cancel'), true);
    assert.equal(await alice.isDisabled('#quick-game'), true, 'one search at a time');
    await bob.click('#ranked-game');
    // They share only 30 s a move: the game is played there.
    await Promise.all([alice.waitForURL(GAME_URL), bob.waitForURL(GAME_URL)]);
    assert.equal(alice.url(), bob.url());
    for (const page of [alice, bob]) await page.waitForSelector('body[data-you]');
    const aliceColour = await alice.evaluate(() => document.body.dataset.you);
    const black = aliceColour === 'black' ? alice : bob;
    const white = aliceColour === 'black' ? bob : alice;
    assert.equal(await white.evaluate(() => document.body.dataset.you), 'white');
    // Each sees the other's public name, and the 30-s clock of a ranked game, named.
    assert.equal(await alice.textContent('#stakes'), 'Ranked · 30 s a move');
    assert.equal(await alice.textContent(`#name-${aliceColour === 'black' ? 'white' : 'black'}`), 'Bob');
    assert.match(await black.textContent('#clock-black'), /^0:(2\d|30) left$/);
    // Each name has its rating in the game's pool beside it, provisional marked.
    for (const page of [alice, bob]) {
      await page.waitForSelector('#rating-black:not([hidden])');
      assert.deepEqual([await page.textContent('#rating-black'), await page.textContent('#rating-white')], ['1,200?', '1,200?']);
    }

    // Three moves each (a ranked game resigned sooner is aborted, not rated), then Black
    // resigns, confirming first.
    for (let n = 1; n <= 3; n += 1) {
      await waitForTurnOrEnd(black);
      await black.locator('#board .square.legal').first().click();
      await white.waitForFunction((count) => document.querySelectorAll('#moves li').length === count, 2 * n - 1);
      await waitForTurnOrEnd(white);
      await white.locator('#board .square.legal').first().click();
      await black.waitForFunction((count) => document.querySelectorAll('#moves li').length === count, 2 * n);
    }
    await black.click('#resign');
    assert.equal(await black.isVisible('#resign-dialog'), true);
    await black.click('#resign-confirm');

    // Both start at 1,200, provisional (K = 40): White +20, Black −20.
    for (const page of [black, white]) await page.waitForSelector('#result-rating .rating-line');
    assert.equal(await white.textContent('#result-rating'), 'Your rating: +20 · 1,220?');
    const lost = await black.textContent('#result-rating');
    assert.match(lost, /^Your rating: [\u2212-]20 · 1,180\?$/);
    assert.match(lost, /\u2212/, 'a real minus sign');
    assert.match(await white.textContent('#status'), /Your rating: up 20 to 1,220 \(provisional\)/);
    // By the names, the rating the game was played at and its change.
    assert.equal(await white.textContent('#rating-white'), '1,200? +20');
    assert.equal(await white.textContent('#rating-black'), '1,200? \u221220');
    // The rematch would not be rated, and its button says so.
    assert.equal(await white.textContent('#rematch'), 'Rematch (not rated)');
    await screenshot(white, 'ranked-result');

    // A reload (and the replay) still shows it, from the stored game.
    await black.reload();
    await black.waitForSelector('#result-rating .rating-line');
    assert.match(await black.textContent('#result-rating'), /^Your rating: [\u2212-]20 · 1,180\?$/);
    const gameId = new URL(black.url()).pathname.split('/')[2];

    // The header has the new rating on the next page.
    const winnerName = white === alice ? 'Alice' : 'Bob';
    const loserName = white === alice ? 'Bob' : 'Alice';
    await white.goto(`${server.base}/leaderboard`);
    await white.waitForSelector('#board-card:not([hidden])');
    assert.equal(await white.textContent('#account-link .account-name'), winnerName);
    assert.equal(await white.textContent('#account-link .account-rating'), '1,220?');
    const rows = await white.$$eval('#board-rows tr', (trs) => trs.map((tr) => [...tr.cells].map((td) => td.textContent)));
    assert.deepEqual(rows, [
      ['1', `${winnerName} (you)`, '1,220?', '1', '1 / 0 / 0'],
      ['2', loserName, '1,180?', '1', '0 / 0 / 1'],
    ]);
    assert.equal(await white.isVisible('#pager'), false, 'one page only');
    await screenshot(white, 'leaderboard');
    // One tab per rating pool, the 30-s pool's current; the blitz pool has nobody yet.
    assert.deepEqual(await white.$$eval('#pool-tabs a', (links) => links.map((a) => a.textContent)),
      ['30 s a move', 'Blitz 3+2', 'Rapid 10+5', 'Daily, 2 days a move', 'XOT 5+3']);
    assert.equal(await white.getAttribute('#pool-tabs a[aria-current="page"]', 'href'), '/leaderboard');
    await white.click('#pool-tabs a:text-is("Blitz 3+2")');
    await white.waitForURL(`${server.base}/leaderboard?pool=blitz`);
    await white.waitForSelector('#board-empty:not([hidden])');
    assert.equal(await white.getAttribute('#pool-tabs a[aria-current="page"]', 'href'), '/leaderboard?pool=blitz');
    assert.equal(await white.title(), 'Leaderboard, Blitz 3+2 — Outflank');
    await white.goBack();
    await white.waitForSelector('#board-card:not([hidden])');

    // The winner's profile, opened from the leaderboard.
    await white.click(`#board-rows a:text-is("${winnerName}")`);
    await white.waitForURL(`${server.base}/players/${winnerName}`);
    await white.waitForSelector('#profile:not([hidden])');
    assert.equal(await white.textContent('#player-name'), winnerName);
    assert.equal(await white.textContent('#stat-rating'), '1,220?');
    assert.equal(await white.textContent('#stat-rank'), '#1');
    assert.equal(await white.textContent('#stat-games'), '1');
    assert.equal(await white.textContent('#stat-record'), '1 / 0 / 0');
    // The pool played in is the one shown, among a button per pool.
    assert.equal(await white.textContent('#pool-tabs button[aria-pressed="true"]'), '30 s a move');
    assert.equal(await white.locator('#pool-tabs button').count(), 5);
    // The chart: from 1,200 to 1,220, named and described.
    assert.equal(await white.textContent('#chart svg title'), `Rating history of ${winnerName}`);
    assert.match(await white.textContent('#chart svg desc'), /started at 1,200\. Rating after each of 1 rated game: 1,220\./);
    assert.equal((await white.getAttribute('#chart polyline', 'points')).split(' ').length, 2);
    // The game in the recent games, opening its replay; the delete button on one's own profile.
    const first = white.locator('#recent-games li a').first();
    assert.equal(await first.getAttribute('href'), `/replay/${gameId}`);
    assert.equal(await first.locator('.game-title').textContent(), `Win against ${loserName}`);
    // With its named opening, as the server names it.
    const { opening_name: opening } = await white.evaluate(async (id) => (await fetch(`/api/games/${id}`)).json(), gameId);
    assert.ok(opening, 'three moves each make a named opening');
    assert.ok((await first.locator('.game-meta').textContent()).startsWith(`Ranked · 30 s a move · White · ${opening} · +20 · `));
    assert.equal(await white.isVisible('#delete-account'), true);
    // Puzzles solved out of those from their games, and on one's own profile a link to them.
    assert.match(await white.textContent('#stat-puzzles'), /^0 \/ \d+$/);
    assert.equal(await white.getAttribute('#puzzles-link a', 'href'), '/puzzles');
    assert.equal(await white.isVisible('#puzzles-link'), true);
    await screenshot(white, 'profile');

    await first.click();
    await white.waitForURL(`${server.base}/replay/${gameId}`);
    await white.waitForSelector('#result-rating .rating-line');
    assert.equal(await white.textContent('#result-rating'), 'Your rating: +20 · 1,220?');

    // The loser's profile, seen by the winner: the loss and −20; no delete button there.
    await white.goto(`${server.base}/players/${loserName}`);
    await white.waitForSelector('#profile:not([hidden])');
    assert.equal(await white.textContent('#stat-rating'), '1,180?');
    assert.equal(await white.textContent('#stat-record'), '0 / 0 / 1');
    const loss = await white.locator('#recent-games li .game-meta').first().textContent();
    assert.ok(loss.startsWith(`Ranked · 30 s a move · Black · ${opening} · \u221220 · `), loss);
    assert.match(await white.locator('#recent-games li .game-title').first().textContent(), new RegExp(`^Loss against ${winnerName}$`));
    assert.equal(await white.isVisible('#delete-account'), false);
    assert.equal(await white.isVisible('#puzzles-link'), false);

    // On a 320-px phone the filled leaderboard and profile fit the width.
    const phone = await newPage(browser, { viewport: { width: 320, height: 640 } });
    for (const url of ['/leaderboard', `/players/${winnerName}`]) {
      await phone.goto(`${server.base}${url}`);
      await phone.waitForSelector('#board-card:not([hidden]), #profile:not([hidden])');
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
      assert.equal(overflow, 0, url);
    }
    await screenshot(phone, 'profile-phone');
    assertNoConsoleErrors(phone);
    await phone.context().close();

    // Sign out: the header offers sign-in again.
    await black.goto(`${server.base}/`);
    await black.waitForSelector('#sign-out');
    await black.click('#sign-out');
    await black.waitForSelector('#site-account[data-state="guest"] #sign-in');
    await black.waitForSelector('#ranked-account[data-state="guest"]');

    for (const page of [alice, bob]) {
      assertNoConsoleErrors(page);
      await page.context().close();
    }
  });

  test('a player deletes their account from their profile, after confirming', async () => {
    const page = await newPage(browser);
    page.allowedErrors.push(/status of 404/);
    page.allowedErrors.push(/status of 409/, /status of 422/);
    // A public name is unique and follows the rule, said next to the field; a return_to
    // naming another site is not followed: home instead.
    await signIn(page, server.base, 'carol-sub', 'Carol', '//evil.example/', async () => {
      await page.fill('#public-name', 'Alice');
      await page.click('#save-name');
      await page.waitForFunction(() => document.querySelector('#name-error').textContent !== '');
      assert.equal(await page.textContent('#name-error'), '“Alice” is taken. Choose another name.');
      assert.equal(await page.getAttribute('#public-name', 'aria-invalid'), 'true');
      await page.fill('#public-name', 'no spaces');
      await page.click('#save-name');
      await page.waitForFunction(() => !/taken/.test(document.querySelector('#name-error').textContent)
        && document.querySelector('#name-error').textContent !== '');
      assert.match(await page.textContent('#name-error'), /letters/);
      await screenshot(page, 'welcome-error');
    });
    // Signed in, the other ways to play use the account's name: no nickname to type.
    assert.equal(await page.isVisible('#nickname'), false);
    assert.match(await page.textContent('#nickname-account'), /public name, Carol,/);
    await page.click('#play-computer');
    await page.waitForURL(GAME_URL);
    await page.waitForSelector('body[data-you="black"]');
    assert.equal(await page.textContent('#name-black'), 'Carol (you)');

    await page.click('#account-link');
    await page.waitForURL(`${server.base}/players/Carol`);
    await page.waitForSelector('#profile:not([hidden])');
    assert.equal(await page.textContent('#stat-rating'), '1,200?');
    assert.match(await page.textContent('#chart-empty'), /^No rated games in 30 s a move yet: Carol starts there at 1,200\.$/);
    assert.equal(await page.locator('#chart svg').count(), 0);

    // Cancelling keeps the account.
    await page.click('#delete-account');
    assert.equal(await page.isVisible('#delete-dialog'), true);
    await page.click('#delete-cancel');
    assert.equal(await page.isVisible('#delete-dialog'), false);
    assert.equal(await page.evaluate(() => document.activeElement.id), 'delete-account');

    await page.click('#delete-account');
    await page.click('#delete-confirm');
    await page.waitForURL(`${server.base}/`);
    await page.waitForSelector('#notice:not([hidden])');
    assert.match(await page.textContent('#notice-text'), /account has been deleted/);
    await page.waitForSelector('#site-account[data-state="guest"]');

    await page.goto(`${server.base}/players/Carol`);
    await page.waitForSelector('#missing:not([hidden])');
    assert.equal(await page.textContent('#player-name'), 'Player not found');
    assertNoConsoleErrors(page);
    await page.context().close();
  });
});

describe('without sign-in configured', () => {
  let server;

  before(async () => {
    server = await startServer();
  });

  after(async () => {
    await server?.stop();
  });

  test('there is no sign-in button, and a note next to Ranked says why', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.base}/`);
    await page.waitForSelector('#ranked-account[data-state="unavailable"]');
    assert.match(await page.textContent('#ranked-account'), /Sign-in is not set up on this server/);
    assert.equal(await page.isVisible('#ranked-sign-in'), false);
    assert.equal(await page.locator('#sign-in').count(), 0);
    assert.equal(await page.isDisabled('#ranked-game'), true);
    assert.equal(await page.getAttribute('#ranked-game', 'aria-describedby'), 'ranked-account');
    // Every page links to the leaderboard.
    assert.equal(await page.getAttribute('.site-header nav a:text-is("Leaderboard")', 'href'), '/leaderboard');

    // The welcome page says the same to someone who lands there.
    await page.goto(`${server.base}/welcome`);
    await page.waitForSelector('#signed-out-card:not([hidden])');
    assert.match(await page.textContent('#signed-out-text'), /not set up on this server/);
    assert.equal(await page.isVisible('#welcome-sign-in'), false);
    assertNoConsoleErrors(page);
    await page.context().close();
  });

  test('a failed sign-in comes back to a banner on the home page, shown once', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.base}/?sign_in_error=cancelled`);
    await page.waitForSelector('#notice:not([hidden])');
    assert.match(await page.textContent('#notice-text'), /Sign-in was cancelled/);
    assert.equal(new URL(page.url()).search, '', 'the address loses the error');
    await page.click('#notice-close');
    assert.equal(await page.isVisible('#notice'), false);
    await page.goto(`${server.base}/?sign_in_error=unavailable`);
    assert.match(await page.textContent('#notice-text'), /unavailable right now/);
    assertNoConsoleErrors(page);
    await page.context().close();
  });

  test('an empty leaderboard offers no ranked game where ranked games cannot be played', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.base}/leaderboard`);
    await page.waitForSelector('#board-empty:not([hidden])');
    assert.equal(await page.isVisible('#board-card'), false);
    assert.equal(await page.textContent('#board-empty-text'), 'Ranked games need sign-in with Google, which is not set up '
      + 'on this server, so nobody can get on the leaderboard here. Every other way to play works without an account.');
    assert.equal(await page.isVisible('#board-play-ranked'), false);
    assert.equal(await page.locator('#board-empty a:visible').count(), 1);
    assert.equal(await page.textContent('#board-empty a:visible'), 'Play a game');
    assertNoConsoleErrors(page);
    await page.context().close();
  });
});
