// The game page /game/{id}: the board, the players and clocks, the controls, the move list and
// records. Everything shown comes from the server's messages; the page holds no rules.
import * as api from './api.js';
import { Board, squareIndex } from './board/Board.js';
import { ClientMsg, Connection, GameSocket, Mode, Seat, ServerMsg, Side, Status, other } from './protocol.js';
import { setShowLegalMoves, showLegalMoves } from './prefs.js';
import { formatChange, formatRating, profileUrl, spokenChange } from './account.js';
import { renderHeader } from './header.js';
import { fillLevels, watchChoice } from './levels.js';

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/')[2] || '');
const SIDE_NAME = Object.freeze({ black: 'Black', white: 'White' });
const TIMED = new Set([Mode.FRIEND, Mode.QUICK, Mode.RANKED]);

let state = null;
let clocksAt = 0;
// Positions seen on this page, by the number of plies played: the server sends the board with
// every change, so the move list can show those positions again without any rules.
let positions = new Map();
let viewing = null; // a ply count while looking back, null for the live position
let connectedOnce = false;
// A ranked game's rating changes once it has ended (`rating_changed`, or the stored game's
// `rating_changes` after a reload or in a replay): {black, white} of {before, after, change,
// provisional}; null until then, and for unrated games.
let ratingChanges = null;

const board = new Board($('board'), { label: 'Board, a1 top left to h8 bottom right' });
const hints = $('show-legal');
hints.checked = showLegalMoves();

const socket = new GameSocket(gameId, { onMessage: receive, onConnection: connection });
$('download-record').href = api.recordUrl(gameId);

// --- helpers ---------------------------------------------------------------------------

const isPlayer = () => state && state.you !== Seat.SPECTATOR;
const canPlay = () =>
  state && state.status === Status.LIVE && (state.you === Seat.BOTH || state.you === state.to_move);
const pluralDiscs = (n) => `${n} disc${n === 1 ? '' : 's'}`;

function playerName(side) {
  const player = state.players[side];
  return player.name;
}

function announce(text) {
  $('status').textContent = text;
}

function showError(text) {
  $('game-error').textContent = text;
}

function send(msg) {
  showError('');
  if (!socket.send(msg)) showError('Not connected right now. Reconnecting — try again in a moment.');
}

function scoreText(counts) {
  return `Black ${counts.black} · White ${counts.white} · ${counts.empty} empty`;
}

// --- messages ---------------------------------------------------------------------------

// The server lists the position after every stored ply, so the move list can show the whole
// game, not only what this page saw live.
async function loadEarlierPositions() {
  try {
    const stored = await api.game(gameId);
    if (stored.rating_changes) ratingChanges = stored.rating_changes;
    for (const position of stored.positions || []) {
      if (position.ply <= state.moves.length && !positions.has(position.ply)) {
        positions.set(position.ply, { board: position.board, lastMove: position.last_move });
      }
    }
    render();
  } catch {
    // Without them the move list still shows what this page has seen.
  }
}

