// The game page /game/{id}: the server's messages go through the pure reducer (game/model.js)
// and the renderers draw the model. The page holds no rules: legal moves, flips and results
// come from the server.
import * as api from './api.js';
import { Board, squareIndex } from './board/Board.js';
import { ClientMsg, Connection, GameSocket, Mode, Seat, Side, Status } from './protocol.js';
import { setShowLegalMoves, showLegalMoves } from './prefs.js';
import { formatChange, formatRating, profileUrl } from './account.js';
import { renderHeader } from './header.js';
import { fillLevels, watchChoice } from './levels.js';
import { pluralDiscs } from './text.js';
import {
  SIDE_NAME, canPlay, initialModel, playerName, reasonText, reduce, resultTitle, scoreText, shownPosition, view,
  withError, withStored,
} from './game/model.js';
import { renderClocks, renderPlayers } from './game/players.js';
import { MoveList } from './game/moves.js';
import { Sound, play as playSound, setSoundOn, soundOn } from './game/sound.js';

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/')[2] || '');
const TIMED = new Set([Mode.FRIEND, Mode.QUICK, Mode.RANKED]);
const CAPTURE_FLIPS = 5;

let model = initialModel();
let connectedOnce = false;
let resultClosed = false;
let lowWarned = null;

const board = new Board($('board'), { label: 'Board, a1 top left to h8 bottom right' });
const moveList = new MoveList($('moves'), (count) => look(count));
const hints = $('show-legal');
hints.checked = showLegalMoves();

const socket = new GameSocket(gameId, { onMessage: receive, onConnection: connection });
$('download-record').href = api.recordUrl(gameId);

const isPlayer = () => model.game && model.game.you !== Seat.SPECTATOR;
const isSide = (seat) => seat === Side.BLACK || seat === Side.WHITE;

function send(msg) {
  if (!socket.send(msg)) update(withError(model, 'Not connected right now. Reconnecting — try again in a moment.'));
  else if (model.error) update(withError(model, ''));
}

function update(next) {
  const before = model;
  model = next;
  if (!model.game) {
    renderError();
    return;
  }
  const moved = model.animate && before.game && model.game.moves.length > before.game.moves.length;
  if (moved) sound(model.game.last_move);
  if (before.game && before.game.status === Status.LIVE && model.game.status !== Status.LIVE) resultClosed = false;
  render();
}

// --- messages ---------------------------------------------------------------------------

function receive(msg) {
  const before = model;
  update(reduce(model, msg, performance.now()));
  if (msg.type === 'snapshot') loadEarlierPositions();
  if (msg.type === 'rating_changed' && model.game && isSide(model.game.you)) renderHeader({ fresh: true });
  if (msg.type === 'rematch_started') {
    socket.close();
    $('rematch-status').textContent = 'Starting the rematch…';
    location.assign(`/game/${encodeURIComponent(msg.game_id)}`);
  }
  if (msg.type === 'error' && msg.code === 'game_not_found') socket.close();
  if (model.announcement !== before.announcement || msg.type === 'snapshot') $('status').textContent = model.announcement;
}

// The server lists the position after every stored ply, so the move list can show the whole
// game, not only what this page saw live.
async function loadEarlierPositions() {
  let stored;
  try {
    stored = await api.game(gameId);
  } catch {
    return; // without them the move list still shows what this page has seen
  }
  // The model as it is now: messages may have come in while the request was out.
  update(withStored(model, stored));
}

function connection(status) {
  const line = $('connection');
  if (status === Connection.OPEN) {
    if (connectedOnce) $('status').textContent = 'Connection restored.';
    connectedOnce = true;
    line.hidden = true;
  } else if (status === Connection.LOST) {
    line.hidden = false;
    line.textContent = 'Connection lost — reconnecting… Your game is kept; the clock keeps running.';
  }
}

function sound(lastMove) {
  if (!lastMove) return;
  playSound(lastMove.flips.length >= CAPTURE_FLIPS ? Sound.CAPTURE : Sound.MOVE);
}

// --- rendering --------------------------------------------------------------------------

