// The players' boxes: names, disc counts, clocks and presence. Every box keeps its size
// whatever it shows, so nothing under it moves during a game.
import { Mode, Side, Status } from '../protocol.js';
import { clockLeft, playerName } from './model.js';

const $ = (id) => document.getElementById(id);
export const LOW_TIME_MS = 10000;

/** "0:07", rounded up to the second, as clocks do. */
export function formatMs(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

/** The names, counts and presence; `counts` are those of the position shown. */
export function renderPlayers(model, counts) {
  const { game } = model;
  for (const side of [Side.BLACK, Side.WHITE]) {
    const you = game.you === side ? ' (you)' : '';
    $(`name-${side}`).textContent = playerName(game, side) + you;
    $(`count-${side}`).textContent = String(counts[side]);
    $(`player-${side}`).classList.toggle('to-move', game.to_move === side);
    // Only people can be away; shown while the game is on.
    const away = Boolean(game.presence) && !game.presence[side] && game.status === Status.LIVE;
    $(`player-${side}`).classList.toggle('away', away);
    $(`presence-${side}`).setAttribute('aria-hidden', away ? 'false' : 'true');
  }
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
