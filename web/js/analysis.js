// The analysis board /analysis: any line from any position, both sides played freely, with
// the engine's value of every legal move on its square. Every position comes from the server
// (POST /api/analysis/position, instant), then its values (POST /api/analysis/values, up to a
// few seconds); the page holds no rules. The requests' answers and the controls go through the
// pure reducer (analysis/state.js) as actions, and the renderers draw the state. The address
// always carries the line (`?moves=f5d6c3&start=…&ply=N`), so that a copied link opens the
// same board.
import * as api from './api.js';
import { Board } from './board/Board.js';
import './header.js';
import { sentence } from './text.js';
import { MoveList } from './notation/move-list.js';
import { readAddress } from './notation/address.js';
import { linePlies, placedBefore, playedWords, readSetup } from './analysis/model.js';
import { afterWords } from './notation/numbering.js';
import {
  awaitsValues, engineAnnouncement, initialState, planPlay, plyAnnouncement, reduce, requestBody, shownAddress, shownEntry,
  shownKey, shownMoves, shownPosition, stepTarget, typedMove, wantsValues,
} from './analysis/state.js';
import { PositionView } from './analysis/position.js';
import { LineView } from './analysis/line.js';
import { renderEngine } from './analysis/engine.js';
import { copyText, selectContents } from './clipboard.js';

const $ = (id) => document.getElementById(id);
/** A values request waits this long after the last step, so that stepping quickly through a
 *  line asks only about the position it stops at. */
const VALUES_DELAY_MS = 150;
const COPIED_FOR_MS = 2500;

const board = new Board($('board'), { label: 'Analysis board, a1 top left to h8 bottom right' });
const moveList = new MoveList($('moves'), (count) => select(count));
const positionView = new PositionView(board);
const lineView = new LineView(moveList);

let state = initialState();
let valuesTimer = null; // the values request waiting for the steps to stop
let retryTimer = null; // the countdown to asking again for values the busy engine refused
let copiedTimer = null;

/** Takes `action` into the state and draws the page. False when the state had no use for it
 *  (an answer overtaken by a newer request), and nothing is drawn. */
function dispatch(action) {
  const before = state;
  state = reduce(state, action);
  if (state === before) return false;
  render();
  return true;
}

/** Draws the state: the error line always, the rest once there is a position to show. */
function render() {
  positionView.renderError(state);
  if (!shownPosition(state)) return;
  positionView.render(state);
  lineView.render(state);
  renderEngine(state);
}

function announce(text) {
  $('status').textContent = text;
}

function announceEngine() {
  $('engine-announce').textContent = engineAnnouncement(state);
}

// --- the server's answers -----------------------------------------------------------------

/** Loads a new line (`{start, moves}` or `{record}`) and shows ply `ply` (the end when null).
 *  Throws the server's refusal; an answer overtaken by a newer load is dropped. */
async function load(body, ply = null) {
  dispatch({ type: 'load_started' });
  const seq = state.loads;
  const answer = await api.analysisPosition(body);
  if (dispatch({ type: 'loaded', seq, answer, ply })) follow();
}

/** After the line or the ply shown changed: the address follows, what was asked about the
 *  position before is dropped, and the server is asked about the position shown. */
function follow() {
  clearTimeout(valuesTimer);
  clearInterval(retryTimer);
  history.replaceState(null, '', shownAddress(state));
  const key = shownKey(state);
  const moves = shownMoves(state);
  if (shownEntry(state)?.answer) askValues(key, moves);
  else askRules(key, moves);
}

async function askRules(key, moves) {
  let answer;
  try {
    answer = await api.analysisPosition(requestBody(state, moves));
  } catch (error) {
    dispatch({ type: 'rules_failed', key, text: sentence(error.message) });
    return;
  }
  dispatch({ type: 'answered', key, answer });
  if (key === shownKey(state)) askValues(key, moves);
}

function askValues(key, moves) {
  if (!wantsValues(state, key)) return;
  clearTimeout(valuesTimer);
  valuesTimer = setTimeout(() => fetchValues(key, moves), VALUES_DELAY_MS);
}

