// The lobby under the ways to play: players online and waiting, the open seeks (a click meets
// one), games in progress with their boards as they change (the best rated one larger, the
// site's "TV"), and the latest results. The server pushes the lobby over /api/lobby/ws as it
// changes; while the socket is down, /api/lobby is asked every 10 s instead. Each is one
// answer, so the numbers agree with each other and with the lists. Players the signed-in
// account blocked are left out of the lists (the counts still count them).
import * as api from '../api.js';
import { formatRating, profileUrl } from '../account.js';
import { POOLS, socketUrl } from '../protocol.js';
import { controlName, timeAgo } from '../text.js';
import { $ } from './dom.js';

const EVERY_MS = 10000;
const RECONNECT_MS = 5000;
const LIVE_MODES = Object.freeze({ quick: 'Quick', ranked: 'Ranked' });
const count = new Intl.NumberFormat('en');
const plural = (n, one, many) => `${count.format(n)} ${n === 1 ? one : many}`;
const isCount = (n) => Number.isSafeInteger(n) && n >= 0;

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

/** A small picture of `board` (64 characters, `X` Black, `O` White), for the eye only: the
 *  link around it says what it shows. */
function miniBoard(board) {
  const picture = document.createElement('span');
  picture.className = 'mini-board';
  picture.setAttribute('aria-hidden', 'true');
  for (const code of String(board).slice(0, 64)) {
    const cell = document.createElement('span');
    if (code === 'X' || code === 'O') cell.className = code === 'X' ? 'black' : 'white';
    picture.append(cell);
  }
  return picture;
}

function liveItem(game, index) {
  const title = `${side(game.black, true)} vs ${side(game.white, true)}`;
  const moves = plural(game.plies, 'move', 'moves');
  const meta = `${stakes(game)} · ${moves} played`;
  const li = item(game.url, title, meta, `Watch ${title}, ${meta}`);
  if (typeof game.board === 'string' && game.board.length >= 64) {
    const link = li.querySelector('a');
    link.classList.add('with-board');
    // The best rated game first, larger: what the site is watching.
    if (index === 0) li.classList.add('tv');
    link.prepend(miniBoard(game.board));
  }
  return li;
}

/** "waiting 12 s", "waiting 3 min", from when a seek began. */
function waited(ms) {
  const seconds = Math.max(0, Math.round((Date.now() - ms) / 1000));
  return seconds < 60 ? `waiting ${seconds} s` : `waiting ${Math.round(seconds / 60)} min`;
}

const poolName = (key) => (POOLS.find((pool) => pool.key === key) || { name: key }).name;

/** Meets `seek`: the same queue, in its first pool (what a click on Play there would do). */
function meet(seek) {
  const pool = seek.pools[0];
  if (seek.queue === 'ranked') {
    for (const box of document.querySelectorAll('#ranked-pools input[type="checkbox"]')) {
      box.checked = box.value === pool;
      box.dispatchEvent(new Event('change', { bubbles: true }));
    }
    const play = $('ranked-game');
    if (play.disabled || play.hidden) {
      $('ranked-card').scrollIntoView({ block: 'center' });
      return;
    }
    play.click();
    return;
  }
  const tile = [...document.querySelectorAll('#quick-pool input')].find((input) => input.value === pool);
  if (tile) {
    tile.checked = true;
    tile.dispatchEvent(new Event('change', { bubbles: true }));
  }
  $('quick-game').click();
}

const STATUS_WORDS = Object.freeze({ playing: 'playing', waiting: 'waiting', here: '' });

/** Someone online: their name (an account's linking to its profile) and what they are doing. */
function onlineItem(player) {
  const li = document.createElement('li');
  li.dataset.status = player.status;
  const name = document.createElement(player.account ? 'a' : 'span');
  name.textContent = String(player.name);
  if (player.account) name.href = profileUrl(player.name);
  li.append(name);
  const doing = STATUS_WORDS[player.status];
  if (doing) {
    const status = document.createElement('span');
    status.className = 'online-status';
    status.textContent = ` ${doing}`;
    li.append(status);
  }
  return li;
}

function seekItem(seek) {
  const li = document.createElement('li');
  li.className = 'seek';
  const who = document.createElement('span');
  who.className = 'lobby-players';
  who.textContent = Number.isFinite(seek.rating) ? `${seek.name} (${formatRating(seek.rating, false)})` : String(seek.name);
  const where = document.createElement('span');
  where.className = 'lobby-meta';
  const kind = seek.queue === 'ranked' ? 'Ranked' : 'Quick';
  where.textContent = `${kind} · ${seek.pools.map(poolName).join(' or ')} · ${waited(seek.since)}`;
  const button = document.createElement('button');
  button.type = 'button';
  button.className = 'seek-play';
  button.textContent = 'Play';
  button.setAttribute('aria-label', `Play ${seek.name}: ${kind}, ${poolName(seek.pools[0])}`);
  button.addEventListener('click', () => meet(seek));
  li.append(who, where, button);
  return li;
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
  const when = Number.isFinite(game.finished_at) ? ` · ${timeAgo(game.finished_at)}` : '';
  const meta = `${stakes(game)} · Black ${counts.black} · White ${counts.white}${when}`;
  return item(game.url, title, meta, `Replay: ${title}, ${meta}`);
}

