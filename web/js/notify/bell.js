// The bell in the site header of a signed-in player: the number of unread notifications on it
// (none at 0; part of the button's name for screen readers), and under it, when pressed, the
// latest notifications, newest first, each with when it came and what to do next: a game to
// open, a challenge still open to accept or decline. Opening the list marks what it shows
// read; "Mark all read" marks the rest. The challenges that still wait are listed first: those
// the player sent, each with Cancel (and any received that the list does not show, with Accept
// and Decline). Escape or a click elsewhere closes it. A notification that no toast speaks of
// is said to screen readers as it comes. A followed player's game started links to it to
// watch; a daily game's turn, and its reminder (marked urgent), say how long is left. Under
// the list, where the browser can, the kinds this device shows as pushed notifications.
import * as api from '../api.js';
import { profileUrl } from '../account.js';
import { el } from '../element.js';
import { sentence } from '../text.js';
import { allChallenges, challengeById, feed, isMine, myName, setUnread, unread, updateChallenge } from './feed.js';
import { wantsToast } from './news.js';
import { pushSection, refreshPush } from './push.js';
import { announce, gameUrl, hasToast } from './tray.js';
import {
  LINK_WORDS, URGENT_WORD, isOpen, moveTimeLeft, nameOf, notificationText, terms, timeAgo, timeLeft,
} from './words.js';

const SVG = 'http://www.w3.org/2000/svg';
const full = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

let wrapper = null;
let button = null;
let badge = null;
let badgeWords = null;
let panel = null;
let heading = null;
let statusLine = null;
let waitingBox = null;
let waitingList = null;
let list = null;
let emptyLine = null;
let shown = []; // the notifications listed, newest first
let fresh = new Set(); // the ids that were unread when the list was opened
let loaded = false;

/** A bell, drawn for the eye only (the button's words name it). */
function bellIcon() {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 24 24');
  svg.setAttribute('width', '22');
  svg.setAttribute('height', '22');
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('focusable', 'false');
  svg.classList.add('notify-icon');
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', 'M12 3a6 6 0 0 0-6 6v3.6L4.3 15.4A1 1 0 0 0 5.2 17h13.6a1 1 0 0 0 .9-1.6L18 12.6V9a6 6 0 0 0-6-6zm-2.5 15.5a2.5 2.5 0 0 0 5 0');
  svg.append(path);
  return svg;
}

/** The number on the bell, and in its name. */
function drawCount() {
  const n = unread();
  badge.textContent = n > 99 ? '99+' : String(n);
  badge.hidden = n === 0;
  badgeWords.textContent = n === 0 ? '' : ' unread';
  wrapper.dataset.unread = String(n);
}

function timeNode(ms) {
  const date = new Date(ms);
  return el('time', { datetime: date.toISOString(), title: full.format(date) }, timeAgo(ms));
}

function say(text) {
  statusLine.textContent = text;
}

/** The page goes on to the game of challenge `id`, accepted; or says why not. */
async function accept(id) {
  try {
    const answer = await api.acceptChallenge(id);
    updateChallenge(answer);
    location.assign(gameUrl(answer.game_id));
  } catch (error) {
    say(`Not accepted: ${sentence(error.message)}`);
  }
}

/** Runs `answer` (declining or cancelling challenge `id`), then says `done`; the focus goes to
 *  the list's heading as the buttons pressed go. */
async function answer(id, call, done) {
  try {
    updateChallenge(await call(id));
    heading.focus();
    say(done);
  } catch (error) {
    say(sentence(error.message));
  }
}

function challengeButtons(challenge, describedBy) {
  if (isMine(challenge)) {
    const cancel = el('button', { type: 'button', class: 'notify-cancel', 'aria-describedby': describedBy }, 'Cancel');
    cancel.addEventListener('click', () => {
      cancel.disabled = true;
      answer(challenge.id, api.cancelChallenge, `Your challenge to ${nameOf(challenge.to)} is cancelled.`);
    });
    return el('div', { class: 'row notify-actions' }, cancel);
  }
  const yes = el('button', { type: 'button', class: 'primary notify-accept', 'aria-describedby': describedBy }, 'Accept');
  const no = el('button', { type: 'button', class: 'notify-decline', 'aria-describedby': describedBy }, 'Decline');
  yes.addEventListener('click', () => {
    yes.disabled = true;
    no.disabled = true;
    accept(challenge.id).finally(() => { yes.disabled = false; no.disabled = false; });
  });
  no.addEventListener('click', () => {
    no.disabled = true;
    answer(challenge.id, api.declineChallenge, `You declined ${nameOf(challenge.from)}’s challenge.`);
  });
  return el('div', { class: 'row notify-actions' }, yes, no);
}

