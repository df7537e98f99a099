// Looking players up by the start of their public name (`GET /api/players?q=`), shared by the
// leaderboard's "Find a player" and the header's search: the question is asked a moment after
// the last keystroke, and an answer to an older question than the latest is dropped. Also how
// a player found is written: whether they are online, and their ratings, those of the pools
// they played most first.
import * as api from '../api.js';
import { formatRating } from '../account.js';
import { el } from '../element.js';
import { POOLS } from '../protocol.js';

/** How long after the last keystroke the question is asked. */
export const WAIT_MS = 250;

/** The pools' names where space is short: "30 s", "Blitz". */
const SHORT_NAMES = Object.freeze({ '30s': '30 s', blitz: 'Blitz', rapid: 'Rapid', daily: 'Daily', xot: 'XOT' });

/** A pool's name in a compact list ("Blitz"), else its full name ("Blitz 3+2"), else its key. */
export function poolName(key, { short = false } = {}) {
  if (short && SHORT_NAMES[key]) return SHORT_NAMES[key];
  const pool = POOLS.find((known) => known.key === key);
  return pool ? pool.name : key;
}

/**
 * "Blitz 1,432 · 30 s 1,210?": a player's ratings (the search's `{pool: {rating, provisional,
 * rated_games}}`), each pool named by `label` (its short name by default), at most `limit` of
 * them, those with the most rated games first unless `byGames` is false (then as the server
 * lists them); '' for a player without any.
 */
export function ratingsText(ratings, { label = (pool) => poolName(pool, { short: true }), limit = Infinity, byGames = true } = {}) {
  const entries = Object.entries(ratings || {});
  if (byGames) entries.sort(([, a], [, b]) => (b.rated_games || 0) - (a.rated_games || 0));
  return entries.slice(0, limit)
    .map(([pool, standing]) => `${label(pool)} ${formatRating(standing.rating, standing.provisional)}`)
    .join(' · ');
}

/** A dot, filled when the player is online, with the words for screen readers. */
export const onlineDot = (online) => el('span', { class: 'online-dot', 'data-online': online ? 'true' : 'false' },
  el('span', { class: 'visually-hidden' }, online ? ' online' : ' offline'));

/**
 * A player search asked as the visitor types: `soon(q)` asks after `wait` ms without another
 * keystroke, `now(q)` at once (and returns the players found, or null for an empty question,
 * a failure, or an answer overtaken by a newer question); `onAnswer(players, q)` gets the latest answer, `onClear()` says an empty question
 * was asked, `onError(error, q)` a failure. `cancel()` forgets a question not yet answered.
 */
export function playerLookup({ onAnswer, onClear = () => {}, onError = () => {}, wait = WAIT_MS }) {
  let timer = 0;
  let asked = 0;
  async function now(text) {
    clearTimeout(timer);
    const q = String(text || '').trim();
    const question = ++asked;
    if (!q) {
      onClear();
      return null;
    }
    try {
      const { players } = await api.findPlayers(q);
      if (question !== asked) return null;
      onAnswer(players || [], q);
      return players || [];
    } catch (error) {
      if (question === asked) onError(error, q);
      return null;
    }
  }
  return {
    now,
    soon(text) {
      clearTimeout(timer);
      timer = setTimeout(() => now(text), wait);
    },
    cancel() {
      clearTimeout(timer);
      asked += 1;
    },
  };
}
