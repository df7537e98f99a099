// The players one follows (`GET /api/follows`), in a section of the page given (the home
// page's "Following" panel, one's own profile's card): each with their name (to their
// profile), whether they are online, "playing — watch" (to their game) while they play, and
// their last results as small W / L / D marks (each to its replay, the opponent in its title
// and in words for screen readers). Those playing come first, then those online. The list is
// asked again when the page comes back into view, when a followed player starts a game (the
// socket says so), and every minute while the page is shown.
import * as api from '../api.js';
import { profileUrl } from '../account.js';
import { el } from '../element.js';
import { feed } from '../notify/feed.js';
import { nameOf, timeAgo } from '../notify/words.js';
import { sentence } from '../text.js';
import { onlineDot } from './lookup.js';

const EVERY_MS = 60000; // the list is asked again this often while the page is shown
const AT_MOST_EVERY_MS = 5000; // coming back into view asks again, not more often than this

const MARKS = Object.freeze({
  win: Object.freeze({ mark: 'W', words: (opponent) => `Won against ${opponent}` }),
  loss: Object.freeze({ mark: 'L', words: (opponent) => `Lost to ${opponent}` }),
  draw: Object.freeze({ mark: 'D', words: (opponent) => `Drew with ${opponent}` }),
  aborted: Object.freeze({ mark: '–', words: (opponent) => `Aborted game against ${opponent}` }),
});

/** One result as a mark: "W", its words in the title and for screen readers. */
function resultMark(game) {
  const kind = MARKS[game.result] || MARKS.aborted;
  const words = kind.words(nameOf(game.opponent));
  const when = Number.isFinite(game.finished_at) ? `, ${timeAgo(game.finished_at)}` : '';
  return el('li', {},
    el('a', {
      class: 'result-mark', 'data-result': game.result, href: `/replay/${encodeURIComponent(game.game_id)}`, title: `${words}${when}`,
    }, el('span', { 'aria-hidden': 'true' }, kind.mark), el('span', { class: 'visually-hidden' }, `${words}${when}`)));
}

function entry(player) {
  const recent = player.recent || [];
  return el('li', {
    class: 'following-item', 'data-name': player.name, 'data-online': String(Boolean(player.online)), 'data-playing': player.playing ? 'true' : 'false',
  },
  el('span', { class: 'following-who' }, el('a', { class: 'following-name', href: profileUrl(player.name) }, player.name), onlineDot(player.online)),
  player.playing
    ? el('a', { class: 'following-watch', href: `/game/${encodeURIComponent(player.playing)}` },
      'playing — watch', el('span', { class: 'visually-hidden' }, ` ${player.name}’s game`))
    : null,
  recent.length
    ? el('ol', { class: 'result-marks', 'aria-label': `${player.name}’s last results, newest first` }, recent.map(resultMark))
    : null);
}

/** Those playing first, then those online; otherwise as the server lists them. */
const rank = (player) => (player.playing ? 0 : player.online ? 1 : 2);

/**
 * Lists whom the player follows in `section` (which has its heading): hidden while they follow
 * nobody, unless `always` (then a line says how to follow someone).
 */
export function renderFollowing(section, { always = false } = {}) {
  const list = el('ul', { class: 'following-list', id: `${section.id}-list` });
  const emptyLine = el('p', { class: 'muted following-empty', hidden: true },
    'You follow nobody yet. Follow players from their profiles to see here when they play, and hear when they start a game.');
  const statusLine = el('p', { class: 'visually-hidden', role: 'status' });
  const errorLine = el('p', { class: 'muted following-error', hidden: true });
  section.append(list, emptyLine, errorLine, statusLine);
  let playing = null; // the names playing as last listed (null before the first answer)
  let asked = 0;
  let last = 0;

  async function refresh({ quiet = false } = {}) {
    const question = ++asked;
    last = Date.now();
    let answer;
    try {
      answer = await api.following();
    } catch (error) {
      if (question !== asked) return;
      errorLine.textContent = `The players you follow could not be loaded: ${sentence(error.message)}`;
      errorLine.hidden = section.hidden;
      return;
    }
    if (question !== asked) return;
    errorLine.hidden = true;
    const players = (answer.following || []).map((player, index) => ({ player, index }))
      .sort((a, b) => rank(a.player) - rank(b.player) || a.index - b.index)
      .map(({ player }) => player);
    list.replaceChildren(...players.map(entry));
    emptyLine.hidden = players.length > 0;
    section.hidden = players.length === 0 && !always;
    section.dataset.ready = 'true';
    // Someone who started playing since the last look is said, unless a toast said it.
    const now = new Set(players.filter((player) => player.playing).map((player) => player.name));
    const started = playing ? [...now].filter((name) => !playing.has(name)) : [];
    playing = now;
    if (started.length && !quiet) statusLine.textContent = `${started.join(', ')} started playing.`;
  }

  const again = () => {
    if (document.visibilityState === 'visible' && Date.now() - last >= AT_MOST_EVERY_MS) refresh();
  };
  addEventListener('focus', again);
  document.addEventListener('visibilitychange', again);
  setInterval(() => {
    if (document.visibilityState === 'visible') refresh();
  }, EVERY_MS);
  feed.addEventListener('notification', (event) => {
    if (event.detail.notification.kind === 'followed_started') refresh({ quiet: true });
  });
  return refresh();
}
