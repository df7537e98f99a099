// /players/{name}: a player's rating, rank and results, the rating-history chart and recent
// games (each opening its replay), puzzles solved. On your own profile: a link to your puzzles,
// and Delete my account, confirmed first.
import * as api from './api.js';
import { formatChange, formatRating, spokenChange, whoAmI } from './account.js';
import { ratingChart } from './chart.js';
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

function render(profile, who) {
  document.title = `${profile.name} — Outflank`;
  $('player-name').textContent = profile.name;
  $('stat-rating').textContent = formatRating(profile.rating, profile.provisional);
  $('stat-rank').textContent = profile.rank ? `#${number.format(profile.rank)}` : 'Unranked';
  $('stat-games').textContent = number.format(profile.rated_games);
  $('stat-record').textContent = `${number.format(profile.wins)} / ${number.format(profile.draws)} / ${number.format(profile.losses)}`;
  $('stat-record').setAttribute('aria-label', `${profile.wins} wins, ${profile.draws} draws, ${profile.losses} losses`);
  const puzzles = profile.puzzles || { total: 0, solved: 0 };
  $('stat-puzzles').textContent = `${number.format(puzzles.solved)} / ${number.format(puzzles.total)}`;
  $('stat-puzzles').setAttribute('aria-label', `${puzzles.solved} of ${puzzles.total} puzzles from their games solved`);
  const note = $('stat-note');
  note.replaceChildren();
  if (profile.provisional) note.append('The “?” means provisional: fewer than 10 rated games. ');
  if (!profile.rank) note.append('Not on the leaderboard. ');
  if (profile.joined_at) {
    note.append('Joined ');
    note.append(time(profile.joined_at, day));
    note.append('.');
  }

  shown = profile;
  $('profile').hidden = false;
  drawChart();

  const games = profile.recent_games || [];
  $('recent-games').replaceChildren(...games.map(gameItem));
  $('games-empty').hidden = games.length > 0;

  const own = Boolean(who.account && who.account.name && who.account.name === profile.name);
  $('delete-card').hidden = !own;
  $('puzzles-link').hidden = !own;
}

// The chart, drawn for the width of its card (again when that changes).
let shown = null;
let drawnWidth = 0;

function drawChart() {
  if (!shown) return;
  const box = $('chart');
  const width = box.clientWidth;
  if (width === drawnWidth && box.firstChild) return;
  drawnWidth = width;
  const chart = ratingChart(shown.history || [], shown.name, { provisional: shown.provisional, width });
  box.replaceChildren(...(chart ? [chart] : []));
  $('chart-empty').hidden = Boolean(chart);
  $('chart-empty').textContent = chart ? '' : `No rated games yet: ${shown.name} starts at 1,200.`;
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