function render() {
  const { game } = model;
  document.body.dataset.you = game.you;
  document.body.dataset.status = game.status;
  const names = `${playerName(game, Side.BLACK)} (Black) vs ${playerName(game, Side.WHITE)} (White)`;
  document.title = `${names} — Outflank`;
  $('game-title').textContent = names;

  const shown = shownPosition(model);
  board.setPosition(shown.board, { lastMove: shown.lastMove, animate: model.animate && shown.live });
  renderPlayers(model, shown.counts);
  renderClocks(model, performance.now());
  renderTurn();
  renderOverlays();
  renderControls();
  renderResult();
  renderMoves();
  renderDescription(shown);
  renderError();
}

function renderError() {
  const line = $('game-error');
  line.textContent = model.error;
  line.hidden = !model.error;
  if (model.missing) showMissing();
}

function renderTurn() {
  const { game } = model;
  const turn = $('turn');
  const side = game.to_move;
  if (game.status !== Status.LIVE || !side) turn.textContent = game.you === Seat.SPECTATOR ? 'Game over · you are watching' : 'Game over';
  else if (game.you === Seat.BOTH) turn.textContent = `${SIDE_NAME[side]} to move`;
  else if (game.you === side) turn.textContent = `Your move (${SIDE_NAME[side]})`;
  else if (game.players[side].computer) turn.textContent = 'The computer is thinking…';
  else if (game.you === Seat.SPECTATOR) turn.textContent = `${playerName(game, side)} (${SIDE_NAME[side]}) to move · you are watching`;
  else turn.textContent = `Waiting for ${playerName(game, side)} (${SIDE_NAME[side]})`;
}

/** The pass, looking-back and draw-offer notes, drawn over the board so nothing moves. */
function renderOverlays() {
  const { game } = model;
  const pass = $('pass-banner');
  pass.hidden = !model.pass || model.viewing !== null || game.status !== Status.LIVE;
  pass.textContent = model.pass;

  const note = $('viewing');
  note.hidden = model.viewing === null;
  note.textContent = model.viewing === null ? '' : `Looking back: the position after move ${model.viewing}. Press Live position (or End) to return.`;

  const banner = $('draw-banner');
  const offer = game.draw_offer;
  banner.hidden = !offer || game.status !== Status.LIVE;
  if (!banner.hidden) {
    const mine = game.you === offer;
    $('draw-text').textContent = mine ? 'You offered a draw. Waiting for the answer.' : `${playerName(game, offer)} offers a draw.`;
    $('draw-answer').hidden = mine || !isPlayer();
  }
}

function renderControls() {
  const { game } = model;
  const live = game.status === Status.LIVE;
  const player = isPlayer();
  const playable = canPlay(game) && model.viewing === null;
  board.showMoves(playable ? game.legal : [], { mover: game.to_move, dots: hints.checked });

  // The controls card keeps its place and size: live controls during the game, the way on
  // after it.
  $('actions').hidden = !player;
  $('live-actions').hidden = !live;
  $('after-actions').hidden = live;
  $('type-move').hidden = !live;
  $('legal-moves').hidden = !live || !hints.checked;
  $('undo').hidden = !(live && !TIMED.has(game.mode));
  $('undo').disabled = !game.moves.length;
  $('offer-draw').hidden = !(live && TIMED.has(game.mode) && game.you !== Seat.BOTH);
  $('offer-draw').disabled = game.draw_offer !== null;
  $('resign').hidden = !live;
  $('resign').textContent = game.you === Seat.BOTH && game.to_move ? `Resign for ${SIDE_NAME[game.to_move]}` : 'Resign';
  $('move-input').setAttribute('aria-disabled', playable ? 'false' : 'true');
  $('type-move-play').setAttribute('aria-disabled', playable ? 'false' : 'true');
  renderLegalList(playable && hints.checked);

  const note = $('role-note');
  const standIn = game.mode === Mode.QUICK && [Side.BLACK, Side.WHITE].some((side) => game.players[side].computer);
  if (game.you === Seat.SPECTATOR) {
    note.textContent = 'You are watching this game. Moves appear as they are played.';
  } else if (standIn) {
    note.textContent = 'Nobody else was free when you pressed Quick game, so the computer stands in at a level '
      + 'near your rating. This game is not rated.';
  } else {
    note.textContent = '';
  }
  note.hidden = !note.textContent;
  // Spectators of a live game are here to watch, not to import.
  $('import').hidden = game.you === Seat.SPECTATOR && live;
}

