// Quick and ranked games: the matchmaking socket. One search at a time across both cards;
// `search` is null when idle.
import { QUEUE_PATH, QueueClientMsg, QueueServerMsg, socketUrl } from '../protocol.js';
import { $, sentence } from './dom.js';
import { refreshLobby } from './lobby.js';

const PING_EVERY_MS = 25000;
const CANCEL_GRACE_MS = 3000;
const cards = [];
let search = null;

/**
 * A card's controls, found by `prefix`: its search button (`{prefix}-game`), Cancel, status
 * line and error line. `label` names the button in messages; `prepare()` runs before the
 * search (false: do not search); `allowed()` says whether the button may be pressed when
 * idle; `onError(msg)` sees the server's refusals; `pools()`, when given, lists the pools to
 * seek in (otherwise the server's default), and `poolName(key)` names the one paired in.
 */
export function seekerCard({
  queue, prefix, label, prepare = async () => true, allowed = () => true, onError = () => {},
  pools = null, poolName = null,
}) {
  const card = {
    queue,
    label,
    prepare,
    allowed,
    onError,
    pools,
    poolName,
    button: $(`${prefix}-game`),
    cancel: $(`${prefix}-cancel`),
    status: $(`${prefix}-status`),
    error: $(`${prefix}-error`),
    secondsId: `${prefix}-seconds`,
  };
  cards.push(card);
  card.button.addEventListener('click', () => {
    startSearch(card).catch((error) => {
      showCardError(card, sentence(error.message));
      searchIdle(card);
    });
  });
  card.cancel.addEventListener('click', () => cancelSearch(card));
  return card;
}

export function showCardError(card, message) {
  card.error.textContent = message;
}

function setCardStatus(card, text) {
  card.status.dataset.state = '';
  card.status.textContent = text;
}

/** The search buttons: each card's usable unless a search is on (or the card is not allowed). */
export function syncButtons() {
  for (const card of cards) {
    if (search && search.card === card) continue;
    card.button.disabled = Boolean(search) || !card.allowed();
  }
}

/** Shows the idle card again: the search button back, Cancel hidden. */
export function searchIdle(card, status = '') {
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
  refreshLobby();
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
        refreshLobby(); // this player is waiting now
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
      const pool = card.poolName && msg.pool ? ` (${card.poolName(msg.pool)})` : '';
      setCardStatus(card, opponent.computer
        ? `Nobody else was free: you play ${name}. Starting the game…`
        : `Found ${name}${pool}. Starting the game…`);
      // The game page explains a computer standing in for the opponent nobody found.
      location.assign(`/game/${encodeURIComponent(msg.game_id)}`);
      return;
    }
    case QueueServerMsg.CANCELLED:
      searchIdle(card, 'Search cancelled.');
      return;
    case QueueServerMsg.ERROR:
      showCardError(card, sentence(msg.message) || `The search stopped because of an error. Press ${card.label} to try again.`);
      card.onError(msg);
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
  if (!(await card.prepare()) || search) {
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
    const seek = { type: QueueClientMsg.SEEK, queue: card.queue };
    if (card.pools) seek.pools = card.pools();
    sendQueue(seek);
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

// Back from a game (the page restored from the back/forward cache): fresh, idle cards.
window.addEventListener('pageshow', (event) => {
  if (!event.persisted) return;
  for (const card of cards) {
    searchIdle(card);
    showCardError(card, '');
  }
});
