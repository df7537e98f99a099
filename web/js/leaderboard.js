// /leaderboard?pool=P&page=N: a rating pool's top players, 25 a page, as the server ranks them;
// the pools are links above the table (the first, 30 s a move, needs no parameter).
import * as api from './api.js';
import { formatRating, profileUrl, whoAmI } from './account.js';
import './header.js';
import { playerSearch } from './players/search.js';

const $ = (id) => document.getElementById(id);
const number = new Intl.NumberFormat('en');
const params = new URLSearchParams(location.search);
const requested = Number.parseInt(params.get('page') || '1', 10);
const page = Number.isSafeInteger(requested) && requested >= 1 ? requested : 1;
const wantedPool = params.get('pool');
// The pools as the server lists them; the first is the default.
let pools = [];

/** The address of page `n` of `pool`'s board (by default the one shown). */
function pageUrl(n, pool = wantedPool) {
  const query = new URLSearchParams();
  if (pool && pools.length && pool !== pools[0].key) query.set('pool', pool);
  if (n > 1) query.set('page', String(n));
  const text = query.toString();
  return text ? `/leaderboard?${text}` : '/leaderboard';
}

/** One link per pool, the one shown marked as current. */
function poolTabs(current) {
  const links = pools.map((pool) => {
    const link = document.createElement('a');
    link.className = 'button';
    link.href = pageUrl(1, pool.key);
    link.textContent = pool.name;
    if (pool.key === current) link.setAttribute('aria-current', 'page');
    return link;
  });
  $('pool-tabs').replaceChildren(...links);
  $('pool-tabs').hidden = links.length <= 1;
}

function cell(text, className = '') {
  const td = document.createElement('td');
  if (className) td.className = className;
  td.textContent = text;
  return td;
}

function row(player, yourName) {
  const tr = document.createElement('tr');
  tr.append(cell(number.format(player.rank), 'num'));
  const name = document.createElement('td');
  const link = document.createElement('a');
  link.href = profileUrl(player.name);
  link.textContent = player.name;
  name.append(link);
  if (player.name === yourName) {
    tr.classList.add('you');
    const mark = document.createElement('span');
    mark.className = 'you-mark';
    mark.textContent = ' (you)';
    name.append(mark);
  }
  tr.append(name);
  const rating = cell(formatRating(player.rating, player.provisional), 'num');
  if (player.provisional) rating.title = 'Provisional: fewer than 10 rated games';
  tr.append(rating);
  tr.append(cell(number.format(player.rated_games), 'num'));
  const record = cell(`${number.format(player.wins)} / ${number.format(player.draws)} / ${number.format(player.losses)}`, 'num');
  record.setAttribute('aria-label', `${player.wins} wins, ${player.draws} draws, ${player.losses} losses`);
  tr.append(record);
  return tr;
}

function pager(board) {
  const pages = Math.max(1, board.pages || 1);
  $('pager').hidden = pages <= 1;
  $('page-of').textContent = `Page ${number.format(board.page)} of ${number.format(pages)}`;
  const previous = $('page-previous');
  const next = $('page-next');
  previous.hidden = board.page <= 1;
  previous.href = pageUrl(board.page - 1);
  next.hidden = board.page >= pages;
  next.href = pageUrl(board.page + 1);
}

/** The empty board: "Play ranked" only where ranked games can be played (sign-in is set up);
 *  elsewhere it says why nobody can get on it here. */
function showEmpty(rankedAvailable) {
  $('board-play-ranked').hidden = !rankedAvailable;
  $('board-play').hidden = rankedAvailable;
  if (!rankedAvailable) {
    $('board-empty-text').textContent = 'Ranked games need sign-in with Google, which is not set up on this server, '
      + 'so nobody can get on the leaderboard here. Every other way to play works without an account.';
  }
  $('board-empty').hidden = false;
}

async function load() {
  const [board, who] = await Promise.all([
    api.leaderboard(page, wantedPool),
    whoAmI(),
  ]);
  pools = board.pools || [];
  poolTabs(board.pool);
  const poolName = (pools.find((pool) => pool.key === board.pool) || { name: board.pool }).name;
  const titled = board.pool === (pools[0] && pools[0].key) ? 'Leaderboard' : `Leaderboard, ${poolName}`;
  document.title = page > 1 ? `${titled}, page ${page} — Outflank` : `${titled} — Outflank`;
  const yourName = who.account && who.account.name;
  const status = $('board-status');
  if (!board.players.length) {
    if (board.total > 0 && page > 1) {
      status.replaceChildren(`There is no page ${number.format(page)}. `);
      const first = document.createElement('a');
      first.href = pageUrl(1);
      first.textContent = 'Go to the first page';
      status.append(first, '.');
      return;
    }
    status.textContent = '';
    showEmpty(who.google);
    return;
  }
  const first = board.players[0].rank;
  const last = board.players[board.players.length - 1].rank;
  $('board-caption').textContent = `${poolName}: ranks ${number.format(first)} to ${number.format(last)} of ${number.format(board.total)} on the leaderboard`;
  $('board-rows').replaceChildren(...board.players.map((player) => row(player, yourName)));
  pager(board);
  $('board-card').hidden = false;
  status.textContent = '';
}

load().catch((error) => {
  $('board-status').textContent = '';
  if (error.code === 'unknown_pool') {
    $('board-error').replaceChildren(`There is no rating pool called “${wantedPool}”. `);
    const all = document.createElement('a');
    all.href = '/leaderboard';
    all.textContent = 'See the leaderboard';
    $('board-error').append(all, '.');
    return;
  }
  $('board-error').textContent = `The leaderboard could not be loaded: ${error.message}`;
});

playerSearch($('find-player'), $('find-results'), $('find-status'));
