// The challenge toasts, on every page of a signed-in player, in a corner of the screen (and
// right after the site header in the order of the page, so the keyboard reaches them early):
// - a challenge received: who, the terms, the time left, Accept (on to the game), Decline and
//   Later (hidden here; the bell still lists it), with a chime and an alert for screen readers.
//   It goes when the challenge is answered, withdrawn or expired, here or elsewhere;
// - a challenge sent: "Waiting for bob…", the time left and Cancel; when it is accepted the
//   page goes to the game, and a refusal or no answer in time is said.
// Daily challenges (a week to answer) show only when they happen on this page: the bell lists
// them otherwise. Nothing here decides anything: the server says what became of a challenge.
// The toasts of other news (news.js) go in the same corner, after the challenges'.
import * as api from '../api.js';
import { profileUrl } from '../account.js';
import { el } from '../element.js';
import { sentence } from '../text.js';
import { chime } from './chime.js';
import { serverNow } from './clock.js';
import { allChallenges, challengeById, feed, isMine, myName, ready, updateChallenge } from './feed.js';
import { isDaily, isOpen, nameOf, terms, timeLeft } from './words.js';

const TICK_MS = 1000;

let tray = null;
let list = null;
let alertLine = null;
let statusLine = null;
let ticker = 0;
const toasts = new Map(); // challenge id → {node, kind, state, challenge}
const sentHere = new Set(); // the challenges sent from this page
const arrivedHere = new Set(); // the challenges received while this page was open
const later = new Set(); // the challenges received that the player put off here

export const gameUrl = (id) => `/game/${encodeURIComponent(id)}`;

/** Says `text` to screen readers: at once (`urgent`) or when they are done speaking. */
export function announce(text, urgent = false) {
  const line = urgent ? alertLine : statusLine;
  if (!line) return;
  line.textContent = '';
  // A change after a pause is read out even when the words repeat.
  setTimeout(() => { line.textContent = text; }, 50);
}

function build() {
  alertLine = el('p', { class: 'visually-hidden', role: 'alert', id: 'challenge-alert' });
  statusLine = el('p', { class: 'visually-hidden', role: 'status', id: 'challenge-announce' });
  list = el('div', { class: 'challenge-toasts', id: 'challenge-toasts' });
  tray = el('section', { class: 'challenge-tray', id: 'challenge-tray', 'aria-label': 'Challenges and news' },
    alertLine, statusLine, list);
  const header = document.querySelector('.site-header');
  if (header) header.after(tray);
  else document.body.prepend(tray);
}

const nameLink = (name) => el('a', { href: profileUrl(name) }, nameOf(name));

/** Where the focus goes when the toast holding it leaves: the next toast, else the page. */
export function keepFocus(node) {
  if (!node.contains(document.activeElement)) return;
  const next = [...list.children].find((other) => other !== node && other.querySelector('button'));
  if (next) next.querySelector('button').focus();
  else (document.getElementById('content') || document.body).focus({ preventScroll: true });
}

function removeToast(id) {
  const toast = toasts.get(id);
  if (!toast) return;
  keepFocus(toast.node);
  toast.node.remove();
  toasts.delete(id);
  tray.dataset.count = String(toasts.size);
}

function part(node, name) {
  return node.querySelector(`.toast-${name}`);
}

/** Ends the toast of challenge `id` on `text` (nodes or words) and a Dismiss button, marked
 *  `state`; the focus, if it was in the toast, stays there. */
function settle(id, state, ...text) {
  const toast = toasts.get(id);
  if (!toast) return;
  const { node } = toast;
  const hadFocus = node.contains(document.activeElement);
  toast.state = state;
  node.dataset.state = state;
  part(node, 'text').replaceChildren(...text);
  part(node, 'time').replaceChildren();
  part(node, 'error').textContent = '';
  const dismiss = el('button', { type: 'button', class: 'toast-dismiss' }, 'Dismiss');
  dismiss.addEventListener('click', () => removeToast(id));
  const links = text.filter((item) => item instanceof Node && item.matches && item.matches('a.toast-go'));
  part(node, 'actions').replaceChildren(dismiss);
  if (hadFocus) (links[0] || dismiss).focus();
}

/** Runs `action` with the toast's buttons disabled; on failure says why in the toast. A
 *  challenge answered or expired meanwhile ends the toast. */
