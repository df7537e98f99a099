// The home page: a nickname, then the ways to play.
import * as api from './api.js';
import { QUEUE_PATH, Queue, QueueClientMsg, QueueServerMsg, socketUrl } from './protocol.js';

const $ = (id) => document.getElementById(id);
const nickname = $('nickname');
const errorLine = $('home-error');
let polling = null;

nickname.value = api.savedNickname();

function showError(message) {
  errorLine.textContent = message;
}

/** The session for the nickname typed, or null after telling the user what is missing
 *  (in the page's error line, or through `report` when given). */
async function session(report = showError) {
  showError('');
  report('');
  const name = nickname.value.trim();
  if (!name) {
    report('Choose a nickname first.');
    nickname.focus();
    return null;
  }
  try {
    return await api.ensureSession(name);
  } catch (error) {
    report(error.message);
    nickname.focus();
    return null;
  }
}

async function busy(button, action) {
  button.disabled = true;
  try {
    await action();
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
  }
}

const checked = (name) => document.querySelector(`input[name="${name}"]:checked`).value;

$('play-computer').addEventListener('click', (event) => busy(event.currentTarget, async () => {
  if (!(await session())) return;
  const game = await api.newComputerGame(checked('level'), checked('color'));
  location.assign(game.url);
}));

$('play-device').addEventListener('click', (event) => busy(event.currentTarget, async () => {
  if (!(await session())) return;
  const game = await api.newSameDeviceGame();
  location.assign(game.url);
}));

$('create-link').addEventListener('click', (event) => busy(event.currentTarget, async () => {
  if (!(await session())) return;
  const room = await api.newRoom();
  $('room').hidden = false;
  $('room-link').textContent = room.link;
  $('room-status').textContent = 'Waiting for your friend to join…';
  const share = $('share-link');
  if (navigator.share) {
    share.hidden = false;
    share.onclick = () => navigator.share({ title: 'Play Reversi with me', url: room.link }).catch(() => {});
  }
  clearInterval(polling);
  polling = setInterval(() => waitForFriend(room.code), 1000);
}));

$('copy-link').addEventListener('click', async () => {
  const link = $('room-link').textContent;
  try {
    await navigator.clipboard.writeText(link);
    $('room-status').textContent = 'Link copied. Waiting for your friend to join…';
  } catch {
    const range = document.createRange();
    range.selectNodeContents($('room-link'));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    $('room-status').textContent = 'Select the link and copy it. Waiting for your friend to join…';
  }
});

async function waitForFriend(code) {
  try {
    const room = await api.room(code);
    if (room.game_id) {
      clearInterval(polling);
      $('room-status').textContent = `${room.guest || 'Your friend'} joined. Starting the game…`;
      location.assign(`/game/${room.game_id}`);
    }
  } catch (error) {
    if (error.status === 410 || error.status === 404) {
      clearInterval(polling);
      $('room-status').textContent = 'This link has expired. Create a new one.';
    }
  }
}

// Quick game: the matchmaking socket. One search at a time; `quick` is null when idle.
const quickButton = $('quick-game');
const cancelButton = $('quick-cancel');
const quickStatus = $('quick-status');
const quickError = $('quick-error');
const PING_EVERY_MS = 25000;
const CANCEL_GRACE_MS = 3000;
let quick = null;

function showQuickError(message) {
  quickError.textContent = message;
}