/** Fills list `id` with `make` of each of `items`, unless it shows them already: a push that
 *  changed another list leaves this one (and the focus in it) as it is. The times shown
 *  ("waiting 12 s") are part of what is compared, so they move on when drawn again. */
function fill(id, items, make) {
  const list = $(id);
  const drawn = items.map(make);
  const key = drawn.map((item) => item.textContent + (item.querySelector('a')?.getAttribute('href') || '')).join('\n');
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  list.replaceChildren(...drawn);
}

let last = null; // the lobby last drawn, drawn again as time passes
let hiddenNames = new Set(); // the names the signed-in account blocked, in lower case

/** Leaves the players named in `names` (those the account blocked) out of the lobby: their
 *  presence, their seeks, their games and results. */
export function hideNames(names) {
  hiddenNames = new Set([...names].map((name) => String(name).toLowerCase()));
  if (last) render(last);
}

const hides = (seat) => Boolean(seat) && hiddenNames.has(String(seat.name).toLowerCase());
const shownGame = (game) => !hides(game.black) && !hides(game.white);

/** Draws `lobby` (the body of GET /api/lobby); throws on an answer of another shape. */
function render(lobby) {
  if (![lobby.online, lobby.waiting, lobby.games_in_progress].every(isCount)) throw new Error('unexpected lobby');
  last = lobby;
  const stats = $('stats');
  stats.textContent = statsLine(lobby);
  stats.hidden = false;
  const seeks = Array.isArray(lobby.seeks)
    ? lobby.seeks.filter((seek) => Array.isArray(seek.pools) && seek.pools.length && !hides(seek)) : [];
  const live = Array.isArray(lobby.live_games) ? lobby.live_games.filter(shownGame) : [];
  const results = Array.isArray(lobby.recent_results) ? lobby.recent_results.filter(shownGame) : [];
  const people = Array.isArray(lobby.online_players) ? lobby.online_players.filter((player) => !hides(player)) : [];
  fill('online-players', people, onlineItem);
  fill('open-seeks', seeks, seekItem);
  $('seeks-empty').hidden = seeks.length > 0;
  fill('live-games', live, (game, index) => liveItem(game, index));
  // "None right now" only when there is none: not when all there is was hidden.
  $('live-empty').hidden = live.length > 0 || (lobby.live_games || []).length > 0;
  fill('recent-results', results, resultItem);
  $('results-empty').hidden = results.length > 0 || (lobby.recent_results || []).length > 0;
  $('lobby-error').hidden = true;
}

function failed() {
  $('stats').hidden = true;
  $('lobby-error').hidden = false;
}

let asked = 0;
let pushed = false; // whether the lobby socket is open and pushing

/** Asks for the lobby now (after the player's own search started or stopped, say). */
export async function refreshLobby() {
  if (document.hidden) return;
  asked += 1;
  const mine = asked;
  try {
    const lobby = await api.lobby();
    if (mine !== asked) return; // a newer answer is on its way
    render(lobby);
  } catch {
    if (mine !== asked) return;
    failed();
  }
}

/** Opens the lobby's socket; when it closes, the lobby is asked for until it opens again. */
function listen() {
  let socket;
  try {
    socket = new WebSocket(socketUrl('/api/lobby/ws'));
  } catch {
    setTimeout(listen, RECONNECT_MS);
    return;
  }
  socket.addEventListener('open', () => { pushed = true; });
  socket.addEventListener('message', (event) => {
    try {
      const msg = JSON.parse(event.data);
      if (msg.type !== 'lobby') return;
      asked += 1; // an answer still on its way is older than this
      render(msg.lobby);
    } catch {
      failed();
    }
  });
  socket.addEventListener('close', () => {
    pushed = false;
    setTimeout(listen, RECONNECT_MS);
  });
}

export function initLobby() {
  refreshLobby();
  listen();
  // While pushed, nothing comes when nothing changes: the times shown are drawn again.
  setInterval(() => {
    if (!pushed) refreshLobby();
    else if (last && !document.hidden) render(last);
  }, EVERY_MS);
  document.addEventListener('visibilitychange', () => { if (!document.hidden && !pushed) refreshLobby(); });
}
