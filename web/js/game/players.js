// The players' boxes: names, disc counts, clocks and presence. Every box keeps its size
// whatever it shows, so nothing under it moves during a game.
import { Mode, POOLS, Seat, Side, Status } from '../protocol.js';
import { formatDeadline } from '../text.js';
import { clockLeft, dailyDeadline, playerName, ratingText, shownPosition, stakesLine } from './model.js';

const $ = (id) => document.getElementById(id);
export const LOW_TIME_MS = 10000;

const pad = (n) => String(n).padStart(2, '0');

/** A clock as clocks show it, rounded up: "0:07.3" under ten seconds, "4:59", "1:02:03" past an
 *  hour, "2 d 3 h" past a day (daily games). */
export function formatMs(ms) {
  const left = Math.max(0, ms);
  if (left < LOW_TIME_MS) {
    const tenths = Math.ceil(left / 100);
    return `0:${pad(Math.floor(tenths / 10))}.${tenths % 10}`;
  }
  const seconds = Math.ceil(left / 1000);
  if (seconds >= 86400) return `${Math.floor(seconds / 86400)} d ${Math.floor((seconds % 86400) / 3600)} h`;
  if (seconds >= 3600) return `${Math.floor(seconds / 3600)}:${pad(Math.floor((seconds % 3600) / 60))}:${pad(seconds % 60)}`;
  return `${Math.floor(seconds / 60)}:${pad(seconds % 60)}`;
}

/** In a live daily game, by when the side to move must move, as a local date and time:
 *  " · your move by Tue 8 Dec, 14:05". */
function deadlineText(model) {
  const now = performance.now();
  const deadline = dailyDeadline(model, now);
  if (deadline === null) return '';
  const at = new Date(Date.now() + (deadline - now));
  const running = model.game.clocks.running;
  const who = model.game.you === running || model.game.you === Seat.BOTH ? 'your move' : `${running === Side.BLACK ? 'Black' : 'White'} to move`;
  return ` · ${who} by ${formatDeadline(at)}`;
}

/** What a rating by a name is: its pool, and what "?" means. */
function ratingTitle(model, text) {
  if (!model.ratings) return '';
  const pool = POOLS.find((entry) => entry.key === model.ratings.pool);
  const provisional = text.includes('?') ? ' (provisional: fewer than 10 rated games)' : '';
  return `Rating, ${pool ? pool.name : model.ratings.pool}${provisional}`;
}

/** The names, counts and presence; `counts` are those of the position shown. */
export function renderPlayers(model, counts) {
  const { game } = model;
  for (const side of [Side.BLACK, Side.WHITE]) {
    const you = game.you === side ? ' (you)' : '';
    $(`name-${side}`).textContent = playerName(game, side) + you;
    $(`count-${side}`).textContent = String(counts[side]);
    const rating = $(`rating-${side}`);
    rating.textContent = ratingText(model, side);
    rating.hidden = !rating.textContent;
    rating.title = ratingTitle(model, rating.textContent);
    $(`player-${side}`).classList.toggle('to-move', game.to_move === side);
    // Only people can be away; shown while the game is on.
    const away = Boolean(game.presence) && !game.presence[side] && game.status === Status.LIVE;
    $(`player-${side}`).classList.toggle('away', away);
    $(`presence-${side}`).setAttribute('aria-hidden', away ? 'false' : 'true');
  }
  $('stakes').textContent = stakesLine(game) + deadlineText(model);
  // The opening of the position shown: the game's as it goes, that position's when looking back.
  const opening = shownPosition(model).openingName;
  $('opening-name').textContent = opening ? ` · ${opening}` : '';
  document.body.dataset.mode = game.mode;
  document.body.dataset.timed = String(Boolean(game.clocks) || [Mode.FRIEND, Mode.QUICK, Mode.RANKED].includes(game.mode));
}

/** The clocks at `now`; returns the side whose clock runs low (for the warning sound), or null. */
export function renderClocks(model, now) {
  let low = null;
  for (const side of [Side.BLACK, Side.WHITE]) {
    const clock = $(`clock-${side}`);
    const ms = clockLeft(model, side, now);
    if (ms === null) {
      clock.hidden = true;
      continue;
    }
    const running = model.game.clocks.running === side;
    clock.hidden = false;
    const text = `${formatMs(ms)}${running ? ' left' : ''}`;
    if (clock.textContent !== text) clock.textContent = text;
    const isLow = running && ms < LOW_TIME_MS;
    clock.classList.toggle('low', isLow);
    clock.classList.toggle('running', running);
    if (isLow) low = side;
  }
  return low;
}