async function fetchValues(key, moves) {
  clearInterval(retryTimer);
  dispatch({ type: 'values_started' });
  const seq = state.valuesAsked;
  let answer;
  try {
    answer = await api.analysisValues(requestBody(state, moves));
  } catch (error) {
    // Dropped when the page has asked about another position since.
    if (!dispatch({ type: 'values_failed', key, seq, error })) return;
    if (state.retryIn) startRetry(key, moves);
    announceEngine();
    return;
  }
  const awaited = awaitsValues(state, key, seq);
  dispatch({ type: 'valued', key, answer });
  if (awaited) announceEngine();
}

/** Counts the seconds down to asking again for the values the busy engine refused. */
function startRetry(key, moves) {
  clearInterval(retryTimer);
  retryTimer = setInterval(() => {
    if (state.retryIn > 1) {
      dispatch({ type: 'retry_tick' });
      return;
    }
    clearInterval(retryTimer);
    if (key === shownKey(state)) fetchValues(key, moves);
  }, 1000);
}

function retryNow() {
  if (!state.line) return;
  fetchValues(shownKey(state), shownMoves(state));
}

// --- moving through the line ----------------------------------------------------------------

/** Shows the position after `count` plies of the line. */
function select(count, focusMove = false) {
  if (!dispatch({ type: 'selected', ply: count })) return;
  follow();
  announce(plyAnnouncement(state));
  if (focusMove) moveList.focus(state.line.ply);
}

function step(where, focusMove = false) {
  const target = stepTarget(state, where);
  if (target !== null) select(target, focusMove);
}

/** Plays `move` (a square or 'pass') for the side to move: the line goes on from the ply shown;
 *  what came after it in the line is dropped, unless it is the same move. */
async function play(move) {
  const plan = planPlay(state, move);
  if (!plan) return;
  if ('error' in plan) {
    dispatch({ type: 'error', text: plan.error });
    return;
  }
  if ('ply' in plan) {
    select(plan.ply);
    return;
  }
  const mover = shownEntry(state).answer.side_to_move;
  dispatch({ type: 'play_started' });
  let answer;
  try {
    answer = await api.analysisPosition(requestBody(state, plan.moves));
  } catch (error) {
    dispatch({ type: 'play_failed', text: sentence(error.message) });
    return;
  }
  dispatch({ type: 'played', answer });
  follow();
  announce(playedWords(mover, move, answer));
}

// --- the best line --------------------------------------------------------------------------

async function openBestLine(focus = false) {
  const entry = shownEntry(state);
  const best = entry && entry.values ? entry.values.best_line : null;
  if (!best || !best.length) return;
  const key = shownKey(state);
  const { ply } = state.line;
  let answer;
  try {
    answer = await api.analysisPosition(requestBody(state, [...shownMoves(state), ...best]));
  } catch (error) {
    dispatch({ type: 'error', text: sentence(error.message) });
    return;
  }
  if (dispatch({ type: 'best_line_opened', key, ply, answer }) && focus) {
    ($('best-line-next').disabled ? $('best-line-exit') : $('best-line-next')).focus();
  }
}

function closeBestLine(focus = false) {
  if (dispatch({ type: 'best_line_closed' }) && focus) $('best-line').focus();
}

function playBestLine() {
  if (!dispatch({ type: 'best_line_played' })) return;
  follow();
  announce(`The best line is now the line, showing ${afterWords(linePlies(state.line.start, state.line.moves), state.line.ply, placedBefore(state.line.start))}.`);
}

// --- controls -------------------------------------------------------------------------------

board.onInput(({ square }) => play(square));
board.onPreview((shown) => {
  const hint = $('tap-hint');
  hint.hidden = !(shown && shown.touch);
  if (!hint.hidden) hint.textContent = `Tap ${shown.square} again to play it.`;
});

