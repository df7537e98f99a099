// The home page: a nickname, then the ways to play.
import * as api from './api.js';
import { QUEUE_PATH, Queue, QueueClientMsg, QueueServerMsg, socketUrl } from './protocol.js';
import { formatRating, profileUrl, signInUrl, welcomeUrl, whoAmI } from './account.js';
import './header.js';
import { fillLevels, watchChoice } from './levels.js';

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
  // Signed in: the account's session is the one to play with (no nickname to send).
  const who = await whoAmI();
  if (who.account) return who.me;
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

watchChoice($('level'));
fillLevels($('level'), $('level-hint'));

$('play-computer').addEventListener('click', (event) => busy(event.currentTarget, async () => {
  if (!(await session())) return;
  const game = await api.newComputerGame(Number($('level').value), checked('color'));
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

// Quick and ranked games: the matchmaking socket. One search at a time across both cards;
// `search` is null when idle.
const PING_EVERY_MS = 25000;
const CANCEL_GRACE_MS = 3000;
let search = null;

/** The server's sentence for people, capitalised and ending in a full stop. */
function sentence(text) {
  const trimmed = String(text || '').trim();
  if (!trimmed) return '';
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** One card's controls: its search button, Cancel, status line and error line. */
function seekerCard(queue, prefix, label) {
  return {
    queue,
    label,
    button: $(`${prefix}-game`),
    cancel: $(`${prefix}-cancel`),
    status: $(`${prefix}-status`),
    error: $(`${prefix}-error`),
    secondsId: `${prefix}-seconds`,
    /** Whether the search button may be pressed when idle. */
    allowed: () => true,
  };
}

const quickCard = seekerCard(Queue.QUICK, 'quick', 'Quick game');
const rankedCard = seekerCard(Queue.RANKED, 'ranked', 'Ranked game');
rankedCard.allowed = () => rankedAllowed;
const cards = [quickCard, rankedCard];
let rankedAllowed = false;

function showCardError(card, message) {
  card.error.textContent = message;
}

function setCardStatus(card, text) {
  card.status.dataset.state = '';
  card.status.textContent = text;
}

/** The search buttons: each card's usable unless a search is on (or the card is not allowed). */
function syncButtons() {
  for (const card of cards) {
    if (search && search.card === card) continue;
    card.button.disabled = Boolean(search) || !card.allowed();
  }
}

/** Shows the idle card again: the search button back, Cancel hidden. */
function searchIdle(card, status = '') {
  // Cancel had the focus (or lost it on being disabled): give it to the search button.
  const active = document.activeElement;
  const refocus = !card.cancel.hidden && (!active || active === card.cancel || active === document.body);
  if (search && search.card === card) {
    clearInterval(search.ticker);
    clearInterval(search.pinger);
    clearTimeout(search.cancelTimer);
    const { socket } = search;
    search = null;
    if (socket.readyState === WebSocket.CONNECTING || socket.readyState === WebSocket.OPEN) socket.close();
  }
  setCardStatus(card, status);
  card.cancel.hidden = true;
  card.cancel.disabled = false;
  card.button.hidden = false;
  syncButtons();
  if (refocus && !card.button.disabled) card.button.focus();
  refreshStats();
}

/** "Searching for an opponent… 12 s": the seconds from the server's `waited_ms`, counted on
 *  locally between its messages. The seconds are hidden from screen readers so that the
 *  live region speaks once, not every second. */
function renderSearching(current) {
  const { card } = current;
  const waited = current.waitedMs + (performance.now() - current.since);
  const seconds = Math.max(0, Math.floor(waited / 1000));
  if (current.shown === seconds && card.status.dataset.state === 'searching') return;
  current.shown = seconds;
  if (!card.status.firstChild || card.status.dataset.state !== 'searching') {
    card.status.textContent = 'Searching for an opponent… ';
    const counter = document.createElement('span');
    counter.id = card.secondsId;
    counter.setAttribute('aria-hidden', 'true');
    card.status.append(counter);
    card.status.dataset.state = 'searching';
  }
  $(card.secondsId).textContent = `${seconds} s`;
}

function sendQueue(msg) {
  if (!search || search.socket.readyState !== WebSocket.OPEN) return false;
  search.socket.send(JSON.stringify(msg));
  return true;
}

function onQueueMessage(current, msg) {
  if (search !== current) return;
  const { card } = current;
  switch (msg.type) {
    case QueueServerMsg.SEARCHING:
      if (current.state !== 'searching') return;
      if (!current.counted) {
        current.counted = true;
        refreshStats(); // this player is waiting now
      }
      current.waitedMs = Number(msg.waited_ms) || 0;
      current.since = performance.now();
      current.shown = null;
      renderSearching(current);
      return;
    case QueueServerMsg.PAIRED: {
      // Also after a cancel that crossed the pairing: the game exists, so go and play it.
      current.state = 'paired';
      clearInterval(current.ticker);
      clearInterval(current.pinger);
      clearTimeout(current.cancelTimer);
      card.cancel.disabled = true;
      const opponent = msg.opponent || {};
      const name = opponent.name || (opponent.computer ? 'the computer' : 'an opponent');
      setCardStatus(card, opponent.computer
        ? `Nobody else was free: you play ${name}. Starting the game…`
        : `Found ${name}. Starting the game…`);
      location.assign(`/game/${encodeURIComponent(msg.game_id)}`);
      return;
    }
    case QueueServerMsg.CANCELLED:
      searchIdle(card, 'Search cancelled.');
      return;
    case QueueServerMsg.ERROR:
      showCardError(card, sentence(msg.message) || `The search stopped because of an error. Press ${card.label} to try again.`);
      if (card === rankedCard && (msg.code === 'account_required' || msg.code === 'name_required')) {
        // The session changed since the page was drawn (signed out in another tab, say).
        renderRanked({ google: lastWho.google, account: msg.code === 'name_required' ? { name: null } : null });
      }
      searchIdle(card);
      return;
    default:
      // pong, and anything newer than this page: nothing to show.
  }
}

function onQueueClose(current) {
  if (search !== current || current.state === 'paired') return;
  const { card } = current;
  if (current.state === 'cancelling') {
    searchIdle(card, 'Search cancelled.');
    return;
  }
  showCardError(card, current.opened
    ? `The connection to the server dropped, so the search stopped. Press ${card.label} to search again.`
    : 'The matchmaking server cannot be reached. Check your connection and try again.');
  searchIdle(card);
}

async function startSearch(card) {
  if (search) return;
  showCardError(card, '');
  card.button.disabled = true;
  // Quick games need the nickname's session; a ranked player's session is their account's.
  if (card === quickCard && !(await session((message) => showCardError(card, message)))) {
    syncButtons();
    return;
  }
  if (search) {
    syncButtons();
    return;
  }
  const socket = new WebSocket(socketUrl(QUEUE_PATH));
  const current = {
    card, socket, state: 'connecting', opened: false, counted: false, waitedMs: 0, since: performance.now(), shown: null,
    ticker: null, pinger: null, cancelTimer: null,
  };
  search = current;
  setCardStatus(card, 'Connecting…');
  card.button.hidden = true;
  card.cancel.hidden = false;
  card.cancel.disabled = false;
  card.cancel.focus();
  syncButtons();
  socket.addEventListener('open', () => {
    if (search !== current) return;
    current.opened = true;
    current.state = 'searching';
    current.since = performance.now();
    sendQueue({ type: QueueClientMsg.SEEK, queue: card.queue });
    renderSearching(current);
    current.ticker = setInterval(() => { if (current.state === 'searching') renderSearching(current); }, 250);
    current.pinger = setInterval(() => sendQueue({ type: QueueClientMsg.PING }), PING_EVERY_MS);
  });
  socket.addEventListener('message', (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    if (msg && typeof msg.type === 'string') onQueueMessage(current, msg);
  });
  socket.addEventListener('close', () => onQueueClose(current));
}

function cancelSearch(card) {
  const current = search;
  if (!current || current.card !== card || current.state === 'paired' || current.state === 'cancelling') return;
  if (current.state === 'connecting' || !sendQueue({ type: QueueClientMsg.CANCEL })) {
    searchIdle(card, 'Search cancelled.');
    return;
  }
  // The server confirms with `cancelled` (or, if a pairing crossed the cancel, `paired`).
  current.state = 'cancelling';
  clearInterval(current.ticker);
  card.cancel.disabled = true;
  setCardStatus(card, 'Cancelling…');
  current.cancelTimer = setTimeout(() => { if (search === current) searchIdle(card, 'Search cancelled.'); }, CANCEL_GRACE_MS);
}

for (const card of cards) {
  card.button.addEventListener('click', () => {
    startSearch(card).catch((error) => {
      showCardError(card, error.message);
      searchIdle(card);
    });
  });
  card.cancel.addEventListener('click', () => cancelSearch(card));
}

// Ranked: for signed-in accounts with a public name. Everyone else is told what is missing,
// with the way to get it (sign in, or choose a name), or that sign-in is not set up here.
let lastWho = { google: false, account: null };

function renderRanked({ google, account }) {
  lastWho = { google, account };
  const line = $('ranked-account');
  const signIn = $('ranked-sign-in');
  const chooseName = $('ranked-choose-name');
  signIn.href = signInUrl('/');
  chooseName.href = welcomeUrl('/');
  signIn.hidden = true;
  chooseName.hidden = true;
  line.classList.remove('muted');
  if (account && account.name) {
    line.replaceChildren('Signed in as ');
    const link = document.createElement('a');
    link.href = profileUrl(account.name);
    link.textContent = account.name;
    line.append(link, ` · rating ${formatRating(account.rating, account.provisional)}`);
    rankedAllowed = true;
  } else if (account) {
    line.textContent = 'Choose your public name to play ranked.';
    chooseName.hidden = false;
    rankedAllowed = false;
  } else if (google) {
    line.textContent = 'Sign in with Google to play ranked.';
    signIn.hidden = false;
    rankedAllowed = false;
  } else {
    line.textContent = 'Sign-in is not set up on this server, so ranked games are not available here. Every other way to play works without an account.';
    line.classList.add('muted');
    rankedAllowed = false;
  }
  line.dataset.state = account ? (account.name ? 'named' : 'unnamed') : (google ? 'guest' : 'unavailable');
  syncButtons();
}

/** Signed in, the nickname card says which name is shown instead of asking for one. */
function renderNickname({ me, account }) {
  $('nickname-guest').hidden = Boolean(account);
  const line = $('nickname-account');
  line.hidden = !account;
  if (!account) return;
  $('nickname-heading').textContent = 'Your name';
  const name = document.createElement('strong');
  if (account.name) {
    name.textContent = account.name;
    line.replaceChildren('You are signed in: opponents see your public name, ', name, ', in every game.');
  } else {
    name.textContent = (me && me.nickname) || 'Player';
    line.replaceChildren('You are signed in and play as ', name, ' until you choose your public name.');
  }
}

whoAmI().then((who) => {
  renderNickname(who);
  renderRanked(who);
});

// Back from a game (the page restored from the back/forward cache): fresh, idle cards.
window.addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  for (const card of cards) {
    searchIdle(card);
    showCardError(card, '');
  }
});

// After signing in went wrong (`?sign_in_error=`) or the account was deleted: a banner,
// shown once (the address loses the parameter so that a reload does not repeat it).
const NOTICES = Object.freeze({
  cancelled: 'Sign-in was cancelled. You can still play every way except Ranked without an account.',
  failed: 'Signing in with Google did not work. Please try again.',
  unavailable: 'Sign-in with Google is unavailable right now. Please try again later.',
});

function showNotice() {
  const params = new URLSearchParams(location.search);
  let text = '';
  if (params.has('sign_in_error')) {
    text = NOTICES[params.get('sign_in_error')] || NOTICES.failed;
  } else if (params.has('account_deleted')) {
    text = 'Your account has been deleted. Your games remain, shown as “Deleted player”.';
  }
  if (!text) return;
  const notice = $('notice');
  notice.dataset.kind = params.has('sign_in_error') ? 'error' : 'info';
  $('notice-text').textContent = text;
  notice.hidden = false;
  params.delete('sign_in_error');
  params.delete('account_deleted');
  const query = params.toString();
  history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
}

$('notice-close').addEventListener('click', () => {
  $('notice').hidden = true;
  $('ranked-game').focus();
});
showNotice();

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
