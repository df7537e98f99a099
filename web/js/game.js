// The game page /game/{id}: the server's messages go through the pure reducer (game/model.js)
// and the renderers draw the model. The page holds no rules: legal moves, flips and results
// come from the server.
import * as api from './api.js';
import { Board, squareIndex } from './board/Board.js';
import { ClientMsg, Connection, GameSocket, Side, Status } from './protocol.js';
import { setShowLegalMoves, showLegalMoves } from './prefs.js';
import { renderHeader } from './header.js';
import { fillLevels, watchChoice } from './levels.js';
import { pluralDiscs } from './text.js';
import { MoveList } from './notation/move-list.js';
import { afterWords } from './notation/numbering.js';
import {
  canPlay, initialModel, playerName, reduce, shownPosition, view, withError, withStored,
} from './game/model.js';
import { renderClocks, renderPlayers } from './game/players.js';
import { renderControls } from './game/controls.js';
import { renderResult } from './game/result.js';
import { renderDescription, renderOverlays, renderTurn } from './game/status.js';
import { Sound, play as playSound, setSoundOn, soundOn } from './game/sound.js';
import { Review } from './game/review.js';
import { EvalBar } from './board/eval-bar.js';
import { renderTranscript } from './game/transcript.js';
import { renderConduct } from './game/conduct.js';

const $ = (id) => document.getElementById(id);
const gameId = decodeURIComponent(location.pathname.split('/')[2] || '');
const CAPTURE_FLIPS = 5;

let model = initialModel();
let connectedOnce = false;
let lowWarned = null;

const board = new Board($('board'), { label: 'Board, a1 top left to h8 bottom right' });
const moveList = new MoveList($('moves'), (count) => look(count));
const moveStrip = new MoveList($('move-strip'), (count) => look(count), { strip: true });
// The engine's review, once the game is over: picking a ply on its graph looks as the move
// list does.
const review = new Review({
  gameId,
  board,
  moves: $('moves'),
  pick: (count) => look(count),
  redraw: () => { if (model.game) render(); },
  evalBar: new EvalBar($('eval-bar')),
});
const hints = $('show-legal');
hints.checked = showLegalMoves();

const socket = new GameSocket(gameId, { onMessage: receive, onConnection: connection });
$('download-record').href = api.recordUrl(gameId);
$('download-ggf').href = api.ggfUrl(gameId);

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
  const ended = before.game && before.game.status === Status.LIVE && model.game.status !== Status.LIVE;
  render();
  if (ended) keepFocusAtTheEnd();
}

/** At the end of the game the live controls go away: focus that was on one of them (or was
 *  lost with them) moves to the result, so a keyboard or screen-reader user is not left at the
 *  top of the page. */
function keepFocusAtTheEnd() {
  const focused = document.activeElement;
  const lost = !focused || focused === document.body || focused.closest('[hidden]') !== null;
  if (!lost) return;
  const title = $('result-title');
  (title.offsetParent !== null ? title : $('content')).focus();
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
  renderTurn(model);
  renderOverlays(model);
  renderControls(model, { board, showLegal: hints.checked, play });
  renderResult(model);
  renderMoves();
  review.render(model);
  renderDescription(model, shown);
  renderTranscript(model);
  renderConduct(model);
  renderError();
}

function renderError() {
  const line = $('game-error');
  line.textContent = model.error;
  line.hidden = !model.error;
  if (model.missing) showMissing();
}

const knownCounts = () => [...model.positions.keys()].sort((a, b) => a - b);
const currentCount = () => (model.viewing === null ? model.game.moves.length : model.viewing);

function renderMoves() {
  const { game } = model;
  const current = currentCount();
  moveList.render(game.moves, (count) => model.positions.has(count), current);
  moveStrip.render(game.moves, (count) => model.positions.has(count), current);
  const counts = knownCounts();
  $('nav-start').disabled = !counts.some((count) => count < current);
  $('nav-back').disabled = !counts.some((count) => count < current);
  $('nav-forward').disabled = model.viewing === null;
  $('strip-back').disabled = $('nav-back').disabled;
  $('strip-forward').disabled = $('nav-forward').disabled;
  $('nav-live').disabled = model.viewing === null;
  $('nav-note').hidden = game.moves.every((ply) => model.positions.has(ply.number));
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
  $('status').textContent = model.viewing === null ? 'Showing the live position.' : `Showing the position after ${afterWords(model.game.moves, model.viewing)}.`;
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
$('strip-back').addEventListener('click', () => step('back'));
$('strip-forward').addEventListener('click', () => step('forward'));
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
    // Selected, so that the next keys replace it.
    input.select();
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
setInterval(tick, 100);
document.addEventListener('visibilitychange', tick);

// An unknown game gets a clear message instead of endless reconnecting.
api.game(gameId).then((stored) => {
  model = withStored(model, stored);
  socket.connect();
}, (error) => {
  if (error.status === 404) showMissing();
  else socket.connect();
});