function receive(msg) {
  switch (msg.type) {
    case ServerMsg.SNAPSHOT:
      state = { ...msg, moves: [...msg.moves] };
      if (msg.rating_changes) ratingChanges = msg.rating_changes;
      clocksAt = performance.now();
      $('pass-banner').hidden = true;
      positions = new Map([[state.moves.length, { board: state.board, lastMove: state.last_move }]]);
      viewing = null;
      drawBoard(false);
      render();
      loadEarlierPositions();
      if (state.status !== Status.LIVE) announce(`${resultSentence()} ${ratingSentence()}`.trim());
      break;
    case ServerMsg.MOVED: {
      if (!state) return;
      Object.assign(state, pick(msg, ['board', 'to_move', 'legal', 'counts', 'clocks', 'last_move']));
      state.moves.push(...msg.plies);
      state.draw_offer = null;
      clocksAt = performance.now();
      for (const ply of msg.plies) positions.set(ply.number, { board: state.board, lastMove: state.last_move });
      drawBoard(true);
      const words = [];
      let passText = '';
      for (const ply of msg.plies) {
        if (ply.move === 'pass') {
          passText = `${SIDE_NAME[ply.color]} passes — no legal move`;
          words.push(`${passText}.`);
        } else {
          const flips = msg.last_move && msg.last_move.square === ply.move ? msg.last_move.flips.length : 0;
          words.push(`${SIDE_NAME[ply.color]} played ${ply.move}, flipping ${pluralDiscs(flips)}.`);
        }
      }
      $('pass-banner').hidden = !passText;
      $('pass-banner').textContent = passText;
      if (state.to_move) words.push(`${SIDE_NAME[state.to_move]} to move.`);
      announce(words.join(' '));
      render();
      break;
    }
    case ServerMsg.UNDONE:
      if (!state) return;
      Object.assign(state, pick(msg, ['board', 'to_move', 'legal', 'counts', 'last_move']));
      state.moves = state.moves.slice(0, msg.ply_count);
      $('pass-banner').hidden = true;
      for (const count of positions.keys()) if (count > msg.ply_count) positions.delete(count);
      positions.set(msg.ply_count, { board: state.board, lastMove: state.last_move });
      if (viewing !== null && viewing > msg.ply_count) viewing = null;
      drawBoard(false);
      announce(`Move taken back. ${SIDE_NAME[state.to_move]} to move.`);
      render();
      break;
    case ServerMsg.DRAW_OFFERED:
      if (!state) return;
      state.draw_offer = msg.by;
      announce(`${SIDE_NAME[msg.by]} offers a draw.`);
      render();
      break;
    case ServerMsg.DRAW_DECLINED:
      if (!state) return;
      state.draw_offer = null;
      announce(`${SIDE_NAME[msg.by]} declined the draw.`);
      render();
      break;
    case ServerMsg.ENDED:
      if (!state) return;
      state.status = msg.status;
      state.result = msg.result;
      state.counts = msg.counts;
      state.to_move = null;
      state.legal = [];
      state.clocks = null;
      state.draw_offer = null;
      render();
      announce(resultSentence());
      break;
    case ServerMsg.REMATCH_ASKED:
      if (!state) return;
      if (!state.rematch.asked.includes(msg.by)) state.rematch.asked.push(msg.by);
      render();
      break;
    case ServerMsg.REMATCH_STARTED:
      socket.close();
      $('rematch-status').textContent = 'Starting the rematch…';
      location.assign(`/game/${encodeURIComponent(msg.game_id)}`);
      break;
    case ServerMsg.LEFT:
      if (!state) return;
      if (!state.rematch.left.includes(msg.by)) state.rematch.left.push(msg.by);
      render();
      break;
    case ServerMsg.PRESENCE: {
      if (!state) return;
      const before = state.presence;
      state.presence = { black: msg.black, white: msg.white };
      render();
      const opponent = state.you === Side.BLACK || state.you === Side.WHITE ? other(state.you) : null;
      if (before && opponent && before[opponent] !== msg[opponent] && state.status === Status.LIVE) {
        announce(msg[opponent] ? `${playerName(opponent)} is back.` : `${playerName(opponent)} has disconnected; their clock keeps running.`);
      }
      break;
    }
    case ServerMsg.RATING_CHANGED:
      ratingChanges = { black: msg.black, white: msg.white };
      if (!state) return;
      if (state.you === Side.BLACK || state.you === Side.WHITE) renderHeader({ fresh: true });
      render();
      announce(`${resultSentence()} ${ratingSentence()}`.trim());
      break;
    case ServerMsg.ERROR:
      if (msg.code === 'game_not_found') {
        socket.close();
        showError('This game does not exist.');
      } else {
        showError(msg.message);
      }
      break;
    default:
      break;
  }
}

/** Draws the live position, or the one being looked back at. */
function drawBoard(animate) {
  if (viewing !== null && positions.has(viewing)) {
    const seen = positions.get(viewing);
    board.setPosition(seen.board, { lastMove: seen.lastMove });
  } else {
    viewing = null;
    board.setPosition(state.board, { lastMove: state.last_move, animate });
  }
}

/** Looks at the position after `count` plies (null: the live position). */
function view(count) {
  viewing = count === null || count === state.moves.length ? null : count;
  drawBoard(false);
  render();
  announce(viewing === null ? 'Showing the live position.' : `Showing the position after move ${viewing}.`);
}

const knownCounts = () => [...positions.keys()].sort((a, b) => a - b);

function pick(msg, fields) {
  const out = {};
  for (const field of fields) if (field in msg) out[field] = msg[field];
  return out;
}

function connection(status) {
  const line = $('connection');
  if (status === Connection.OPEN) {
    if (connectedOnce) announce('Connection restored.');
    connectedOnce = true;
    line.hidden = true;
  } else if (status === Connection.LOST) {
    line.hidden = false;
    line.textContent = 'Connection lost — reconnecting… Your game is kept; the clock keeps running.';
  }
}