$('pass').addEventListener('click', () => play('pass'));
$('values-list').addEventListener('click', (event) => {
  const button = event.target.closest('button[data-move]');
  if (button) play(button.dataset.move);
});
$('nav-start').addEventListener('click', () => step('start'));
$('nav-back').addEventListener('click', () => step('back'));
$('nav-forward').addEventListener('click', () => step('forward'));
$('nav-end').addEventListener('click', () => step('end'));
$('engine-retry').addEventListener('click', retryNow);
$('best-line').addEventListener('click', () => openBestLine(true));
$('best-line-back').addEventListener('click', () => dispatch({ type: 'best_line_stepped', delta: -1 }));
$('best-line-next').addEventListener('click', () => dispatch({ type: 'best_line_stepped', delta: 1 }));
$('best-line-exit').addEventListener('click', () => closeBestLine(true));
$('best-line-play').addEventListener('click', playBestLine);

// ← → Home End move through the line from anywhere but a text field or the board (whose own
// arrows move between squares); while the best line is shown, ← and → step through it and
// Escape leaves it.
document.addEventListener('keydown', (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest?.('input, textarea, select, dialog, .board')) return;
  if (state.bestLine && (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Escape')) {
    event.preventDefault();
    if (event.key === 'Escape') closeBestLine();
    else dispatch({ type: 'best_line_stepped', delta: event.key === 'ArrowLeft' ? -1 : 1 });
    return;
  }
  const where = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end' }[event.key];
  if (!where) return;
  event.preventDefault();
  closeBestLine();
  step(where, Boolean(event.target.closest?.('#moves')));
});

// More than a move pasted in the move box (a position, a move list, a record) belongs in Set
// up: it goes there, ready to load, rather than being cut to four characters and refused.
$('move-input').addEventListener('paste', (event) => {
  const text = (event.clipboardData?.getData('text') || '').trim();
  if (text.length <= 4) return;
  event.preventDefault();
  $('setup-text').value = text;
  $('setup-error').textContent = 'That is more than a move, so it is here to load: press Load.';
  $('setup-text').focus();
});

$('type-move').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('move-input');
  const typed = typedMove(state, input.value);
  if (typed.error) {
    dispatch({ type: 'error', text: typed.error });
    return;
  }
  play(typed.move);
  input.value = '';
  input.focus();
});

$('setup-load').addEventListener('click', async (event) => {
  const button = event.currentTarget;
  const error = $('setup-error');
  const wanted = readSetup($('setup-text').value);
  if (wanted.error) {
    error.textContent = wanted.error;
    return;
  }
  error.textContent = '';
  button.disabled = true;
  try {
    await load(wanted.body, wanted.ply);
    announce(`Loaded: ${plyAnnouncement(state)}`);
  } catch (refusal) {
    error.textContent = `Not loaded: ${sentence(refusal.message)} The board is unchanged.`;
  } finally {
    button.disabled = false;
  }
});

$('setup-reset').addEventListener('click', async () => {
  $('setup-error').textContent = '';
  try {
    await load({});
    announce('The start position.');
  } catch (refusal) {
    $('setup-error').textContent = sentence(refusal.message);
  }
});

$('copy-link').addEventListener('click', async () => {
  const node = $('share-link');
  const button = $('copy-link');
  clearTimeout(copiedTimer);
  if (await copyText(node.href, node)) {
    button.textContent = 'Copied ✓';
    $('copy-status').textContent = 'Link copied: it opens this line, at this move.';
    copiedTimer = setTimeout(() => { button.textContent = 'Copy link'; }, COPIED_FOR_MS);
  } else {
    selectContents(node);
    $('copy-status').textContent = 'The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.';
  }
});

// --- the start ------------------------------------------------------------------------------

async function start() {
  const wanted = readAddress(location.search);
  try {
    await load(wanted.body, wanted.ply);
  } catch (error) {
    // A link with a bad line: say why, and start from the start.
    $('setup-error').textContent = `The link's line could not be loaded: ${sentence(error.message)}`;
    try {
      await load({});
    } catch (again) {
      $('turn').textContent = 'The analysis board is not available right now.';
      dispatch({ type: 'error', text: sentence(again.message) });
      return;
    }
  }
  announce(plyAnnouncement(state));
}

start();
