// The home page: one Play first, every way to play above the fold on a laptop and on a phone,
// the nickname asked (and refused) next to its field, the server's real wait before the
// computer, the friend link's Copy and Share; no console error for a visitor without a
// session; and the rules page's strategy tips.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  assertNoConsoleErrors, launchBrowser, newPage, screenshot, startProvider, startServer,
} from './helpers.mjs';

const LAPTOP = { viewport: { width: 1280, height: 800 } };
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };
const WAYS_TO_PLAY = ['#quick-game', '#ranked-game', '#play-computer', '#create-link'];

let browser;
let server; // no sign-in; the computer after 4 s
let withSignIn; // sign-in through the local provider; the default wait
let provider;

before(async () => {
  provider = await startProvider();
  [server, withSignIn] = await Promise.all([
    startServer({ OUTFLANK_COMPUTER_AFTER_MS: '4000' }),
    startServer(provider.env),
  ]);
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await withSignIn?.stop();
  await provider?.stop();
});

/** The box of `selector`, and whether all of it lies inside the viewport. */
async function placement(page, selector) {
  const box = await page.locator(selector).boundingBox();
  const { width, height } = page.viewportSize();
  assert.ok(box, `${selector} is shown`);
  return { box, inside: box.x >= 0 && box.y >= 0 && box.x + box.width <= width && box.y + box.height <= height };
}

async function home(base, options) {
  const page = await newPage(browser, options);
  await page.goto(`${base}/`);
  await page.waitForSelector('#ranked-account[data-state]');
  await page.waitForFunction(() => /≈/.test(document.querySelector('#level option').textContent));
  return page;
}

describe('the ways to play', () => {
  for (const [device, options] of [['1280×800', LAPTOP], ['390×844 phone', PHONE]]) {
    for (const [setup, base] of [['without sign-in', () => server.base], ['with sign-in offered', () => withSignIn.base]]) {
      test(`at ${device} ${setup}, Play, Ranked, Computer and Friend are all above the fold`, async () => {
        const page = await home(base(), options);
        for (const selector of WAYS_TO_PLAY) {
          const { box, inside } = await placement(page, selector);
          assert.ok(inside, `${selector} at ${JSON.stringify(box)}`);
        }
        // One obvious Play: the first button of the page, and the biggest.
        assert.equal(await page.evaluate(() => [...document.querySelectorAll('main button')].find((button) => button.offsetParent !== null).id), 'quick-game');
        assert.equal(await page.textContent('#quick-game'), 'Play');
        const play = await page.locator('#quick-game').boundingBox();
        for (const selector of WAYS_TO_PLAY.slice(1)) {
          const other = await page.locator(selector).boundingBox();
          assert.ok(play.height > other.height, `Play (${play.height}px) is taller than ${selector} (${other.height}px)`);
        }
        // The nickname is asked next to Play.
        const field = await placement(page, '#nickname');
        assert.ok(field.inside);
        assert.ok(Math.abs(field.box.y - play.y) < 100, `nickname at ${field.box.y}, Play at ${play.y}`);
        if (options === PHONE && setup === 'without sign-in') await screenshot(page, 'home-phone');
        if (options === LAPTOP && setup === 'without sign-in') await screenshot(page, 'home-laptop');
        assertNoConsoleErrors(page);
        await page.context().close();
      });
    }
  }

  for (const [device, options] of [['1280×800', LAPTOP], ['390×844 phone', PHONE]]) {
    test(`at ${device}, a way to play pressed without a nickname says so next to the field and focuses it`, async () => {
      const page = await home(server.base, options);
      await page.fill('#nickname', '');
      for (const button of ['#quick-game', '#play-computer', '#create-link', '#play-device']) {
        await page.locator(button).click();
        await page.waitForFunction(() => document.querySelector('#nickname-error').textContent !== '');
        assert.equal(await page.textContent('#nickname-error'), 'Choose a nickname first.', button);
        assert.equal(await page.evaluate(() => document.activeElement.id), 'nickname', button);
        assert.equal(await page.getAttribute('#nickname', 'aria-invalid'), 'true', button);
        // Right under the field, and on the screen.
        const field = await page.locator('#nickname').boundingBox();
        const message = await placement(page, '#nickname-error');
        assert.ok(message.inside, `${button}: message at ${JSON.stringify(message.box)}`);
        assert.ok(message.box.y >= field.y + field.height - 1 && message.box.y - (field.y + field.height) < 24,
          `${button}: message at ${message.box.y}, field ends at ${field.y + field.height}`);
        assert.equal(page.url(), `${server.base}/`);
        assert.equal(await page.textContent('#home-error'), '');
        // Typing a nickname clears it.
        await page.fill('#nickname', 'A');
        await page.waitForFunction(() => document.querySelector('#nickname-error').textContent === '');
        assert.equal(await page.getAttribute('#nickname', 'aria-invalid'), null);
        await page.fill('#nickname', '');
      }
      // A nickname the server refuses is said there too, in the server's words.
      await page.fill('#nickname', '<b>');
      await page.click('#play-computer');
      await page.waitForFunction(() => document.querySelector('#nickname-error').textContent !== '');
      assert.equal(await page.textContent('#nickname-error'), "A nickname may only use letters, digits, spaces, '_', '-' and '.'.");
      assert.equal(await page.evaluate(() => document.activeElement.id), 'nickname');
      page.allowedErrors.push(/status of 422/);
      assertNoConsoleErrors(page);
      await page.context().close();
    });
  }

  test('the nickname field takes no more characters than the server allows (20)', async () => {
    const page = await home(server.base, LAPTOP);
    await page.locator('#nickname').pressSequentially('A'.repeat(24));
    assert.equal(await page.inputValue('#nickname'), 'A'.repeat(20));
    assertNoConsoleErrors(page);
    await page.context().close();
  });

  test('the quick game says how long this server waits for a person before the computer', async () => {
    const page = await home(server.base, LAPTOP);
    await page.waitForFunction(() => document.querySelector('#quick-wait').textContent !== 'soon');
    assert.equal(await page.textContent('#quick-wait'), 'within 4 seconds');
    assert.match(await page.textContent('#quick-about'), /If nobody is free within 4 seconds, you play the computer instead\./);
    const other = await home(withSignIn.base, LAPTOP);
    await other.waitForFunction(() => document.querySelector('#quick-wait').textContent !== 'soon');
    assert.equal(await other.textContent('#quick-wait'), 'within 15 seconds');
    for (const visited of [page, other]) {
      assertNoConsoleErrors(visited);
      await visited.context().close();
    }
  });

  test('a visitor without a session gets no console error on any page', async () => {
    const page = await newPage(browser);
    const answers = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === '/api/me') answers.push(response.status());
    });
    for (const path of ['/', '/leaderboard', '/rules', '/welcome', '/mod']) {
      await page.goto(`${server.base}${path}`);
      await page.waitForLoadState('networkidle');
    }
    assert.deepEqual(answers, [200, 200, 200, 200, 200]);
    assertNoConsoleErrors(page);
    await page.context().close();
  });
});

