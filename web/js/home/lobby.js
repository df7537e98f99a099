// The lobby under the ways to play: players online and waiting, games in progress, the live
// games to watch (best rated first) and the latest results, all from one /api/lobby answer
// every 10 s, so the numbers agree with each other and with the lists.
import * as api from '../api.js';
import { formatRating } from '../account.js';
import { controlName } from '../text.js';
import { $ } from './dom.js';

const EVERY_MS = 10000;
const LIVE_MODES = Object.freeze({ quick: 'Quick', ranked: 'Ranked' });
const count = new Intl.NumberFormat('en');
const plural = (n, one, many) => `${count.format(n)} ${n === 1 ? one : many}`;
const isCount = (n) => Number.isSafeInteger(n) && n >= 0;
const ago = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** "2 players online · 1 waiting · 1 game in progress". */
export function statsLine({ online, waiting, games_in_progress: games }) {
  return [
    plural(online, 'player online', 'players online'),
    `${count.format(waiting)} waiting`,
    plural(games, 'game in progress', 'games in progress'),
  ].join(' · ');
}

/** A side as listed: its name, with the account's rating when there is one. */
function side(seat, withRating) {
  const name = String(seat.name || 'Someone');
  return withRating && Number.isFinite(seat.rating) ? `${name} (${formatRating(seat.rating, seat.provisional)})` : name;
}

/** "3 minutes ago", "just now". */
function since(ms) {
  const seconds = Math.round((ms - Date.now()) / 1000);
  if (Math.abs(seconds) < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return ago.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return ago.format(hours, 'hour');
  return ago.format(Math.round(hours / 24), 'day');
}

function item(href, title, meta, label) {
  const li = document.createElement('li');
  const link = document.createElement('a');
  link.href = href;
  link.setAttribute('aria-label', label);
  const players = document.createElement('span');
  players.className = 'lobby-players';
  players.textContent = title;
  const details = document.createElement('span');
  details.className = 'lobby-meta';
  details.textContent = meta;
  link.append(players, details);
  li.append(link);
  return li;
}

/** "Ranked · 3+2": the kind of game and its clock. */
function stakes(game) {
  const mode = LIVE_MODES[game.mode] || 'Game';
  return game.control ? `${mode} · ${controlName(game.control)}` : mode;
}

function liveItem(game) {
  const title = `${side(game.black, true)} vs ${side(game.white, true)}`;
  const moves = plural(game.plies, 'move', 'moves');
  const meta = `${stakes(game)} · ${moves} played`;
  return item(game.url, title, meta, `Watch ${title}, ${meta}`);
}

/** "Ann beat Bob", "Ann beat Bob on time", "Ann and Bob agreed a draw". */
function resultTitle(game, black, white) {
  if (game.winner === 'draw') {
    return game.reason === 'agreed_draw' ? `${black} and ${white} agreed a draw` : `${black} and ${white} drew`;
  }
  const [winner, loser] = game.winner === 'white' ? [white, black] : [black, white];
  if (game.reason === 'resignation') return `${winner} beat ${loser}, who resigned`;
  if (game.reason === 'timeout') return `${winner} beat ${loser} on time`;
  return `${winner} beat ${loser}`;
}

function resultItem(game) {
  const title = resultTitle(game, side(game.black, false), side(game.white, false));
  const counts = game.counts || {};
  const when = Number.isFinite(game.finished_at) ? ` · ${since(game.finished_at)}` : '';
  const meta = `${stakes(game)} · Black ${counts.black} · White ${counts.white}${when}`;
  return item(game.url, title, meta, `Replay: ${title}, ${meta}`);
}

let asked = 0;

/** Asks for the lobby now (after the player's own search started or stopped, say). */
export async function refreshLobby() {
  if (document.hidden) return;
  asked += 1;
  const mine = asked;
  try {
    const lobby = await api.lobby();
    if (mine !== asked) return; // a newer answer is on its way
    if (![lobby.online, lobby.waiting, lobby.games_in_progress].every(isCount)) throw new Error('unexpected lobby');
    const stats = $('stats');
    stats.textContent = statsLine(lobby);
    stats.hidden = false;
    const live = Array.isArray(lobby.live_games) ? lobby.live_games : [];
    const results = Array.isArray(lobby.recent_results) ? lobby.recent_results : [];
    $('live-games').replaceChildren(...live.map(liveItem));
    $('live-empty').hidden = live.length > 0;
    $('recent-results').replaceChildren(...results.map(resultItem));
    $('results-empty').hidden = results.length > 0;
    $('lobby-error').hidden = true;
  } catch {
    if (mine !== asked) return;
    $('stats').hidden = true;
    $('lobby-error').hidden = false;
  }
}

export function initLobby() {
  refreshLobby();
  setInterval(refreshLobby, EVERY_MS);
  document.addEventListener('visibilitychange', () => { if (!document.hidden) refreshLobby(); });
}