function renderLegalList(show) {
  const list = $('legal-list');
  const { game } = model;
  const key = show ? game.legal.map((move) => move.square).join(' ') : 'waiting';
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren();
  if (!show) {
    const wait = document.createElement('p');
    wait.className = 'muted';
    wait.textContent = 'Your legal moves appear here on your turn.';
    list.append(wait);
  }
  for (const move of show ? game.legal : []) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.square = move.square;
    button.textContent = move.square;
    button.title = `Flips ${pluralDiscs(move.flips.length)}`;
    button.addEventListener('click', () => play(move.square));
    list.append(button);
  }
  // The focus stays in the controls: on the first legal move, or on the move box.
  if (hadFocus) (list.querySelector('button') || $('move-input')).focus();
}

function renderResult() {
  const { game } = model;
  const panel = $('result');
  const over = game.status !== Status.LIVE && Boolean(game.result);
  panel.hidden = !over || resultClosed;
  if (!over) return;
  $('result-title').textContent = resultTitle(model);
  $('result-score').textContent = scoreText(game.counts);
  $('result-reason').textContent = reasonText(model);
  renderRating();
  const rematch = $('rematch');
  const { asked, left } = game.rematch;
  rematch.hidden = !isPlayer() || left.length > 0 || (game.you !== Seat.BOTH && asked.includes(game.you));
  let text = '';
  if (left.length) text = 'Your opponent left: no rematch in this game.';
  else if (game.you !== Seat.BOTH && asked.includes(game.you)) text = 'Rematch asked. Waiting for your opponent…';
  else if (asked.length && isPlayer()) text = `${playerName(game, asked[0])} wants a rematch.`;
  $('rematch-status').textContent = text;
}