async function busy(id, action) {
  const toast = toasts.get(id);
  if (!toast) return;
  const buttons = [...toast.node.querySelectorAll('.toast-actions button')];
  for (const button of buttons) button.disabled = true;
  part(toast.node, 'error').textContent = '';
  try {
    await action();
  } catch (error) {
    if (!toasts.has(id)) return;
    for (const button of buttons) button.disabled = false;
    const gone = ['challenge_expired', 'challenge_closed', 'challenge_not_found'].includes(error.code);
    if (gone) settle(id, 'closed', sentence(error.message));
    else part(toast.node, 'error').textContent = sentence(error.message);
  }
}

function toastNode(challenge, kind, text, buttons) {
  const textId = `toast-${challenge.id}-text`;
  return el('div', {
    class: 'challenge-toast', 'data-challenge': challenge.id, 'data-kind': kind, 'data-state': 'open',
    role: 'group', 'aria-labelledby': textId,
  },
  el('p', { class: 'toast-text', id: textId }, text),
  el('p', { class: 'toast-time' }, el('span', { class: 'toast-left', role: 'timer' }, timeLeft(challenge.expires_at))),
  el('p', { class: 'toast-error error', role: 'alert' }),
  el('div', { class: 'row toast-actions' }, buttons));
}

function incomingToast(challenge) {
  const { id } = challenge;
  const accept = el('button', { type: 'button', class: 'primary toast-accept' }, 'Accept');
  const decline = el('button', { type: 'button', class: 'toast-decline' }, 'Decline');
  const hide = el('button', { type: 'button', class: 'toast-later', title: 'Hide it here: the notifications still list it' }, 'Later');
  accept.addEventListener('click', () => busy(id, async () => {
    const answer = await api.acceptChallenge(id);
    updateChallenge(answer);
    location.assign(gameUrl(answer.game_id));
  }));
  decline.addEventListener('click', () => busy(id, async () => {
    const answer = await api.declineChallenge(id);
    updateChallenge(answer);
    removeToast(id);
    announce(`You declined ${nameOf(challenge.from)}’s challenge.`);
  }));
  hide.addEventListener('click', () => {
    later.add(id);
    removeToast(id);
  });
  const text = [nameLink(challenge.from), ` challenges you: ${terms(challenge, myName())}`];
  return toastNode(challenge, 'incoming', text, [accept, decline, hide]);
}

function outgoingToast(challenge) {
  const { id } = challenge;
  const cancel = el('button', { type: 'button', class: 'toast-cancel' }, 'Cancel');
  cancel.addEventListener('click', () => busy(id, async () => {
    const answer = await api.cancelChallenge(id);
    removeToast(id);
    updateChallenge(answer);
    announce(`Your challenge to ${nameOf(challenge.to)} is cancelled.`);
  }));
  const text = ['Waiting for ', nameLink(challenge.to), ` to answer your challenge: ${terms(challenge, myName())}…`];
  return toastNode(challenge, 'outgoing', text, [cancel]);
}

/** Puts the toast `node` in the corner, after the others (news.js's; the tray is made first). */
export function addToast(node) {
  startTray();
  list.append(node);
}

/** Whether a toast here shows challenge `id` (and so says what becomes of it). */
export const hasToast = (id) => toasts.has(id);

/** Shows what became of a challenge sent, once. */
function outcome(challenge) {
  const toast = toasts.get(challenge.id);
  if (!toast || toast.state !== 'open') return;
  const who = nameOf(challenge.to);
  switch (challenge.status) {
    case 'accepted':
      if (!isDaily(challenge) && challenge.game_id) {
        settle(challenge.id, 'accepted', `${who} accepted: on to the game…`);
        announce(`${who} accepted your challenge. Opening the game.`, true);
        location.assign(gameUrl(challenge.game_id));
      } else {
        settle(challenge.id, 'accepted', `${who} accepted your challenge. `,
          el('a', { class: 'toast-go', href: gameUrl(challenge.game_id) }, 'Open the game'));
        announce(`${who} accepted your challenge.`, true);
      }
      break;
    case 'declined':
      settle(challenge.id, 'declined', `${who} declined your challenge.`);
      announce(`${who} declined your challenge.`, true);
      break;
    case 'expired':
      settle(challenge.id, 'expired', `${who} did not answer your challenge in time.`);
      announce(`${who} did not answer your challenge in time.`);
      break;
    default: // cancelled (on another page), or gone
      removeToast(challenge.id);
  }
}