// --- rendering --------------------------------------------------------------------------

function resultSentence() {
  if (!state.result) return '';
  return `Game over. ${resultTitle()}: ${scoreText(state.counts)}. ${reasonText()}`.trim();
}

function resultTitle() {
  const { winner } = state.result;
  if (state.status === Status.ABORTED || winner === null) return 'Game aborted';
  if (winner === 'draw') return 'Draw';
  if (state.you === winner) return `You win with ${SIDE_NAME[winner]}`;
  return `${SIDE_NAME[winner]} wins`;
}

function reasonText() {
  const { winner, reason } = state.result;
  switch (reason) {
    case 'resignation': return `${SIDE_NAME[other(winner)]} resigned.`;
    case 'timeout': return `${SIDE_NAME[other(winner)]} ran out of time.`;
    case 'agreed_draw': return 'Draw agreed.';
    case 'aborted': return 'A side never made its first move in time; the game does not count.';
    default: return '';
  }
}

function render() {
  if (!state) return;
  document.body.dataset.you = state.you;
  document.body.dataset.status = state.status;
  const names = `${playerName(Side.BLACK)} (Black) vs ${playerName(Side.WHITE)} (White)`;
  document.title = `${names} — Outflank`;
  $('game-title').textContent = names;

  for (const side of [Side.BLACK, Side.WHITE]) {
    const you = state.you === side ? ' (you)' : '';
    $(`name-${side}`).textContent = playerName(side) + you;
    $(`count-${side}`).textContent = String(state.counts[side]);
    $(`player-${side}`).classList.toggle('to-move', state.to_move === side);
    // Only people can be away; shown while the game is on.
    const away = state.presence && !state.presence[side] && state.status === Status.LIVE;
    $(`presence-${side}`).hidden = !away;
  }
  renderTurn();
  renderClocks();

  const playable = canPlay() && viewing === null;
  const dots = hints.checked;
  board.showMoves(playable ? state.legal : [], { mover: state.to_move, dots });
  renderLegalList(playable && dots);
  $('type-move').hidden = !playable;

  const live = state.status === Status.LIVE;
  const player = isPlayer();
  $('undo').hidden = !(live && player && !TIMED.has(state.mode));
  $('undo').disabled = !state.moves.length;
  $('offer-draw').hidden = !(live && player && TIMED.has(state.mode) && state.you !== Seat.BOTH);
  $('offer-draw').disabled = state.draw_offer !== null;
  $('resign').hidden = !(live && player);
  $('resign').textContent = state.you === Seat.BOTH && state.to_move ? `Resign for ${SIDE_NAME[state.to_move]}` : 'Resign';
  $('actions').hidden = !live || !player;
  renderDraw();
  renderResult();
  renderMoves();
  renderDescription();
}

function renderTurn() {
  const turn = $('turn');
  const side = state.to_move;
  if (state.status !== Status.LIVE || !side) {
    turn.textContent = 'Game over';
    return;
  }
  if (state.you === Seat.BOTH) turn.textContent = `${SIDE_NAME[side]} to move`;
  else if (state.you === side) turn.textContent = `Your move (${SIDE_NAME[side]})`;
  else if (state.players[side].computer) turn.textContent = 'The computer is thinking…';
  else turn.textContent = `Waiting for ${playerName(side)} (${SIDE_NAME[side]})`;
}

function formatMs(ms) {
  const seconds = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
}

function renderClocks() {
  for (const side of [Side.BLACK, Side.WHITE]) {
    const clock = $(`clock-${side}`);
    if (!state.clocks) {
      clock.hidden = true;
      continue;
    }
    let ms = state.clocks[`${side}_ms`];
    if (state.clocks.running === side) ms -= performance.now() - clocksAt;
    clock.hidden = false;
    clock.textContent = `${formatMs(ms)}${state.clocks.running === side ? ' left' : ''}`;
    clock.classList.toggle('low', state.clocks.running === side && ms < 10000);
  }
}

function renderLegalList(show) {
  $('legal-moves').hidden = !show;
  const list = $('legal-list');
  list.replaceChildren();
  if (!show) return;
  for (const move of state.legal) {
    const button = document.createElement('button');
    button.type = 'button';
    button.textContent = move.square;
    button.setAttribute('aria-label', `Play ${move.square}, flips ${pluralDiscs(move.flips.length)}`);
    button.addEventListener('click', () => play(move.square));
    list.append(button);
  }
}