describe('the friend link', () => {
  /** A home page with a friend link made; `init` runs in the page before its scripts. */
  async function withLink(init = null, permissions = ['clipboard-read', 'clipboard-write']) {
    const page = await newPage(browser, LAPTOP);
    await page.context().grantPermissions(permissions, { origin: server.base });
    if (init) await page.addInitScript(init);
    await page.goto(`${server.base}/`);
    await page.fill('#nickname', 'Ann');
    await page.click('#create-link');
    await page.waitForSelector('#room:not([hidden])');
    return { page, link: (await page.textContent('#room-link')).trim() };
  }

  test('where the browser cannot share, Share is not offered and Copy link copies, saying so', async () => {
    const { page, link } = await withLink(() => { delete Navigator.prototype.share; });
    assert.equal(await page.evaluate(() => typeof navigator.share), 'undefined');
    assert.equal(await page.isVisible('#share-link'), false);
    await page.click('#copy-link');
    await page.waitForSelector('#copy-status:text("Link copied")');
    assert.equal(await page.textContent('#copy-status'), 'Link copied: paste it in a message to your friend.');
    assert.equal(await page.textContent('#copy-link'), 'Copied ✓');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    // The button reads Copy link again soon after.
    await page.waitForSelector('#copy-link:text-is("Copy link")', { timeout: 5000 });
    assertNoConsoleErrors(page);
    await page.context().close();
  });

  test('when the clipboard refuses, Copy link still copies the link and says so', async () => {
    const { page, link } = await withLink(() => {
      Object.defineProperty(navigator.clipboard, 'writeText', { value: () => Promise.reject(new Error('refused')) });
    });
    await page.click('#copy-link');
    await page.waitForFunction(() => document.querySelector('#copy-status').textContent !== '');
    assert.equal(await page.textContent('#copy-status'), 'Link copied: paste it in a message to your friend.');
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), link);
    assertNoConsoleErrors(page);
    await page.context().close();
  });

  test('where the browser can share, Share… hands it the link', async () => {
    const { page, link } = await withLink(() => {
      Navigator.prototype.share = function share(data) { window.shared = data; return Promise.resolve(); };
    });
    assert.equal(await page.isVisible('#share-link'), true);
    await page.click('#share-link');
    assert.deepEqual(await page.evaluate(() => window.shared), { title: 'Play Reversi with me', url: link });
    assertNoConsoleErrors(page);
    await page.context().close();
  });
});

describe('the rules page', () => {
  test('has strategy tips on corners, X- and C-squares, mobility, frontier, edges and parity', async () => {
    const page = await newPage(browser);
    await page.goto(`${server.base}/rules`);
    await page.waitForSelector('#square-map span');
    assert.equal(await page.textContent('#strategy'), 'Strategy tips');
    const topics = await page.$$eval('#strategy-tips li strong', (all) => all.map((node) => node.textContent));
    assert.deepEqual(topics, ['Corners', 'X-squares', 'C-squares', 'Mobility', 'Frontier and quiet moves.', 'Edges', 'Parity.']);
    const tips = await page.textContent('#strategy-tips');
    assert.match(tips, /\(a1, h1, a8, h8\)/);
    assert.match(tips, /\(b2, g2, b7, g7\)/);
    assert.match(tips, /\(b1, g1, a2, h2, a7, h7, b8, g8\)/);
    // The map marks the same squares (a1 top-left, as on the board).
    const marked = await page.$$eval('#square-map span', (cells) => cells.map((cell) => `${cell.dataset.square}:${cell.className || '-'}`));
    assert.equal(marked.length, 64);
    const of = (kind) => marked.filter((entry) => entry.endsWith(`:${kind}`)).map((entry) => entry.split(':')[0]);
    assert.deepEqual(of('corner'), ['a1', 'h1', 'a8', 'h8']);
    assert.deepEqual(of('x-square'), ['b2', 'g2', 'b7', 'g7']);
    assert.deepEqual(of('c-square'), ['b1', 'g1', 'a2', 'h2', 'a7', 'h7', 'b8', 'g8']);
    assert.equal(await page.getAttribute('#square-map', 'role'), 'img');
    assertNoConsoleErrors(page);
    await page.context().close();
  });
});
