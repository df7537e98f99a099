// Your games: the live games this player is in (against people or the computer), those waiting for their move
// first (a daily game by its deadline), so that a game left open elsewhere is one click away.
import * as api from '../api.js';
import { controlName, formatDeadline } from '../text.js';
import { $ } from './dom.js';

const MODES = Object.freeze({
  friend: 'With a friend', quick: 'Quick game', ranked: 'Ranked', computer: 'Against the computer',
});
function item(game) {
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.href = game.url;
  const title = document.createElement('span');
  title.className = 'lobby-players';
  title.textContent = `${game.your_turn ? 'Your move' : `${game.opponent} to move`} · against ${game.opponent}`;
  const meta = document.createElement('span');
  meta.className = 'lobby-meta';
  const parts = [MODES[game.mode] || 'Game'];
  if (game.control) parts.push(controlName(game.control));
  if (game.xot) parts.push('XOT opening');
  if (Number.isFinite(game.deadline)) parts.push(`${game.your_turn ? 'move' : 'their move'} by ${formatDeadline(new Date(game.deadline))}`);
  meta.textContent = parts.join(' · ');
  link.append(title, meta);
  li.append(link);
  return li;
}

/** Lists the player's games, or hides the card (no games, or no session yet). */
export async function refreshMyGames() {
  try {
    const { games } = await api.myGames();
    $('my-games-list').replaceChildren(...games.map(item));
    $('my-games').hidden = games.length === 0;
  } catch {
    $('my-games').hidden = true;
  }
}