function renderDraw() {
  const banner = $('draw-banner');
  const offer = state.draw_offer;
  if (!offer || state.status !== Status.LIVE) {
    banner.hidden = true;
    return;
  }
  banner.hidden = false;
  const mine = state.you === offer;
  $('draw-text').textContent = mine
    ? 'You offered a draw. Waiting for the answer.'
    : `${playerName(offer)} offers a draw.`;
  $('draw-answer').hidden = mine || !isPlayer();
}

function renderResult() {
  const panel = $('result');
  if (state.status === Status.LIVE || !state.result) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  $('result-title').textContent = resultTitle();
  $('result-score').textContent = scoreText(state.counts);
  $('result-reason').textContent = reasonText();
  renderRating();
  const rematch = $('rematch');
  const { asked, left } = state.rematch;
  rematch.hidden = !isPlayer() || left.length > 0 || (state.you !== Seat.BOTH && asked.includes(state.you));
  let text = '';
  if (left.length) text = 'Your opponent left: no rematch in this game.';
  else if (state.you !== Seat.BOTH && asked.includes(state.you)) text = 'Rematch asked. Waiting for your opponent…';
  else if (asked.length && isPlayer()) text = `${playerName(asked[0])} wants a rematch.`;
  $('rematch-status').textContent = text;
}

/** The rating change in words for the status line: your own, or both sides' for others. */
function ratingSentence() {
  if (!ratingChanges) return '';
  const said = (change) => `${spokenChange(change.change)} to ${formatRating(change.after, false)}${change.provisional ? ' (provisional)' : ''}`;
  if (state.you === Side.BLACK || state.you === Side.WHITE) {
    const mine = ratingChanges[state.you];
    return mine ? `Your rating: ${said(mine)}.` : '';
  }
  return [Side.BLACK, Side.WHITE]
    .filter((side) => ratingChanges[side])
    .map((side) => `${playerName(side)}'s rating: ${said(ratingChanges[side])}.`)
    .join(' ');
}

/** The result panel's rating lines: a player sees their own, anyone else both. */
function renderRating() {
  const box = $('result-rating');
  box.replaceChildren();
  if (!ratingChanges || state.status === Status.LIVE) return;
  const player = state.you === Side.BLACK || state.you === Side.WHITE;
  const sides = player ? [state.you] : [Side.BLACK, Side.WHITE];
  for (const side of sides) {
    const change = ratingChanges[side];
    if (!change) continue;
    const line = document.createElement('p');
    line.className = 'rating-line';
    line.dataset.side = side;
    if (player) {
      line.append('Your rating: ');
    } else {
      const name = state.players[side] && !state.players[side].computer ? state.players[side].name : null;
      if (name) {
        const link = document.createElement('a');
        link.href = profileUrl(name);
        link.textContent = name;
        line.append(link, ` (${SIDE_NAME[side]}): `);
      } else {
        line.append(`${SIDE_NAME[side]}: `);
      }
    }
    const value = document.createElement('span');
    value.className = change.change > 0 ? 'change-up' : change.change < 0 ? 'change-down' : '';
    value.textContent = formatChange(change.change);
    line.append(value, ` · ${formatRating(change.after, change.provisional)}`);
    line.title = `Before: ${formatRating(change.before, false)}`;
    box.append(line);
  }
}

function renderMoves() {
  const list = $('moves');
  list.replaceChildren();
  const current = viewing === null ? state.moves.length : viewing;
  for (const ply of state.moves) {
    const item = document.createElement('li');
    const text = `${ply.number}. ${ply.move}`;
    const label = `${ply.number}, ${SIDE_NAME[ply.color]} ${ply.move === 'pass' ? 'passed' : ply.move}`;
    if (positions.has(ply.number)) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = text;
      button.setAttribute('aria-label', label);
      if (ply.number === current) button.setAttribute('aria-current', 'step');
      button.addEventListener('click', () => view(ply.number));
      item.append(button);
    } else {
      item.textContent = text;
      item.setAttribute('aria-label', label);
    }
    list.append(item);
  }
  if (viewing === null) list.scrollTop = list.scrollHeight;
  const counts = knownCounts();
  const earlier = counts.filter((count) => count < current);
  const later = counts.filter((count) => count > current);
  $('nav-start').disabled = !earlier.length;
  $('nav-back').disabled = !earlier.length;
  $('nav-forward').disabled = viewing === null;
  $('nav-live').disabled = viewing === null;
  $('nav-start').onclick = () => view(earlier[0]);
  $('nav-back').onclick = () => view(earlier[earlier.length - 1]);
  $('nav-forward').onclick = () => view(later.length ? later[0] : null);
  $('nav-live').onclick = () => view(null);
  const note = $('viewing');
  note.hidden = viewing === null;
  note.textContent = viewing === null ? '' : `Looking back: the position after move ${viewing}. Press Live position to return.`;
  $('nav-note').hidden = state.moves.every((ply) => positions.has(ply.number));
}