/** What one notification leads to: a game, the challenge's buttons, the player's reports. */
function followUp(notification, textId) {
  const data = notification.data || {};
  const words = LINK_WORDS[notification.kind];
  switch (notification.kind) {
    case 'challenge_accepted':
    case 'followed_started':
      return data.game_id ? el('a', { href: gameUrl(data.game_id) }, words) : null;
    case 'daily_turn':
    case 'daily_reminder': {
      const left = moveTimeLeft(notification);
      return el('span', { class: 'notify-next' }, left ? `${left} · ` : null,
        data.game_id ? el('a', { href: gameUrl(data.game_id) }, words) : null);
    }
    case 'challenge_received': {
      const now = challengeById(data.id);
      return isOpen(now) ? challengeButtons(now, textId) : el('span', { class: 'muted' }, 'No longer open');
    }
    case 'report_acted_on':
      return el('a', { href: `${profileUrl(myName())}#my-reports-card` }, words);
    case 'guest_history_kept':
      return el('a', { href: profileUrl(myName()) }, words);
    default:
      return null;
  }
}

function notificationItem(notification) {
  const textId = `notify-${notification.id}-text`;
  const isNew = fresh.has(notification.id) || !notification.read;
  const next = followUp(notification, textId);
  const actions = next && next.classList.contains('notify-actions') ? next : null;
  return el('li', { class: 'notify-item', 'data-kind': notification.kind, 'data-id': notification.id, 'data-new': isNew },
    el('p', { class: 'notify-text', id: textId },
      isNew ? el('span', { class: 'notify-new' }, el('span', { class: 'visually-hidden' }, 'New: ')) : null,
      notification.kind === 'daily_reminder' ? el('span', { class: 'notify-urgent' }, `${URGENT_WORD}: `) : null,
      notificationText(notification, myName())),
    el('p', { class: 'notify-meta' }, timeNode(notification.created_at), next && !actions ? [' · ', next] : null),
    actions);
}

function waitingItem(challenge) {
  const textId = `notify-waiting-${challenge.id}`;
  const what = isMine(challenge)
    ? ['Your challenge to ', el('a', { href: profileUrl(challenge.to) }, nameOf(challenge.to)), `: ${terms(challenge, myName())}`]
    : [el('a', { href: profileUrl(challenge.from) }, nameOf(challenge.from)), ` challenges you: ${terms(challenge, myName())}`];
  return el('li', { class: 'notify-item', 'data-challenge': challenge.id },
    el('p', { class: 'notify-text', id: textId }, what),
    el('p', { class: 'notify-meta' }, timeLeft(challenge.expires_at)),
    challengeButtons(challenge, textId));
}

/** Draws the list as it stands, when open. */
function draw() {
  if (panel.hidden) return;
  // A challenge received shows with its notification; one too old to be listed shows here.
  const listed = new Set(loaded ? shown.map((notification) => notification.data && notification.data.id) : []);
  const waiting = allChallenges().filter((challenge) => isOpen(challenge)
    && (isMine(challenge) || (loaded && !listed.has(challenge.id))));
  waitingList.replaceChildren(...waiting.map(waitingItem));
  waitingBox.hidden = waiting.length === 0;
  if (!loaded) return;
  list.replaceChildren(...shown.map(notificationItem));
  emptyLine.hidden = shown.length > 0;
}

