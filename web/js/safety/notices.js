// What moderators did that concerns the signed-in account, as banners on the home page: rating
// points given back for a game lost to an account found using engine assistance, and the
// account's own sanctions (and their lifting). Each shows until dismissed; the dismissal is
// remembered in this browser under a key of its own.
import * as api from '../api.js';
import { el } from '../element.js';
import { POOLS } from '../protocol.js';
import { dayText } from './words.js';

const number = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
const poolName = (key) => (POOLS.find((pool) => pool.key === key) || { name: key }).name;
const storeKey = (id) => `outflank.notice.${id}`;

function dismissed(id) {
  try { return localStorage.getItem(storeKey(id)) !== null; } catch { return false; }
}

function dismiss(id) {
  try { localStorage.setItem(storeKey(id), String(Date.now())); } catch { /* private mode */ }
}

const SANCTION_WORDS = Object.freeze({
  engine: (since) => `Your account is labelled for engine assistance since ${since}: it is off the leaderboards and cannot play ranked games.`,
  name: (since) => `A moderator reset your public name on ${since} because it broke the site's rules. Choose another one to play ranked games.`,
  closed: (since) => `Your account was closed by a moderator on ${since}.`,
});

const LIFTED_WORDS = Object.freeze({
  engine: 'The engine-assistance label on your account',
  name: 'The reset of your public name',
  closed: 'The closing of your account',
});

/** The notices of the server's answer, each `{id, text, link?}`, oldest concerns first. */
export function noticesOf({ sanctions = [], refunds = [] }) {
  const list = [];
  for (const sanction of sanctions) {
    const words = SANCTION_WORDS[sanction.kind];
    if (!words) continue;
    if (sanction.lifted_at) {
      list.push({
        id: `lifted.${sanction.kind}.${sanction.at}`,
        text: `${LIFTED_WORDS[sanction.kind]} was lifted on ${dayText(sanction.lifted_at)}.`,
      });
    } else {
      list.push({ id: `sanction.${sanction.kind}.${sanction.at}`, text: words(dayText(sanction.at)), kind: 'error' });
    }
  }
  for (const refund of refunds) {
    const points = number.format(refund.points);
    list.push({
      id: `refund.${refund.game}.${refund.at}`,
      text: `A moderator gave you back ${points} rating point${refund.points === 1 ? '' : 's'} (${poolName(refund.pool)}) `
        + 'for a game lost to an account that used engine assistance.',
      link: { href: `/game/${encodeURIComponent(refund.game)}`, text: 'See the game' },
    });
  }
  return list;
}

function banner(notice, container, after) {
  const text = el('p', {}, notice.text);
  if (notice.link) text.append(' ', el('a', { href: notice.link.href }, notice.link.text));
  const close = el('button', { type: 'button', class: 'notice-dismiss' }, 'Dismiss');
  const box = el('div', { class: 'banner notice account-notice', 'data-notice': notice.id, 'data-kind': notice.kind || 'info' },
    text, close);
  close.setAttribute('aria-label', `Dismiss: ${notice.text}`);
  close.addEventListener('click', () => {
    dismiss(notice.id);
    // The focus goes to the next notice's button, else where the page says.
    const next = box.nextElementSibling || box.previousElementSibling;
    box.remove();
    container.hidden = !container.firstElementChild;
    const target = next ? next.querySelector('button') : after();
    if (target) target.focus();
  });
  return box;
}

/**
 * Shows the account's notices not yet dismissed in `container`; `after()` gives the element
 * to focus once the last is dismissed. Resolves to the server's answer (null when it could
 * not be read), for the page to use too.
 */
export async function showNotices(container, after = () => null) {
  let answer;
  try {
    answer = await api.notices();
  } catch {
    return null;
  }
  const shown = noticesOf(answer).filter((notice) => !dismissed(notice.id));
  container.replaceChildren(...shown.map((notice) => banner(notice, container, after)));
  container.hidden = shown.length === 0;
  return answer;
}
