// /players/{name}: a player's rating, rank and results in each rating pool (one chosen at a time,
// at first the one they played most), its rating-history chart, recent games (each opening its
// replay), puzzles solved, followers and following, and what moderators found
// (safety/profile.js). On someone else's, for a signed-in player, Challenge
// (players/challenge.js) and Follow (players/follow.js). On your own profile: a link to your
// puzzles, the players you follow (players/following.js), your reports and blocks, and Delete
// my account, confirmed first.
import * as api from './api.js';
import { formatChange, formatRating, spokenChange, whoAmI } from './account.js';
import { ratingChart } from './chart.js';
import { controlName } from './text.js';
import { renderProfileSafety } from './safety/profile.js';
import { renderChallenge } from './players/challenge.js';
import { renderFollow } from './players/follow.js';
import { renderFollowing } from './players/following.js';
import './header.js';

const $ = (id) => document.getElementById(id);
const number = new Intl.NumberFormat('en');
const when = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });
const day = new Intl.DateTimeFormat('en', { dateStyle: 'long' });

function nameFromPath() {
  const raw = location.pathname.replace(/^\/players\//, '').replace(/\/$/, '');
  try { return decodeURIComponent(raw); } catch { return raw; }
}

const wanted = nameFromPath();

const MODE_NAME = Object.freeze({
  ranked: 'Ranked', quick: 'Quick game', friend: 'Friend', computer: 'Computer', same_device: 'This device',
});
const RESULT_NAME = Object.freeze({ win: 'Win', loss: 'Loss', draw: 'Draw', aborted: 'Aborted' });
const COLOUR_NAME = Object.freeze({ black: 'Black', white: 'White' });

function span(text, className) {
  const node = document.createElement('span');
  node.className = className;
  node.textContent = text;
  return node;
}

function time(ms, format = when) {
  const node = document.createElement('time');
  const date = new Date(ms);
  node.dateTime = date.toISOString();
  node.textContent = format.format(date);
  return node;
}

function gameItem(game) {
  const item = document.createElement('li');
  const link = document.createElement('a');
  link.href = `/replay/${encodeURIComponent(game.id)}`;
  const opponent = game.opponent_computer ? 'the computer' : game.opponent || 'Deleted player';
  const result = RESULT_NAME[game.result] || game.result;
  const title = game.result === 'aborted' ? `Aborted game against ${opponent}` : `${result} against ${opponent}`;
  link.append(span(title, 'game-title'));
  const meta = span('', 'game-meta');
  const parts = [MODE_NAME[game.mode] || game.mode, COLOUR_NAME[game.color] || game.color];
  if (game.control) parts.splice(1, 0, controlName(game.control));
  if (game.opening_name) parts.push(game.opening_name);
  meta.append(parts.join(' · '));
  if (typeof game.rating_change === 'number') {
    meta.append(' · ');
    const change = span(formatChange(game.rating_change), game.rating_change > 0 ? 'change-up' : game.rating_change < 0 ? 'change-down' : '');
    change.setAttribute('aria-label', `rating ${spokenChange(game.rating_change)}`);
    meta.append(change);
  }
  if (game.finished_at) {
    meta.append(' · ');
    meta.append(time(game.finished_at));
  }
  link.append(meta);
  const hint = span(' Open the replay.', 'visually-hidden');
  link.append(hint);
  item.append(link);
  return item;
}

/** The pool first shown: the one with the most rated games (the first listed on a tie). */
function busiestPool(pools) {
  return pools.reduce((best, pool) => (pool.rated_games > best.rated_games ? pool : best), pools[0]);
}

/** The summary and chart of one pool's standing. */
function showPool(standing) {
  $('stat-rating').textContent = formatRating(standing.rating, standing.provisional);
  $('stat-rank').textContent = standing.rank ? `#${number.format(standing.rank)}` : 'Unranked';
  $('stat-games').textContent = number.format(standing.rated_games);
  $('stat-record').textContent = `${number.format(standing.wins)} / ${number.format(standing.draws)} / ${number.format(standing.losses)}`;
  $('stat-record').setAttribute('aria-label', `${standing.wins} wins, ${standing.draws} draws, ${standing.losses} losses`);
  const note = $('stat-note');
  note.replaceChildren();
  if (standing.provisional) note.append(`The “?” means provisional: fewer than 10 rated games in ${standing.pool_name}. `);
  if (!standing.rank) note.append(`Not on the ${standing.pool_name} leaderboard. `);
  if (shown && shown.joined_at) {
    note.append('Joined ');
    note.append(time(shown.joined_at, day));
    note.append('.');
  }
  for (const button of $('pool-tabs').querySelectorAll('button')) {
    button.setAttribute('aria-pressed', String(button.dataset.pool === standing.pool));
  }
  $('history-heading').textContent = `Rating history, ${standing.pool_name}`;
  chosen = standing;
  drawnWidth = 0;
  drawChart();
}

function render(profile, who) {
  document.title = `${profile.name} — Outflank`;
  $('player-name').textContent = profile.name;
  const puzzles = profile.puzzles || { total: 0, solved: 0 };
  $('stat-puzzles').textContent = `${number.format(puzzles.solved)} / ${number.format(puzzles.total)}`;
  $('stat-puzzles').setAttribute('aria-label', `${puzzles.solved} of ${puzzles.total} puzzles from their games solved`);

  shown = profile;
  const pools = profile.pools || [];
  $('pool-tabs').replaceChildren(...pools.map((standing) => {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.pool = standing.pool;
    button.textContent = standing.pool_name;
    button.addEventListener('click', () => showPool(standing));
    return button;
  }));
  $('pool-tabs').hidden = pools.length <= 1;
  $('profile').hidden = false;
  if (pools.length) showPool(busiestPool(pools));

  const games = profile.recent_games || [];
  $('recent-games').replaceChildren(...games.map(gameItem));
  $('games-empty').hidden = games.length > 0;

  const own = Boolean(who.account && who.account.name && who.account.name === profile.name);
  $('delete-card').hidden = !own;
  $('puzzles-link').hidden = !own;
  renderProfileSafety(profile, who, own);
  renderChallenge(profile, who, own);
  renderFollow(profile, who, own);
  if (own) {
    $('following-card').hidden = false;
    renderFollowing($('following-card'), { always: true });
  }
}

// The chosen pool's chart, drawn for the width of its card (again when that changes).
let shown = null;
let chosen = null;
let drawnWidth = 0;

function drawChart() {
  if (!shown || !chosen) return;
  const box = $('chart');
  const width = box.clientWidth;
  if (width === drawnWidth && box.firstChild) return;
  drawnWidth = width;
  const chart = ratingChart(chosen.history || [], shown.name, { provisional: chosen.provisional, width });
  box.replaceChildren(...(chart ? [chart] : []));
  $('chart-empty').hidden = Boolean(chart);
  $('chart-empty').textContent = chart ? '' : `No rated games in ${chosen.pool_name} yet: ${shown.name} starts there at 1,200.`;
}

new ResizeObserver(() => drawChart()).observe($('chart'));

async function load() {
  if (!wanted) {
    showMissing();
    return;
  }
  const [profile, who] = await Promise.all([api.player(wanted), whoAmI()]);
  $('player-status').textContent = '';
  render(profile, who);
}

function showMissing() {
  $('player-status').textContent = '';
  $('player-name').textContent = 'Player not found';
  $('missing-text').textContent = wanted
    ? `There is no player called “${wanted}”. The name may be mistyped, or the account deleted.`
    : 'There is no player at this address.';
  $('missing').hidden = false;
  document.title = 'Player not found — Outflank';
}

load().catch((error) => {
  if (error.status === 404) {
    showMissing();
    return;
  }
  $('player-status').textContent = '';
  $('player-error').textContent = `The profile could not be loaded: ${error.message}`;
});

// Delete my account: a confirmation first; then home, signed out.
const dialog = $('delete-dialog');
$('delete-account').addEventListener('click', () => {
  $('delete-error').textContent = '';
  dialog.showModal();
  $('delete-cancel').focus();
});
$('delete-cancel').addEventListener('click', () => dialog.close());
dialog.addEventListener('close', () => {
  if (!$('delete-card').hidden) $('delete-account').focus();
});
$('delete-confirm').addEventListener('click', async (event) => {
  const button = event.currentTarget;
  button.disabled = true;
  try {
    await api.deleteAccount();
    location.assign('/?account_deleted=1');
  } catch (error) {
    button.disabled = false;
    dialog.close();
    $('delete-error').textContent = `Your account was not deleted: ${error.message}`;
  }
});
