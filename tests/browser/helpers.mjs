// Shared helpers of the browser tests: the real server on a free port with a temporary SQLite
// database, and Debian's chromium driven by playwright-core.
import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, before } from 'node:test';
import assert from 'node:assert/strict';
import { chromium } from 'playwright-core';

const here = path.dirname(fileURLToPath(import.meta.url));
export const root = path.resolve(here, '../..');
export const artifacts = path.join(root, 'target', 'browser-artifacts');

const BROWSER_ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
  '--disable-background-networking', '--disable-component-update', '--disable-sync',
];

export function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Starts the debug build's server (in $CARGO_TARGET_DIR, or target/); returns {base, stop, restart}. `restart` stops the server
 *  and starts it again on the same port and database, as after a network drop. */
export async function startServer(env = {}, fixed = null) {
  const targetDir = process.env.CARGO_TARGET_DIR || path.join(root, 'target');
  const binary = process.env.OUTFLANK_BIN || path.join(targetDir, 'debug', 'outflank');
  const dir = fixed ? fixed.dir : mkdtempSync(path.join(tmpdir(), 'outflank-browser-'));
  for (let attempt = 0; attempt < 5; attempt += 1) {
    const port = fixed ? fixed.port : await freePort();
    const child = spawn(binary, [], {
      env: {
        ...process.env,
        OUTFLANK_ADDR: `127.0.0.1:${port}`,
        DATABASE_URL: `sqlite://${dir}/t.sqlite?mode=rwc`,
        OUTFLANK_DATA_DIR: dir,
        RUST_LOG: process.env.RUST_LOG || 'warn',
        // A busy test machine is not a saturated server: no `server_busy` refusals here.
        OUTFLANK_ADMISSION_LAG_MS: 'off',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    let exited = false;
    child.once('exit', () => { exited = true; });
    const base = `http://127.0.0.1:${port}`;
    for (let i = 0; i < 200 && !exited; i += 1) {
      try {
        const response = await fetch(`${base}/healthz`);
        if (response.ok) {
          // A server that has not exited 30 s after SIGTERM is killed, and the test fails
          // saying so rather than waiting for the suite's time limit.
          const halt = async () => {
            if (exited) return;
            const done = new Promise((resolve) => child.once('exit', (code) => {
              // The server's own watchdog ends a stop that hangs with status 1.
              if (code !== 0) console.error(`the server on ${base} exited with ${code ?? 'a signal'} after SIGTERM`);
              resolve(true);
            }));
            child.kill('SIGTERM');
            // A graceful stop takes at most about 5 s; one still running long after is a hang
            // worth reading, before the server's watchdog ends it at 20 s.
            const slow = setTimeout(() => {
              if (!exited) console.error(`the server on ${base} has not exited 12 s after SIGTERM; its threads:\n${threadStacks(child.pid)}`);
            }, 12_000);
            let timer;
            const late = new Promise((resolve) => { timer = setTimeout(() => resolve(false), 30_000); });
            const inTime = await Promise.race([done, late]);
            clearTimeout(timer);
            clearTimeout(slow);
            if (!inTime) {
              child.kill('SIGKILL');
              await done;
              throw new Error(`the server on ${base} did not exit within 30 s of SIGTERM`);
            }
          };
          return {
            base,
            halt,
            /** Runs the server binary's command `args` (`moderators add Mia`) on this server's
             *  database; returns what it printed. */
            command(args) {
              return execFileSync(binary, args, {
                encoding: 'utf8',
                env: { ...process.env, DATABASE_URL: `sqlite://${dir}/t.sqlite?mode=rwc`, OUTFLANK_DATA_DIR: dir, RUST_LOG: 'warn', ...env },
              });
            },
            async restart() {
              await halt();
              return startServer(env, { dir, port });
            },
            async stop() {
              await halt();
              rmSync(dir, { recursive: true, force: true });
            },
          };
        }
      } catch { /* not up yet */ }
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    if (!exited) child.kill('SIGKILL');
  }
  throw new Error('the server did not start');
}

/** Every thread's stack in process `pid` as gdb prints it, each distinct stack once; or why
 *  there are none. */
export function threadStacks(pid) {
  let gdb;
  try {
    gdb = execFileSync('gdb', ['-p', String(pid), '-batch', '-ex', 'thread apply all bt 16'], {
      encoding: 'utf8', timeout: 60_000, stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch (error) {
    return `(no thread stacks: ${error.message.split('\n')[0]})`;
  }
  return distinctStacks(gdb);
}

/** gdb's `thread apply all bt` grouped by stack, most common first: frames without numbers,
 *  addresses or symbol hashes, so threads waiting in the same place read as one stack. */
export function distinctStacks(gdb) {
  const stacks = new Map();
  for (const block of gdb.split('\n\n')) {
    const lines = block.split('\n');
    const start = lines.findIndex((line) => line.startsWith('Thread '));
    if (start < 0) continue;
    const name = lines[start].split('"').at(-2) ?? '?';
    const stack = lines.slice(start + 1).filter((line) => line.startsWith('#')).map(frame).join('\n');
    stacks.set(stack, [...(stacks.get(stack) ?? []), name]);
  }
  const sorted = [...stacks].sort((a, b) => b[1].length - a[1].length);
  return `${sorted.length} distinct thread stacks:\n`
    + sorted.map(([stack, names]) => `\n${names.length} thread(s): ${names.join(', ')}\n${stack}\n`).join('');
}

/** One backtrace line as `function at file:line`. */
function frame(line) {
  let rest = line.replace(/^#\d+\s+/, '').replace(/^0x[0-9a-f]+ in /, '');
  const open = rest.indexOf(' (');
  const fn = (open < 0 ? rest : rest.slice(0, open)).replace(/::h[0-9a-f]{16}$/, '');
  rest = open < 0 ? '' : rest.slice(open);
  const at = rest.lastIndexOf(' at ');
  return at < 0 ? `  ${fn}` : `  ${fn} at ${rest.slice(at + 4)}`;
}

export async function launchBrowser() {
  return chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: BROWSER_ARGS, headless: true });
}

/**
 * The set-up most test files share: a server (with `env` added to its settings) and a browser
 * (chromium, or what `launch` starts), started before the file's tests and stopped after them.
 * Returns the object they are put in, for the tests to read as `setup.server` and
 * `setup.browser`; a test may put a restarted server in its place, and that one is stopped.
 * @param {{env?: object, launch?: () => Promise<{close: () => Promise<void>}>}} options
 */
export function serverAndBrowser({ env = {}, launch = launchBrowser } = {}) {
  const setup = { server: null, browser: null };
  before(async () => {
    setup.server = await startServer(env);
    setup.browser = await launch();
  });
  after(async () => {
    await setup.browser?.close();
    await setup.server?.stop();
  });
  return setup;
}

/** A new page that records console errors and page errors in `page.errors`. */
export async function newPage(browser, options = {}) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  page.errors = [];
  page.allowedErrors = [];
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const { url } = message.location();
    page.errors.push(url ? `${message.text()} (${url})` : message.text());
  });
  page.on('pageerror', (error) => page.errors.push(String(error)));
  return page;
}

/** Fails when the page logged an error that was not expected. */
export function assertNoConsoleErrors(page) {
  const unexpected = page.errors.filter((text) => !page.allowedErrors.some((pattern) => pattern.test(text)));
  assert.deepEqual(unexpected, [], 'console errors');
}

export async function screenshot(page, name) {
  mkdirSync(artifacts, { recursive: true });
  await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: false });
}

/** Starts the local OpenID provider standing in for Google (tests/oidc/provider.mjs) on a free
 *  port; returns {issuer, client_id, client_secret, env, stop}, `env` being the server's
 *  settings for it. The provider exits when its stdin closes. */
export async function startProvider() {
  const script = path.join(root, 'tests', 'oidc', 'provider.mjs');
  const child = spawn(process.execPath, [script], {
    cwd: path.dirname(script),
    env: { ...process.env, OIDC_PORT: '0' },
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const lines = createInterface({ input: child.stdout });
  const ready = await Promise.race([
    new Promise((resolve) => lines.once('line', resolve)),
    exited.then(() => null),
    new Promise((resolve) => setTimeout(() => resolve(null), 20000)),
  ]);
  if (!ready) {
    child.kill('SIGKILL');
    throw new Error('the OpenID provider did not start (is tests/oidc installed? run tests/oidc/start.sh)');
  }
  lines.close();
  child.stdout.resume();
  const settings = JSON.parse(ready);
  return {
    ...settings,
    env: {
      OUTFLANK_GOOGLE_CLIENT_ID: settings.client_id,
      OUTFLANK_GOOGLE_CLIENT_SECRET: settings.client_secret,
      OUTFLANK_OIDC_ISSUER: settings.issuer,
    },
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.stdin.end();
        const timer = setTimeout(() => child.kill('SIGTERM'), 5000);
        await exited;
        clearTimeout(timer);
      }
    },
  };
}

/** Sets the nickname on the home page. */
export async function setNickname(page, name) {
  await page.fill('#nickname', name);
}

/** Starts a computer game from the home page. */
export async function startComputerGame(page, base, { level = 1, color = 'black', name = 'Ann', xot = false, control = '' } = {}) {
  await page.goto(`${base}/`);
  await setNickname(page, name);
  await page.selectOption('#level', String(level));
  await page.check(`input[name="color"][value="${color}"]`);
  await page.check(`#computer-control input[value="${control}"]`);
  if (xot) await page.check('#computer-xot');
  await page.click('#play-computer');
  await page.waitForURL(/\/game\/[A-Za-z0-9]+$/);
  await page.waitForSelector('body[data-status]');
}

/** Waits until it is the page's turn (a legal square is offered) or the game is over. */
export async function waitForTurnOrEnd(page) {
  await page.waitForFunction(() =>
    document.body.dataset.status !== 'live' || document.querySelector('#board .square.legal') !== null);
  return page.evaluate(() => document.body.dataset.status);
}

/** Signs `page` in through the local OpenID provider as `account` and chooses the public name
 *  `name`, ending on the home page. */
export async function signInAs(page, base, provider, account, name) {
  const escaped = provider.issuer.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  page.allowedErrors.push(new RegExp(`\\(${escaped}/favicon\\.ico\\)$`));
  await page.goto(`${base}/auth/google?return_to=%2F`);
  await page.waitForSelector('input[name="login"]');
  await page.getByLabel('Account').fill(account);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL((url) => url.pathname === '/welcome');
  await page.waitForSelector('#name-card:not([hidden])');
  await page.fill('#public-name', name);
  await page.click('#save-name');
  await page.waitForURL(`${base}/`);
}

const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

/** The page's axe violations, as "rule: selector" lines. */
export async function axeViolations(page) {
  await page.addScriptTag({ path: AXE });
  return page.evaluate(async () => {
    const results = await window.axe.run(document, { resultTypes: ['violations'] });
    return results.violations.flatMap((violation) => violation.nodes.map((node) => `${violation.id}: ${node.target.join(' ')}`));
  });
}

/** A fetch from the page (same origin, with its cookies): {status, body}. */
export const call = (page, method, pathName, body) => page.evaluate(async ({ method, pathName, body }) => {
  const response = await fetch(pathName, {
    method, headers: body ? { 'Content-Type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined,
  });
  const type = response.headers.get('content-type') || '';
  return { status: response.status, body: type.includes('json') ? await response.json() : await response.text() };
}, { method, pathName, body });

/** The board as shown, in the server's 64-character format (X black, O white, - empty). */
export const boardShown = (page) => page.$$eval('#board .square .disc', (discs) => discs.map((disc) => {
  if (disc.classList.contains('black')) return 'X';
  if (disc.classList.contains('white')) return 'O';
  return '-';
}).join(''));
