// Web Push from the bell's panel, end to end: bob turns on "Challenges to you" under
// "Notifications on this device"; the server keeps his subscription; alice challenges him and
// the server pushes the notification, encrypted (RFC 8291, aes128gcm) and signed (VAPID), to
// a push endpoint this test runs on 127.0.0.1, which decrypts it with Node's own crypto; bob
// turns it off and the server forgets the subscription. Headless Chromium cannot subscribe to
// a real push service, so the page's PushManager hands out a subscription to the local
// endpoint with keys the test made. The open panel with the part shown passes axe; the
// service worker is served at /sw.js as JavaScript.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { createDecipheriv, createECDH, hkdfSync, randomBytes } from 'node:crypto';
import {
  assertNoConsoleErrors, axeViolations, call, launchBrowser, newPage, signInAs, startProvider, startServer,
} from './helpers.mjs';

let browser;
let provider;
let server;
let alice;
let bob;
let endpoint; // {url, requests, stop}

/** The browser's side of a subscription: its ECDH key pair and auth secret. */
const userAgent = createECDH('prime256v1');
userAgent.generateKeys();
const authSecret = randomBytes(16);

/** A push service on 127.0.0.1 that keeps every request it gets, body and headers. */
async function startEndpoint() {
  const requests = [];
  const waiting = [];
  const http = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      requests.push({ method: request.method, url: request.url, headers: request.headers, body: Buffer.concat(chunks) });
      for (const wake of waiting.splice(0)) wake();
      response.writeHead(201).end();
    });
  });
  await new Promise((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address();
  return {
    url: `http://127.0.0.1:${port}/push/bob-device`,
    requests,
    /** Waits until `n` requests came (10 s at most). */
    async until(n) {
      const deadline = Date.now() + 10_000;
      while (requests.length < n) {
        if (Date.now() > deadline) throw new Error(`the push endpoint got ${requests.length} requests, not ${n}`);
        await new Promise((resolve) => { waiting.push(resolve); setTimeout(resolve, 200); });
      }
    },
    stop: () => new Promise((resolve) => { http.closeAllConnections(); http.close(resolve); }),
  };
}

/** The plaintext of an aes128gcm body (RFC 8188) encrypted for this test's keys (RFC 8291). */
function decrypt(body) {
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const serverPublic = body.subarray(21, 21 + idlen);
  const sealed = body.subarray(21 + idlen);
  assert.equal(idlen, 65, 'the key id is the server\'s uncompressed public key');
  assert.ok(sealed.length <= rs, 'one record');
  const secret = userAgent.computeSecret(serverPublic);
  const info = Buffer.concat([Buffer.from('WebPush: info\0'), userAgent.getPublicKey(), serverPublic]);
  const ikm = Buffer.from(hkdfSync('sha256', secret, authSecret, info, 32));
  const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
  const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
  const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
  decipher.setAuthTag(sealed.subarray(sealed.length - 16));
  const padded = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
  let end = padded.length - 1;
  while (end >= 0 && padded[end] === 0) end -= 1;
  assert.equal(padded[end], 2, 'the last record ends with the 0x02 delimiter');
  return padded.subarray(0, end).toString('utf8');
}

/** A PushManager standing in for the browser's: its subscription goes to `endpoint` with
 *  the keys given, and is kept across the page's loads (in localStorage, as the key it was
 *  made with). */
function fakePushManager({ endpoint: url, p256dh, auth }) {
  const STORE = 'test.push-key';
  const bytes = (key) => (ArrayBuffer.isView(key) ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : new Uint8Array(key));
  const made = (key) => ({
    endpoint: url,
    expirationTime: null,
    options: { userVisibleOnly: true, applicationServerKey: Uint8Array.from(key).buffer },
    toJSON: () => ({ endpoint: url, expirationTime: null, keys: { p256dh, auth } }),
    unsubscribe: async () => { localStorage.removeItem(STORE); return true; },
  });
  PushManager.prototype.subscribe = async function subscribe(options) {
    const key = [...bytes(options.applicationServerKey)];
    localStorage.setItem(STORE, JSON.stringify(key));
    localStorage.setItem('test.push-subscribes', String(Number(localStorage.getItem('test.push-subscribes') || 0) + 1));
    return made(key);
  };
  PushManager.prototype.getSubscription = async function getSubscription() {
    const key = localStorage.getItem(STORE);
    return key ? made(JSON.parse(key)) : null;
  };
}

/** How many times the page's PushManager subscribed. */
const subscribes = (page) => page.evaluate(() => Number(localStorage.getItem('test.push-subscribes') || 0));

before(async () => {
  endpoint = await startEndpoint();
  provider = await startProvider();
  server = await startServer({ ...provider.env, OUTFLANK_PUSH_LOCAL_ENDPOINTS: '1' });
  browser = await launchBrowser();
  // Axe is put in the pages by script, past their Content Security Policy.
  [alice, bob] = await Promise.all([1, 2].map(() => newPage(browser, { bypassCSP: true })));
  await bob.context().grantPermissions(['notifications'], { origin: server.base });
  await bob.context().addInitScript(fakePushManager, {
    endpoint: endpoint.url,
    p256dh: userAgent.getPublicKey().toString('base64url'),
    auth: authSecret.toString('base64url'),
  });
  await Promise.all([
    signInAs(alice, server.base, provider, 'alice-sub', 'alice'),
    signInAs(bob, server.base, provider, 'bob-sub', 'bob'),
  ]);
});

after(async () => {
  await browser?.close();
  await server?.stop();
  await provider?.stop();
  await endpoint?.stop();
});

const box = (page) => page.getByRole('checkbox', { name: 'Challenges to you' });

async function openBell(page) {
  await page.goto(`${server.base}/`);
  await page.waitForSelector('#notify[data-ready]');
  await page.click('#notify-bell');
  await page.waitForSelector('#notify-push:not([hidden])');
}

test('the service worker is served at /sw.js as JavaScript, not to be kept unasked', async () => {
  const response = await fetch(`${server.base}/sw.js`);
  assert.equal(response.status, 200);
  assert.match(response.headers.get('content-type'), /^text\/javascript/);
  assert.equal(response.headers.get('cache-control'), 'no-cache');
  assert.match(await response.text(), /addEventListener\('push'/);
});

test('bob turns on "Challenges to you", gets alice\'s challenge pushed, and turns it off', async () => {
  await openBell(bob);
  const { body: empty } = await call(bob, 'GET', '/api/push');
  assert.deepEqual(empty.subscriptions, []);
  // Every kind offered but the guest history's.
  const labels = await bob.$$eval('#notify-push label', (nodes) => nodes.map((node) => node.textContent.trim()));
  assert.deepEqual(labels, [
    'Challenges to you', 'Your challenges answered', 'Your turn in daily games', 'Daily games running out of time',
    'Games of players you follow', 'Reports you made, acted on',
  ]);
  assert.equal(await box(bob).isChecked(), false);

  await box(bob).check();
  await bob.waitForFunction(() => document.querySelector('#notify-push')?.dataset.state === 'on');
  assert.match(await bob.textContent('#push-status'), /^Saved\./);
  const { body: on } = await call(bob, 'GET', '/api/push');
  assert.deepEqual(on.subscriptions, [{ endpoint: endpoint.url, kinds: ['challenge_received'] }]);
  assert.equal(await subscribes(bob), 1);
  assert.ok(await bob.evaluate(async () => (await navigator.serviceWorker.getRegistration('/'))?.scope), 'the worker is registered');

  // Another kind is a second POST of the same subscription.
  await bob.getByRole('checkbox', { name: 'Your challenges answered' }).check();
  await bob.waitForFunction(() => document.querySelector('#push-answered').checked
    && document.querySelector('#push-status').textContent.startsWith('Saved'));
  await bob.waitForFunction(async () => {
    const answer = await (await fetch('/api/push')).json();
    return answer.subscriptions[0]?.kinds.length === 3;
  });
  await bob.getByRole('checkbox', { name: 'Your challenges answered' }).uncheck();
  await bob.waitForFunction(async () => {
    const answer = await (await fetch('/api/push')).json();
    return answer.subscriptions[0]?.kinds.length === 1;
  });

  // Opened again, the panel shows what the server has.
  await openBell(bob);
  await bob.waitForFunction(() => document.querySelector('#notify-push')?.dataset.state === 'on');
  assert.equal(await box(bob).isChecked(), true);
  assert.equal(await bob.getByRole('checkbox', { name: 'Your challenges answered' }).isChecked(), false);

  const made = await call(alice, 'POST', '/api/challenges', { to: 'bob' });
  assert.equal(made.status, 201);
  await endpoint.until(1);
  const [pushed] = endpoint.requests;
  assert.equal(pushed.method, 'POST');
  assert.equal(pushed.url, '/push/bob-device');
  assert.equal(pushed.headers['content-encoding'], 'aes128gcm');
  assert.match(pushed.headers.authorization, new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${on.public_key}$`));
  const message = JSON.parse(decrypt(pushed.body));
  assert.equal(message.kind, 'challenge_received');
  assert.equal(message.title, 'alice challenges you');
  assert.equal(typeof message.id, 'string');
  assert.equal(typeof message.body, 'string');
  assert.equal(typeof message.url, 'string');

  await box(bob).uncheck();
  await bob.waitForFunction(() => document.querySelector('#notify-push')?.dataset.state === 'off'
    && document.querySelector('#push-status').textContent === 'Notifications on this device are off.');
  const { body: off } = await call(bob, 'GET', '/api/push');
  assert.deepEqual(off.subscriptions, []);
  assert.equal(await bob.evaluate(async () => (await navigator.serviceWorker.ready).pushManager.getSubscription()), null);

  // A kind not turned on is not pushed: alice's second challenge reaches no endpoint.
  assert.equal((await call(alice, 'POST', `/api/challenges/${made.body.id}/cancel`)).status, 200);
  assert.equal((await call(alice, 'POST', '/api/challenges', { to: 'bob' })).status, 201);
  await new Promise((resolve) => setTimeout(resolve, 500));
  assert.equal(endpoint.requests.length, 1);
  assertNoConsoleErrors(bob);
});

test('the open panel with "Notifications on this device" passes axe', async () => {
  await openBell(bob);
  await bob.waitForFunction(() => document.querySelector('#notify-push')?.dataset.state);
  assert.equal(await bob.isVisible('#notify-push'), true);
  assert.deepEqual(await axeViolations(bob), []);
  assertNoConsoleErrors(bob);
});

test('a subscription made with another key is made again with the server\'s', async () => {
  await openBell(bob);
  await box(bob).check();
  await bob.waitForFunction(() => document.querySelector('#notify-push')?.dataset.state === 'on');
  const before = await subscribes(bob);
  // The browser's subscription now says it was made with another key.
  await bob.evaluate(() => localStorage.setItem('test.push-key', JSON.stringify(new Array(65).fill(4))));
  await bob.click('#notify-bell'); // closes
  await bob.click('#notify-bell'); // opens again, and looks
  await bob.waitForFunction((n) => Number(localStorage.getItem('test.push-subscribes')) === n + 1, before);
  await bob.waitForFunction(() => document.querySelector('#notify-push')?.dataset.state === 'on');
  const { body } = await call(bob, 'GET', '/api/push');
  assert.deepEqual(body.subscriptions, [{ endpoint: endpoint.url, kinds: ['challenge_received'] }]);
  await box(bob).uncheck();
  await bob.waitForFunction(() => document.querySelector('#notify-push')?.dataset.state === 'off');
  assertNoConsoleErrors(bob);
});

test('without the permission nothing is subscribed, and the panel says why', async () => {
  // alice's browser was granted nothing: the permission asked for is not given.
  await openBell(alice);
  await alice.waitForFunction(() => document.querySelector('#notify-push')?.dataset.state === 'off');
  await box(alice).check();
  await alice.waitForFunction(() => /not allowed|blocks notifications/.test(document.querySelector('#push-status').textContent));
  assert.equal(await box(alice).isChecked(), false);
  const { body } = await call(alice, 'GET', '/api/push');
  assert.deepEqual(body.subscriptions, []);
  const permission = await alice.evaluate(() => Notification.permission);
  assert.equal(await alice.isVisible('#push-denied'), permission === 'denied');
  assertNoConsoleErrors(alice);
});
