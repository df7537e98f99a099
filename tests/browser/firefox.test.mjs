// The same client in Firefox (Debian's firefox-esr, driven over WebDriver BiDi by
// puppeteer-core): pages load without console errors and a game against the computer plays.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import puppeteer from 'puppeteer-core';
import { serverAndBrowser } from './helpers.mjs';

const FIREFOX = '/usr/bin/firefox-esr';

const setup = serverAndBrowser({
  launch: () => puppeteer.launch({ browser: 'firefox', executablePath: FIREFOX, headless: true }),
});

/** A page that records console errors and uncaught exceptions. */
async function newPage() {
  const page = await setup.browser.newPage();
  page.errors = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    page.errors.push(message.text());
  });
  page.on('pageerror', (error) => page.errors.push(String(error)));
  return page;
}

test('in Firefox, a game against the computer starts and the computer answers a move', async () => {
  const page = await newPage();
  await page.goto(`${setup.server.base}/`);
  await page.type('#nickname', 'Fox');
  await page.click('#play-computer');
  await page.waitForSelector('body[data-you="black"]');
  await page.waitForSelector('#board .square.legal');
  assert.equal(await page.$$eval('#board .square.legal', (squares) => squares.length), 4);
  await page.click('#board .square.legal');
  await page.waitForFunction(() => document.querySelectorAll('#moves li').length >= 2);
  assert.equal(await page.$eval('body', (body) => body.dataset.you), 'black');
  assert.deepEqual(page.errors, []);
  await page.close();
});

test('in Firefox, the rules page shows its example boards', async () => {
  const page = await newPage();
  await page.goto(`${setup.server.base}/rules`);
  await page.waitForSelector('.board');
  assert.ok((await page.$$eval('.board', (boards) => boards.length)) >= 2);
  assert.deepEqual(page.errors, []);
  await page.close();
});