function renderDescription() {
  const squares = { X: [], O: [] };
  for (let index = 0; index < 64; index += 1) {
    const code = state.board[index];
    if (code in squares) squares[code].push(`${'abcdefgh'[index % 8]}${Math.floor(index / 8) + 1}`);
  }
  const turn = state.status === Status.LIVE ? `${SIDE_NAME[state.to_move]} to move. ` : 'The game is over. ';
  $('description').textContent = `${turn}Black (${squares.X.length}): ${squares.X.join(', ') || 'none'}. `
    + `White (${squares.O.length}): ${squares.O.join(', ') || 'none'}. ${state.counts.empty} empty squares.`;
}

// --- actions ----------------------------------------------------------------------------

function play(square) {
  if (!canPlay()) return;
  send({ type: ClientMsg.MOVE, square });
}

board.onInput(({ square }) => play(square));

hints.addEventListener('change', () => {
  setShowLegalMoves(hints.checked);
  render();
});

$('type-move').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('move-input');
  const text = input.value.trim().toLowerCase();
  if (squareIndex(text) < 0) {
    showError(`"${input.value.trim()}" is not a square: type a column a–h and a row 1–8, e.g. d3.`);
    return;
  }
  play(text);
  input.value = '';
});

$('undo').addEventListener('click', () => send({ type: ClientMsg.UNDO }));
$('offer-draw').addEventListener('click', () => send({ type: ClientMsg.OFFER_DRAW }));
$('accept-draw').addEventListener('click', () => send({ type: ClientMsg.ACCEPT_DRAW }));
$('decline-draw').addEventListener('click', () => send({ type: ClientMsg.DECLINE_DRAW }));
$('rematch').addEventListener('click', () => send({ type: ClientMsg.REMATCH }));

const dialog = $('resign-dialog');
$('resign').addEventListener('click', () => dialog.showModal());
$('resign-cancel').addEventListener('click', () => dialog.close());
$('resign-confirm').addEventListener('click', () => {
  dialog.close();
  send({ type: ClientMsg.RESIGN });
});

$('copy-record').addEventListener('click', async () => {
  const line = $('record-status');
  try {
    const text = await api.record(gameId);
    await navigator.clipboard.writeText(text);
    line.textContent = 'Record copied to the clipboard.';
  } catch (error) {
    line.textContent = error instanceof api.ApiError
      ? error.message
      : 'The browser did not allow copying. Use Download record instead.';
  }
});

$('import-file').addEventListener('change', async (event) => {
  const [file] = event.target.files;
  if (file) $('import-text').value = await file.text();
});

watchChoice($('import-level'));
fillLevels($('import-level'));

$('import-button').addEventListener('click', async (event) => {
  const button = event.currentTarget;
  const errorLine = $('import-error');
  errorLine.textContent = '';
  const text = $('import-text').value.trim();
  if (!text) {
    errorLine.textContent = 'Paste a record or a move list, or choose a file, first.';
    return;
  }
  button.disabled = true;
  try {
    const created = await api.importGame(text, Number($('import-level').value));
    location.assign(created.url);
  } catch (error) {
    errorLine.textContent = `Not imported: ${error.message}. This game is unchanged.`;
    button.disabled = false;
  }
});

setInterval(() => {
  if (state && state.clocks) renderClocks();
}, 250);

// An unknown game gets a clear message instead of endless reconnecting.
api.game(gameId).then((stored) => {
  if (stored && stored.rating_changes) ratingChanges = stored.rating_changes;
  socket.connect();
}, (error) => {
  if (error.status === 404) {
    document.querySelector('.game-layout').hidden = true;
    $('missing').hidden = false;
    document.title = 'Game not found — Outflank';
  } else {
    socket.connect();
  }
});