/** Opens the list: the latest notifications, those unread marked read at once. */
async function openPanel() {
  panel.hidden = false;
  button.setAttribute('aria-expanded', 'true');
  loaded = false;
  list.replaceChildren();
  emptyLine.hidden = true;
  say('Loading…');
  draw();
  refreshPush();
  try {
    const answer = await api.notifications();
    if (panel.hidden) return;
    shown = answer.notifications || [];
    fresh = new Set(shown.filter((notification) => !notification.read).map((notification) => notification.id));
    loaded = true;
    say('');
    draw();
    setUnread(answer.unread);
    if (fresh.size) {
      const marking = new Set(fresh);
      const marked = await api.markNotificationsRead([...marking]);
      for (const notification of shown) if (marking.has(notification.id)) notification.read = true;
      setUnread(marked.unread);
    }
  } catch (error) {
    say(`The notifications could not be loaded: ${sentence(error.message)}`);
  }
}

function closePanel({ focus = false } = {}) {
  if (panel.hidden) return;
  panel.hidden = true;
  button.setAttribute('aria-expanded', 'false');
  fresh = new Set();
  if (focus) button.focus();
}

async function markAll() {
  try {
    const answer = await api.markNotificationsRead();
    for (const notification of shown) notification.read = true;
    fresh = new Set();
    setUnread(answer.unread);
    draw();
    say('All marked read.');
  } catch (error) {
    say(`Not marked read: ${sentence(error.message)}`);
  }
}

function build() {
  badge = el('span', { class: 'notify-count', id: 'notify-count', hidden: true });
  badgeWords = el('span', { class: 'visually-hidden' });
  button = el('button', {
    type: 'button', id: 'notify-bell', class: 'notify-bell', 'aria-expanded': 'false', 'aria-controls': 'notify-panel',
  }, bellIcon(), el('span', { class: 'visually-hidden' }, 'Notifications '), badge, badgeWords);
  heading = el('h2', { id: 'notify-heading', tabindex: '-1' }, 'Notifications');
  const readAll = el('button', { type: 'button', id: 'notify-read-all', class: 'link-button' }, 'Mark all read');
  statusLine = el('p', { id: 'notify-status', class: 'notify-status', role: 'status' });
  waitingList = el('ul', { class: 'notify-list', id: 'notify-waiting' });
  waitingBox = el('div', { class: 'notify-waiting', hidden: true },
    el('h3', { id: 'notify-waiting-heading' }, 'Still open'), waitingList);
  waitingList.setAttribute('aria-labelledby', 'notify-waiting-heading');
  list = el('ul', { class: 'notify-list', id: 'notify-list', 'aria-labelledby': 'notify-heading' });
  emptyLine = el('p', { class: 'muted', id: 'notify-empty', hidden: true },
    'Nothing yet: challenges and their answers, the games of players you follow, your turns in daily games, and what moderators did about your reports show here.');
  panel = el('div', { id: 'notify-panel', class: 'notify-panel', role: 'region', 'aria-labelledby': 'notify-heading', hidden: true },
    el('div', { class: 'notify-head' }, heading, readAll),
    statusLine, waitingBox, list, emptyLine, pushSection());
  wrapper = el('div', { class: 'notify', id: 'notify' }, button, panel);

  button.addEventListener('click', () => {
    if (panel.hidden) openPanel();
    else closePanel();
  });
  readAll.addEventListener('click', markAll);
  wrapper.addEventListener('keydown', (event) => {
    if (event.key === 'Escape' && !panel.hidden) {
      event.preventDefault();
      closePanel({ focus: true });
    }
  });
  document.addEventListener('pointerdown', (event) => {
    if (!wrapper.contains(event.target)) closePanel();
  });
  document.addEventListener('focusin', (event) => {
    if (!wrapper.contains(event.target)) closePanel();
  });

  feed.addEventListener('unread', drawCount);
  feed.addEventListener('hello', () => {
    wrapper.dataset.ready = 'true'; // the server said what there is
    draw();
  });
  feed.addEventListener('challenge', draw);
  feed.addEventListener('notification', (event) => {
    const { notification } = event.detail;
    if (!loaded || shown.some((item) => item.id === notification.id)) return;
    shown = [notification, ...shown];
    draw();
  });
  feed.addEventListener('notification', (event) => {
    const { notification } = event.detail;
    const about = notification.data && notification.data.id;
    if (notification.kind === 'challenge_received' || (about && hasToast(about)) || wantsToast(notification)) return;
    announce(`New notification: ${notificationText(notification, myName())}`);
  });
  drawCount();
}

/** The bell with its list, made once and kept across redraws of the header. */
export function notificationBell() {
  if (!wrapper) build();
  return wrapper;
}