/** Whether challenge `challenge` (open or not) should have a toast here now. */
function wanted(challenge) {
  if (isMine(challenge)) {
    if (isOpen(challenge)) return !isDaily(challenge) || sentHere.has(challenge.id);
    return sentHere.has(challenge.id) && ['declined', 'expired'].includes(challenge.status);
  }
  return isOpen(challenge) && !later.has(challenge.id) && (!isDaily(challenge) || arrivedHere.has(challenge.id));
}

/** Shows challenge `challenge` as it now stands. */
function show(challenge) {
  const toast = toasts.get(challenge.id);
  if (toast) {
    if (toast.kind === 'incoming') {
      if (!isOpen(challenge)) removeToast(challenge.id);
    } else if (!isOpen(challenge)) {
      outcome({ ...challenge, status: challenge.status === 'open' ? 'expired' : challenge.status });
    }
    return;
  }
  if (!wanted(challenge)) return;
  const kind = isMine(challenge) ? 'outgoing' : 'incoming';
  const node = kind === 'incoming' ? incomingToast(challenge) : outgoingToast(challenge);
  // Received ones first: those are the ones to answer.
  if (kind === 'incoming') list.prepend(node);
  else list.append(node);
  toasts.set(challenge.id, { node, kind, state: 'open', challenge });
  tray.dataset.count = String(toasts.size);
  if (kind === 'outgoing' && !isOpen(challenge)) outcome(challenge);
  startTicking();
}

/** After a `hello`: what the server lists now; toasts of challenges it no longer lists end. */
async function resync() {
  for (const [id, toast] of [...toasts]) {
    if (challengeById(id) || toast.state !== 'open') continue;
    if (toast.kind === 'incoming') {
      removeToast(id);
      continue;
    }
    // A challenge sent that closed while the page was not listening: its notification says
    // whether it was accepted or declined; otherwise it was withdrawn or it expired.
    let found = null;
    try {
      const { notifications } = await api.notifications();
      found = notifications.find((item) => item.data && item.data.id === id && item.kind !== 'challenge_received');
    } catch { /* said as expired below */ }
    if (found) outcome(found.data);
    else if (toasts.has(id)) outcome({ ...toast.challenge, status: 'expired' });
  }
  for (const challenge of allChallenges()) show(challenge);
}

/** Moves the clocks on; a toast whose time ran out ends. */
function tick() {
  const now = serverNow();
  for (const [id, toast] of [...toasts]) {
    if (toast.state !== 'open') continue;
    const challenge = challengeById(id);
    if (!challenge) continue;
    const left = timeLeft(challenge.expires_at, now);
    const timer = part(toast.node, 'left');
    if (timer && timer.textContent !== left) timer.textContent = left;
    if (!left) show(challenge);
  }
  if (![...toasts.values()].some((toast) => toast.state === 'open')) {
    clearInterval(ticker);
    ticker = 0;
  }
}

function startTicking() {
  if (!ticker) ticker = setInterval(tick, TICK_MS);
}

/**
 * Says that `challenge` (the API's answer) was just sent from this page: its toast shows
 * until it is answered, even for a daily game, and a challenge refused at once says so.
 */
export function trackSent(challenge) {
  sentHere.add(challenge.id);
  updateChallenge(challenge);
  const known = challengeById(challenge.id) || challenge;
  show(known);
  if (isOpen(known)) announce(`Challenge sent. Waiting for ${nameOf(known.to)} to answer.`);
}

/** Shows the toasts of the feed's challenges, from now on. */
export function startTray() {
  if (tray) return;
  build();
  feed.addEventListener('hello', () => { resync(); });
  feed.addEventListener('challenge', (event) => {
    const { challenge, previous, pushed } = event.detail;
    const arrived = pushed && !previous && !isMine(challenge) && isOpen(challenge);
    if (arrived) arrivedHere.add(challenge.id);
    show(challenge);
    if (arrived && toasts.has(challenge.id)) {
      chime();
      announce(`${nameOf(challenge.from)} challenges you: ${terms(challenge, myName())}. Accept or decline in the challenges after the site header.`, true);
    }
  });
  if (ready()) resync();
}
