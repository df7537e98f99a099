// The signed-in player's own socket, `/api/me/ws`, one per page: it says at once how many
// notifications are unread and which challenges wait (`hello`, again whenever the page fell
// behind: everything is replaced), then each new notification and each change of a challenge
// the player sent or received. This module keeps what it said and tells the parts of the page
// that show it (the bell, the challenge toasts) through `feed`'s events:
//   `hello`         everything was replaced;
//   `unread`        the unread count changed (`detail.unread`);
//   `notification`  one arrived (`detail.notification`);
//   `challenge`     one changed (`detail.challenge`, `detail.previous`: as it was known, or
//                   null; `detail.pushed`: it came over the socket as it happened).
// The socket reconnects with a growing wait when it closes, unless the player signed out.
import * as api from '../api.js';
import { socketUrl } from '../protocol.js';
import { heardAt } from './clock.js';

const PATH = '/api/me/ws';
const PING_EVERY_MS = 25000;
const FIRST_RETRY_MS = 1000;
const LAST_RETRY_MS = 30000;

/** Where the events are dispatched. */
export const feed = new EventTarget();

let me = ''; // the player's public name
let unreadCount = 0;
let greeted = false;
const known = new Map(); // challenge id → the challenge as last heard of
let started = false;
let socket = null;
let retries = 0;
let retryTimer = 0;
let pingTimer = 0;
let stopped = false;

function tell(type, detail = {}) {
  feed.dispatchEvent(new CustomEvent(type, { detail }));
}

/** The signed-in player's public name ('' before `startFeed`). */
export const myName = () => me;

/** How many notifications are unread, as last heard. */
export const unread = () => unreadCount;

/** Whether the first `hello` came: until then nothing is known. */
export const ready = () => greeted;

/** Sets the unread count (after marking some read, say) and says so when it changed. */
export function setUnread(n) {
  const count = Number.isSafeInteger(n) && n >= 0 ? n : 0;
  if (count === unreadCount) return;
  unreadCount = count;
  tell('unread', { unread: count });
}

/** The challenge `id` as last heard of, or null. */
export const challengeById = (id) => known.get(id) || null;

/** Every challenge known, sent and received, in the order they were made. */
export const allChallenges = () => [...known.values()].sort((a, b) => a.created_at - b.created_at);

/** Whether the player sent `challenge` (else they received it). */
export const isMine = (challenge) => challenge.from === me;

/**
 * Records `challenge` as it now stands (from the socket, or from an answer of the API) and tells
 * the page. An older word never undoes a newer one: a challenge answered stays answered.
 */
export function updateChallenge(challenge, { pushed = false } = {}) {
  if (!challenge || typeof challenge.id !== 'string') return;
  const previous = known.get(challenge.id) || null;
  if (previous && previous.status !== 'open' && challenge.status === 'open') return;
  if (previous && previous.status === challenge.status && previous.game_id === challenge.game_id) return;
  known.set(challenge.id, challenge);
  tell('challenge', { challenge, previous, pushed });
}

function hello(msg) {
  const lists = msg.challenges || {};
  known.clear();
  for (const challenge of [...(lists.incoming || []), ...(lists.outgoing || [])]) {
    if (challenge && typeof challenge.id === 'string') known.set(challenge.id, challenge);
  }
  greeted = true;
  tell('hello');
  unreadCount = -1; // said again even when unchanged, for those drawn since
  setUnread(msg.unread);
}

function receive(msg) {
  switch (msg && msg.type) {
    case 'hello': hello(msg); break;
    case 'notification':
      if (!msg.notification) break;
      heardAt(msg.notification.created_at);
      tell('notification', { notification: msg.notification });
      setUnread(msg.unread);
      break;
    case 'challenge':
      // A challenge just made: stamped as it was sent.
      if (msg.challenge && msg.challenge.status === 'open' && !known.has(msg.challenge.id)) heardAt(msg.challenge.created_at);
      updateChallenge(msg.challenge, { pushed: true });
      break;
    default: break; // pong, or an error about a message this page never sends
  }
}

function connect() {
  if (stopped) return;
  const current = new WebSocket(socketUrl(PATH));
  socket = current;
  current.addEventListener('open', () => {
    retries = 0;
    clearInterval(pingTimer);
    pingTimer = setInterval(() => {
      if (current.readyState === WebSocket.OPEN) current.send(JSON.stringify({ type: 'ping' }));
    }, PING_EVERY_MS);
  });
  current.addEventListener('message', (event) => {
    let msg;
    try { msg = JSON.parse(event.data); } catch { return; }
    receive(msg);
  });
  current.addEventListener('close', (event) => {
    if (socket !== current) return;
    socket = null;
    clearInterval(pingTimer);
    // The server ends the socket of a session signed out (elsewhere, or by a moderator).
    if (event.reason === 'signed out') {
      stop();
      return;
    }
    retry();
  });
}

/** Connects again after a wait growing from 1 s to 30 s, if the page is still signed in with
 *  a public name (a socket without is refused, and the browser logs each refusal). */
function retry() {
  if (stopped) return;
  const wait = Math.min(LAST_RETRY_MS, FIRST_RETRY_MS * 2 ** retries) * (0.75 + Math.random() * 0.5);
  retries += 1;
  clearTimeout(retryTimer);
  retryTimer = setTimeout(async () => {
    let answer;
    try {
      answer = await api.me();
    } catch {
      retry(); // the server cannot be reached yet
      return;
    }
    if (answer && answer.session === 'active' && answer.account && answer.account.name) connect();
    else stop();
  }, wait);
}

function stop() {
  stopped = true;
  clearTimeout(retryTimer);
  clearInterval(pingTimer);
}

/** Opens the socket for the player called `name` (once per page). */
export function startFeed(name) {
  me = name;
  if (started) return;
  started = true;
  connect();
  // A page leaving closes its socket: no reconnecting then. One shown again from the
  // browser's cache connects anew.
  addEventListener('pagehide', () => {
    stopped = true;
    clearTimeout(retryTimer);
    if (socket) socket.close(1000);
  });
  addEventListener('pageshow', (event) => {
    if (!event.persisted) return;
    stopped = false;
    retries = 0;
    connect();
  });
}
