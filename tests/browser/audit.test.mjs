// Accessibility and quality audits of every page: axe-core finds no violations on any page,
// live and finished games included, and Lighthouse (run against Debian's Chromium) scores
// performance, accessibility and best practices at 95 or more: on its desktop settings on the
// home, game, leaderboard, profile and rules pages, and on its default mobile settings (a
// phone-sized screen, slow 4G, a slower CPU) on the home, game, analysis, puzzles, leaderboard
// and profile pages.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { axeViolations, freePort, newPage, signInAs, startProvider, startServer, waitForTurnOrEnd } from './helpers.mjs';

const CATEGORIES = ['performance', 'accessibility', 'best-practices'];

let provider;
let server;
let browser;
let debugPort;
let pages; // name → path, filled by the first test

before(async () => {
  provider = await startProvider();
  server = await startServer(provider.env);
  debugPort = await freePort();
  browser = await chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-dev-shm-usage', `--remote-debugging-port=${debugPort}`],
    headless: true,
  });
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
});

/** A new game against the computer at level 1 for the page's player, playing `color`. */
const computerGame = (page, color) => page.evaluate(async (body) => {
  const response = await fetch('/api/games', {
    method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
  });
  return response.json();
}, { mode: 'computer', level: 1, color });

/** Sets up what every page needs: a signed-in player with a name (for a profile), a live game
 *  and a finished one. Returns the pages to audit. */
async function setUp() {
  const ann = await newPage(browser, { viewport: { width: 1280, height: 800 }, bypassCSP: true });
  await signInAs(ann, server.base, provider, 'audit-ann', 'Annika');
  const live = await computerGame(ann, 'black');
  await ann.goto(`${server.base}${live.url}`);
  await waitForTurnOrEnd(ann);
  await ann.locator('#board .square.legal').first().click();
  await ann.waitForFunction(() => document.querySelectorAll('#moves li').length >= 2);
  const finished = await computerGame(ann, 'white');
  await ann.goto(`${server.base}${finished.url}`);
  await waitForTurnOrEnd(ann);
  await ann.click('#resign');
  await ann.click('#resign-confirm');
  await ann.waitForSelector('#result:not([hidden])');
  return {
    ann,
    paths: {
      home: '/',
      'live game': live.url,
      'finished game': `/replay/${finished.id}`,
      leaderboard: '/leaderboard',
      profile: '/players/Annika',
      rules: '/rules',
      analysis: '/analysis',
      puzzles: '/puzzles',
      'friend link': '/join/nosuchcode',
      'public name': '/welcome',
      'not found': '/no/such/page',
    },
  };
}

test('axe finds no accessibility violations on any page, for a player and for a visitor', async () => {
  const { ann, paths } = await setUp();
  pages = paths;
  const visitor = await newPage(browser, { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, bypassCSP: true });
  const found = [];
  for (const [who, page] of [['player', ann], ['visitor', visitor]]) {
    for (const [name, path] of Object.entries(paths)) {
      await page.goto(`${server.base}${path}`);
      await page.waitForLoadState('networkidle');
      for (const line of await axeViolations(page)) found.push(`${who} on ${name}: ${line}`);
    }
  }
  // The live game as its player sees it, on their turn.
  await ann.goto(`${server.base}${paths['live game']}`);
  await waitForTurnOrEnd(ann);
  for (const line of await axeViolations(ann)) found.push(`player on their turn: ${line}`);
  assert.deepEqual(found, []);
  await ann.context().close();
  await visitor.context().close();
});

/** Lighthouse's scores (0–100) for `name` under `config` (its default, mobile, when none),
 *  and the audits that cost points. */
async function audit(name, config) {
  const result = await lighthouse(`${server.base}${pages[name]}`, {
    port: debugPort, output: 'json', logLevel: 'error', onlyCategories: CATEGORIES,
  }, config);
  const scores = Object.fromEntries(CATEGORIES.map((category) => [category, Math.round(result.lhr.categories[category].score * 100)]));
  const failing = Object.values(result.lhr.audits)
    .filter((audit) => audit.score !== null && audit.score < 0.9 && !['informative', 'notApplicable', 'manual'].includes(audit.scoreDisplayMode))
    .map((audit) => `${audit.id} ${audit.displayValue || audit.score}`);
  return { scores, failing };
}

const AUDITED = [
  ['desktop', desktopConfig, ['home', 'live game', 'leaderboard', 'profile', 'rules']],
  ['mobile', undefined, ['home', 'live game', 'analysis', 'puzzles', 'leaderboard', 'profile']],
];

for (const [settings, config, names] of AUDITED) {
  for (const name of names) {
    test(`Lighthouse (${settings}) scores the ${name} page 95 or more for performance, accessibility and best practices`, async () => {
      assert.ok(pages, 'the pages were set up');
      let { scores, failing } = await audit(name, config);
      // Performance is measured on a shared machine: when it alone falls short, it is measured
      // once more and the second measurement stands. The other two do not vary.
      if (scores.performance < 95 && CATEGORIES.every((category) => category === 'performance' || scores[category] >= 95)) {
        ({ scores, failing } = await audit(name, config));
      }
      for (const category of CATEGORIES) assert.ok(scores[category] >= 95, `${category} ${scores[category]}: ${failing.join('; ')}`);
    });
  }
}