/** The server's sentence for people, capitalised and ending in a full stop. */
function sentence(text) {
  const trimmed = String(text || '').trim();
  if (!trimmed) return '';
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** Shows the idle card again: the Quick game button back, Cancel hidden. */
function quickIdle(status = '') {
  // Cancel had the focus (or lost it on being disabled): give it to the Quick game button.
  const active = document.activeElement;
  const refocus = !cancelButton.hidden && (!active || active === cancelButton || active === document.body);
  if (quick) {
    clearInterval(quick.ticker);
    clearInterval(quick.pinger);
    clearTimeout(quick.cancelTimer);
    const { socket } = quick;
    quick = null;
    if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close();
  }
  setQuickStatus(status);
  cancelButton.hidden = true;
  cancelButton.disabled = false;
  quickButton.hidden = false;
  quickButton.disabled = false;
  if (refocus) quickButton.focus();
  refreshStats();
}

/** "Searching for an opponent… 12 s": the seconds from the server's `waited_ms`, counted on
 *  locally between its messages. The seconds are hidden from screen readers so that the
 *  live region speaks once, not every second. */
function renderSearching() {
  const waited = quick.waitedMs + (performance.now() - quick.since);
  const seconds = Math.max(0, Math.floor(waited / 1000));
  if (quick.shown === seconds && quickStatus.dataset.state === 'searching') return;
  quick.shown = seconds;
  if (!quickStatus.firstChild || quickStatus.dataset.state !== 'searching') {
    quickStatus.textContent = 'Searching for an opponent… ';
    const counter = document.createElement('span');
    counter.id = 'quick-seconds';
    counter.setAttribute('aria-hidden', 'true');
    quickStatus.append(counter);
    quickStatus.dataset.state = 'searching';
  }
  $('quick-seconds').textContent = `${seconds} s`;
}

function setQuickStatus(text) {
  quickStatus.dataset.state = '';
  quickStatus.textContent = text;
}

function sendQueue(msg) {
  if (!quick || quick.socket.readyState !== WebSocket.OPEN) return false;
  quick.socket.send(JSON.stringify(msg));
  return true;
}

function onQueueMessage(search, msg) {
  if (quick !== search) return;
  switch (msg.type) {
    case QueueServerMsg.SEARCHING:
      if (search.state !== 'searching') return;
      if (!search.counted) {
        search.counted = true;
        refreshStats(); // this player is waiting now
      }
      search.waitedMs = Number(msg.waited_ms) || 0;
      search.since = performance.now();
      search.shown = null;
      renderSearching();
      return;
    case QueueServerMsg.PAIRED: {
      // Also after a cancel that crossed the pairing: the game exists, so go and play it.
      search.state = 'paired';
      clearInterval(search.ticker);
      clearInterval(search.pinger);
      clearTimeout(search.cancelTimer);
      cancelButton.disabled = true;
      const opponent = msg.opponent || {};
      const name = opponent.name || (opponent.computer ? 'the computer' : 'an opponent');
      setQuickStatus(opponent.computer
        ? `Nobody else was free: you play ${name}. Starting the game…`
        : `Found ${name}. Starting the game…`);
      location.assign(`/game/${encodeURIComponent(msg.game_id)}`);
      return;
    }
    case QueueServerMsg.CANCELLED:
      quickIdle('Search cancelled.');
      return;
    case QueueServerMsg.ERROR:
      showQuickError(sentence(msg.message) || 'The search stopped because of an error. Press Quick game to try again.');
      quickIdle();
      return;
    default:
      // pong, and anything newer than this page: nothing to show.
  }
}

function onQueueClose(search) {
  if (quick !== search || search.state === 'paired') return;
  if (search.state === 'cancelling') {
    quickIdle('Search cancelled.');
    return;
  }
  showQuickError(search.opened
    ? 'The connection to the server dropped, so the search stopped. Press Quick game to search again.'
    : 'The matchmaking server cannot be reached. Check your connection and try again.');
  quickIdle();
}

async function startQuickGame() {
  if (quick) return;
  showQuickError('');
  quickButton.disabled = true;
  if (!(await session(showQuickError))) {
    quickButton.disabled = false;
    return;
  }
  const socket = new WebSocket(socketUrl(QUEUE_PATH));
  const search = {
    socket, state: 'connecting', opened: false, counted: false, waitedMs: 0, since: performance.now(), shown: null,
    ticker: null, pinger: null, cancelTimer: null,
  };
  quick = search;
  setQuickStatus('Connecting…');
  quickButton.hidden = true;
  cancelButton.hidden = false;
  cancelButton.disabled = false;
  cancelButton.focus();
  socket.addEventListener('open', () => {
    if (quick !== search) return;
    search.opened = true;
    search.state = 'searching';
    search.since = performance.now();
    sendQueue({ type: QueueClientMsg.SEEK, queue: Queue.QUICK });
    renderSearching();
    search.ticker = setInterval(() => { if (search.state === 'searching') renderSearching(); }, 250);
    search.pinger = setInterval(() => sendQueue({ type: QueueClientMsg.PING }), PING_EVERY_MS);
  });
  socket.addEventListener('message', (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg && typeof msg.type === 'string') onQueueMessage(search, msg);
  });
  socket.addEventListener('close', () => onQueueClose(search));
}

function cancelQuickGame() {
  const search = quick;
  if (!search || search.state === 'paired' || search.state === 'cancelling') return;
  if (search.state === 'connecting' || !sendQueue({ type: QueueClientMsg.CANCEL })) {
    quickIdle('Search cancelled.');
    return;
  }
  // The server confirms with `cancelled` (or, if a pairing crossed the cancel, `paired`).
  search.state = 'cancelling';
  clearInterval(search.ticker);
  cancelButton.disabled = true;
  setQuickStatus('Cancelling…');
  search.cancelTimer = setTimeout(() => { if (quick === search) quickIdle('Search cancelled.'); }, CANCEL_GRACE_MS);
}

quickButton.addEventListener('click', () => {
  startQuickGame().catch((error) => {
    showQuickError(error.message);
    quickIdle();
  });
});
cancelButton.addEventListener('click', cancelQuickGame);

// Back from a game (the page restored from the back/forward cache): a fresh, idle card.
window.addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  quickIdle();
  showQuickError('');
});

// "3 players online · 1 waiting · 2 games in progress", every 10 s; hidden when unavailable.
const statsLine = $('stats');
const STATS_EVERY_MS = 10000;
const count = new Intl.NumberFormat('en');
const plural = (n, one, many) => `${count.format(n)} ${n === 1 ? one : many}`;
const isCount = (n) => Number.isSafeInteger(n) && n >= 0;

let statsAsked = 0;

async function refreshStats() {
  if (document.hidden) return;
  statsAsked += 1;
  const asked = statsAsked;
  try {
    const { online, waiting, games_in_progress: games } = await api.stats();
    if (asked !== statsAsked) return; // a newer answer is on its way
    if (![online, waiting, games].every(isCount)) throw new Error('unexpected stats');
    statsLine.textContent = [
      plural(online, 'player online', 'players online'),
      `${count.format(waiting)} waiting`,
      plural(games, 'game in progress', 'games in progress'),
    ].join(' · ');
    statsLine.hidden = false;
  } catch {
    if (asked === statsAsked) statsLine.hidden = true;
  }
}

refreshStats();
setInterval(refreshStats, STATS_EVERY_MS);
document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshStats(); });
