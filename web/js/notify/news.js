// Brief toasts of news that arrives while a page is open, in the challenges' corner: a followed
// player started a game (with Watch), it is the player's move in a daily game and the time
// left (with Play your move), and the reminder that less than a tenth of that time is left,
// which stands out, is said at once to screen readers (an alert) and stays until dismissed.
// The others go by themselves after a few seconds, unless the pointer or the focus is on
// them; each has Dismiss. None shows on the page of the game it is about, and the bell lists
// them all anyway.
import { el } from '../element.js';
import { feed, myName } from './feed.js';
import { addToast, announce, gameUrl, keepFocus } from './tray.js';
import { LINK_WORDS, URGENT_WORD, moveTimeLeft, notificationText } from './words.js';

const KINDS = new Set(['followed_started', 'daily_turn', 'daily_reminder']);
const SHOWN_MS = 12000; // how long a toast that is not urgent stays
const MOST = 3; // toasts of news at once: an older one goes for a newer

const shown = new Map(); // notification id → {node, timer}
let started = false;

/** Whether this page is the game `id`'s (where its news is no news). */
const onGamePage = (id) => location.pathname === gameUrl(id);

/** Whether `notification`, just arrived, gets a toast here (so the toast says it, not the bell). */
export function wantsToast(notification) {
  if (!notification || !KINDS.has(notification.kind)) return false;
  const data = notification.data || {};
  return Boolean(data.game_id) && !onGamePage(data.game_id);
}

function remove(id) {
  const toast = shown.get(id);
  if (!toast) return;
  clearTimeout(toast.timer);
  keepFocus(toast.node);
  toast.node.remove();
  shown.delete(id);
}

/** Goes after `SHOWN_MS`, the clock stopped while the pointer or the focus is on the toast. */
function fadeLater(id, node) {
  const toast = shown.get(id);
  let hovered = false;
  let focused = false;
  const wait = () => {
    clearTimeout(toast.timer);
    if (!hovered && !focused) toast.timer = setTimeout(() => remove(id), SHOWN_MS);
  };
  node.addEventListener('pointerenter', () => { hovered = true; wait(); });
  node.addEventListener('pointerleave', () => { hovered = false; wait(); });
  node.addEventListener('focusin', () => { focused = true; wait(); });
  node.addEventListener('focusout', (event) => {
    if (node.contains(event.relatedTarget)) return;
    focused = false;
    wait();
  });
  wait();
}

function show(notification) {
  const { id, kind } = notification;
  if (shown.has(id)) return;
  const urgent = kind === 'daily_reminder';
  const text = notificationText(notification, myName());
  const left = moveTimeLeft(notification);
  const textId = `news-${id}-text`;
  const dismiss = el('button', { type: 'button', class: 'toast-dismiss', 'aria-describedby': textId }, 'Dismiss');
  const node = el('div', {
    class: 'challenge-toast news-toast', 'data-kind': kind, 'data-notification': id, 'data-urgent': urgent ? 'true' : null,
    role: 'group', 'aria-labelledby': textId,
  },
  el('p', { class: 'toast-text', id: textId }, urgent ? el('span', { class: 'news-urgent' }, `${URGENT_WORD}: `) : null, text),
  left ? el('p', { class: 'toast-time' }, left) : null,
  el('div', { class: 'row toast-actions' },
    el('a', { class: 'button primary toast-go', href: gameUrl(notification.data.game_id), 'aria-describedby': textId }, LINK_WORDS[kind]),
    dismiss));
  dismiss.addEventListener('click', () => remove(id));
  addToast(node);
  shown.set(id, { node, timer: 0 });
  if (!urgent) fadeLater(id, node);
  // The oldest that is not urgent goes first when there are too many.
  while (shown.size > MOST) {
    const entries = [...shown];
    const [oldest] = entries.find(([, toast]) => !toast.node.dataset.urgent) || entries[0];
    remove(oldest);
  }
  announce(left ? `${text} ${left}.` : text, urgent);
}

/** Shows the toasts of news arriving from now on. */
export function startNews() {
  if (started) return;
  started = true;
  feed.addEventListener('notification', (event) => {
    const { notification } = event.detail;
    if (wantsToast(notification)) show(notification);
  });
}