/** The result panel's rating lines: a player sees their own, anyone else both. */
function renderRating() {
  const { game, ratingChanges } = model;
  const box = $('result-rating');
  box.replaceChildren();
  if (!ratingChanges) return;
  const player = isSide(game.you);
  for (const side of player ? [game.you] : [Side.BLACK, Side.WHITE]) {
    const change = ratingChanges[side];
    if (!change) continue;
    const line = document.createElement('p');
    line.className = 'rating-line';
    line.dataset.side = side;
    if (player) {
      line.append('Your rating: ');
    } else {
      const name = game.players[side] && !game.players[side].computer ? game.players[side].name : null;
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

const knownCounts = () => [...model.positions.keys()].sort((a, b) => a - b);
const currentCount = () => (model.viewing === null ? model.game.moves.length : model.viewing);

function renderMoves() {
  const { game } = model;
  const current = currentCount();
  moveList.render(game.moves, (count) => model.positions.has(count), current);
  const counts = knownCounts();
  $('nav-start').disabled = !counts.some((count) => count < current);
  $('nav-back').disabled = !counts.some((count) => count < current);
  $('nav-forward').disabled = model.viewing === null;
  $('nav-live').disabled = model.viewing === null;
  $('nav-note').hidden = game.moves.every((ply) => model.positions.has(ply.number));
}

function renderDescription(shown) {
  const squares = { X: [], O: [] };
  for (let index = 0; index < 64; index += 1) {
    const code = shown.board[index];
    if (code in squares) squares[code].push(`${'abcdefgh'[index % 8]}${Math.floor(index / 8) + 1}`);
  }
  const { game } = model;
  const turn = !shown.live ? `After move ${model.viewing}. ` : game.status === Status.LIVE ? `${SIDE_NAME[game.to_move]} to move. ` : 'The game is over. ';
  $('description').textContent = `${turn}Black (${squares.X.length}): ${squares.X.join(', ') || 'none'}. `
    + `White (${squares.O.length}): ${squares.O.join(', ') || 'none'}. ${shown.counts.empty} empty squares.`;
}

function showMissing() {
  document.querySelector('.game-layout').hidden = true;
  $('missing').hidden = false;
  document.title = 'Game not found — Outflank';
}

// --- looking back -----------------------------------------------------------------------

/** Shows the position after `count` plies (null: the live position) and says so. */
function look(count, focusMove = false) {
  if (!model.game) return;
  update(view(model, count));
  $('status').textContent = model.viewing === null ? 'Showing the live position.' : `Showing the position after move ${model.viewing}.`;
  if (focusMove) moveList.focus(currentCount());
}

function step(where, focusMove) {
  if (!model.game) return;
  const counts = knownCounts();
  const current = currentCount();
  const earlier = counts.filter((count) => count < current);
  const later = counts.filter((count) => count > current);
  const target = {
    start: earlier[0],
    back: earlier[earlier.length - 1],
    forward: later.length ? later[0] : null,
    live: null,
  }[where];
  if (target === undefined) return;
  look(target, focusMove);
}

$('nav-start').addEventListener('click', () => step('start'));
$('nav-back').addEventListener('click', () => step('back'));
$('nav-forward').addEventListener('click', () => step('forward'));
$('nav-live').addEventListener('click', () => step('live'));

// ← → Home End step through the game from anywhere but a text field or the board (whose own
// arrows move between squares).
document.addEventListener('keydown', (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
  if (event.target.closest?.('input, textarea, select, dialog, .board')) return;
  const where = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'live' }[event.key];
  if (!where) return;
  event.preventDefault();
  step(where, Boolean(event.target.closest?.('#moves')));
});

// --- actions ----------------------------------------------------------------------------

function play(square) {
  if (!canPlay(model.game)) {
    update(withError(model, model.game && model.game.status === Status.LIVE ? 'It is not your turn yet.' : 'The game is over.'));
    return;
  }
  if (model.viewing !== null) look(null);
  send({ type: ClientMsg.MOVE, square });
}

board.onInput(({ square }) => play(square));

// On touch the first tap previews a move and the second plays it: say so while it is shown.
board.onPreview((shown) => {
  const hint = $('tap-hint');
  hint.hidden = !(shown && shown.touch);
  if (!hint.hidden) hint.textContent = `Tap ${shown.square} again to play it (flips ${pluralDiscs(shown.flips)}).`;
});

hints.addEventListener('change', () => {
  setShowLegalMoves(hints.checked);
  if (model.game) render();
});

const soundButton = $('sound-toggle');
function renderSoundButton() {
  const on = soundOn();
  soundButton.setAttribute('aria-pressed', String(on));
  soundButton.textContent = on ? 'Sound on' : 'Sound off';
}
soundButton.addEventListener('click', () => {
  setSoundOn(!soundOn());
  renderSoundButton();
  if (soundOn()) playSound(Sound.MOVE);
});
renderSoundButton();

$('type-move').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('move-input');
  const text = input.value.trim().toLowerCase();
  if (squareIndex(text) < 0) {
    update(withError(model, `"${input.value.trim()}" is not a square: type a column a–h and a row 1–8, e.g. d3.`));
    return;
  }
  play(text);
  input.value = '';
  input.focus();
});

$('undo').addEventListener('click', () => send({ type: ClientMsg.UNDO }));
$('offer-draw').addEventListener('click', () => send({ type: ClientMsg.OFFER_DRAW }));
$('accept-draw').addEventListener('click', () => send({ type: ClientMsg.ACCEPT_DRAW }));
$('decline-draw').addEventListener('click', () => send({ type: ClientMsg.DECLINE_DRAW }));
$('rematch').addEventListener('click', () => send({ type: ClientMsg.REMATCH }));
$('result-close').addEventListener('click', () => {
  resultClosed = true;
  render();
  $('show-result').focus();
});
$('show-result').addEventListener('click', () => {
  resultClosed = false;
  render();
  $('result-title').focus();
});
$('result-title').tabIndex = -1;

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

// The clocks count down to the server's deadline: each draw computes the time left from when
// the clocks were set, so a throttled background tab shows the right time when it wakes.
function tick() {
  if (model.game && model.game.clocks) {
    const low = renderClocks(model, performance.now());
    if (low && low === model.game.you && lowWarned !== model.game.moves.length) {
      lowWarned = model.game.moves.length;
      playSound(Sound.LOW_TIME);
    }
  }
}
setInterval(tick, 250);
document.addEventListener('visibilitychange', tick);

// An unknown game gets a clear message instead of endless reconnecting.
api.game(gameId).then((stored) => {
  model = withStored(model, stored);
  socket.connect();
}, (error) => {
  if (error.status === 404) showMissing();
  else socket.connect();
});
