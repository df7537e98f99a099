// The analysis board /analysis: any line from any position, both sides played freely, with
// the engine's value of every legal move on its square. Every position comes from the server
// (POST /api/analysis/position, instant), then its values (POST /api/analysis/values, up to a
// few seconds); the page holds no rules. The address always carries the line
// (`?moves=f5d6c3&start=…&ply=N`), so that a copied link opens the same board.
import * as api from './api.js';
import { Board, countDiscs, squareIndex } from './board/Board.js';
import './header.js';
import { pluralDiscs, sentence } from './text.js';
import { MoveList } from './notation/move-list.js';
import { SIDE_NAME } from './notation/words.js';
import { STANDARD_START, addressOf, compactStart, readAddress } from './notation/address.js';
import {
  bestLineWords, bestWords, countWords, engineStatus, legalSquares, linePlies, plyWords, positionKey, readSetup, retryDelay,
  turnWords, valueMarks, valueRows,
} from './analysis/model.js';
import { copyText, selectContents } from './clipboard.js';

const $ = (id) => document.getElementById(id);
/** A values request waits this long after the last step, so that stepping quickly through a
 *  line asks only about the position it stops at. */
const VALUES_DELAY_MS = 150;
const CACHE_LIMIT = 400;
const COPIED_FOR_MS = 2500;

const board = new Board($('board'), { label: 'Analysis board, a1 top left to h8 bottom right' });
const moveList = new MoveList($('moves'), (count) => select(count));

/** The line on the board: its start, its moves (passes included, as the server wrote them),
 *  the position after each ply and the ply shown. */
const line = { start: STANDARD_START, moves: [], positions: [], ply: 0, ready: false };
/** What the server said about each position, by its key: {answer, values}. */
const cache = new Map();
let shownKey = null;
let loadSeq = 0;
let valuesSeq = 0;
let valuesTimer = null;
let retryTimer = null;
let valuesError = null;
let retryIn = 0;
let playing = false;
let animateNext = false;
let bestLine = null; // {key, ply, moves, positions, answer, step} while the best line is shown
let copiedTimer = null;
let drawnBoard = null; // what the board was last told: its position, and its legal moves
let drawnMoves = null;

// --- the server's answers -----------------------------------------------------------------

const bodyFor = (moves) => ({ start: compactStart(line.start), moves });

function remember(key, fields) {
  const entry = { ...(cache.get(key) || {}), ...fields };
  cache.delete(key);
  cache.set(key, entry);
  while (cache.size > CACHE_LIMIT) cache.delete(cache.keys().next().value);
  return entry;
}

const entryShown = () => (shownKey ? cache.get(shownKey) || null : null);

/** Takes the server's answer about a whole line as the board's line, showing ply `ply` (the
 *  end when null). */
function takeLine(answer, ply = null) {
  line.start = answer.start || STANDARD_START;
  line.moves = Array.isArray(answer.moves) ? answer.moves : [];
  line.positions = Array.isArray(answer.positions) ? answer.positions : [];
  line.ready = true;
  remember(positionKey(line.start, line.moves), { answer });
  const end = line.moves.length;
  line.ply = Number.isInteger(ply) ? Math.min(Math.max(ply, 0), end) : end;
  show();
}

/** Loads a new line (`{start, moves}` or `{record}`) and shows ply `ply`. Throws the server's
 *  refusal; an answer overtaken by a newer load is dropped. */
async function load(body, ply = null) {
  const seq = ++loadSeq;
  const answer = await api.analysisPosition(body);
  if (seq !== loadSeq) return false;
  closeBestLine();
  takeLine(answer, ply);
  return true;
}

/** Shows the ply of the line, asking the server about its position when it is new. */
function show() {
  const moves = line.moves.slice(0, line.ply);
  const key = positionKey(line.start, moves);
  if (bestLine && bestLine.key !== key) bestLine = null;
  shownKey = key;
  clearTimeout(valuesTimer);
  stopRetry();
  valuesError = null;
  history.replaceState(null, '', addressOf({ start: line.start, line: line.moves, ply: line.ply }));
  render();
  const entry = cache.get(key);
  if (entry && entry.answer) askValues(key, moves);
  else askRules(key, moves);
}

async function askRules(key, moves) {
  let answer;
  try {
    answer = await api.analysisPosition(bodyFor(moves));
  } catch (error) {
    if (key === shownKey) showError(sentence(error.message));
    return;
  }
  remember(key, { answer });
  if (key !== shownKey) return;
  render();
  askValues(key, moves);
}

function askValues(key, moves) {
  const entry = cache.get(key);
  if (!entry || !entry.answer || entry.answer.over || entry.values) {
    render();
    return;
  }
  clearTimeout(valuesTimer);
  valuesTimer = setTimeout(() => fetchValues(key, moves), VALUES_DELAY_MS);
}

async function fetchValues(key, moves) {
  const seq = ++valuesSeq;
  stopRetry();
  valuesError = null;
  render();
  let answer;
  try {
    answer = await api.analysisValues(bodyFor(moves));
  } catch (error) {
    // Stale: the page has asked about another position since.
    if (seq !== valuesSeq || key !== shownKey) return;
    valuesError = error;
    if (error.code === 'analysis_busy' || error.status === 503) startRetry(key, moves, retryDelay(error.retryAfter));
    render();
    announceEngine();
    return;
  }
  const { values, ...rules } = answer;
  remember(key, { answer: rules, values: values || { moves: [], best_line: [] } });
  if (seq !== valuesSeq || key !== shownKey) return;
  render();
  announceEngine();
}

function startRetry(key, moves, seconds) {
  stopRetry();
  retryIn = seconds;
  retryTimer = setInterval(() => {
    retryIn -= 1;
    if (retryIn <= 0) {
      stopRetry();
      if (key === shownKey) fetchValues(key, moves);
      return;
    }
    renderEngine();
  }, 1000);
}

function stopRetry() {
  clearInterval(retryTimer);
  retryTimer = null;
  retryIn = 0;
}

function retryNow() {
  if (!shownKey || !line.ready) return;
  stopRetry();
  valuesError = null;
  fetchValues(shownKey, line.moves.slice(0, line.ply));
}

// --- moving through the line ----------------------------------------------------------------

/** Shows the position after `count` plies of the line. */
function select(count, focusMove = false) {
  if (!line.ready) return;
  const target = Math.min(Math.max(count, 0), line.moves.length);
  animateNext = target === line.ply + 1;
  line.ply = target;
  showError('');
  show();
  announce(plyWords(linePlies(line.start, line.moves), line.ply, (entryShown() || {}).answer));
  if (focusMove) moveList.focus(line.ply);
}

function step(where, focusMove = false) {
  if (!line.ready) return;
  const target = { start: 0, back: line.ply - 1, forward: line.ply + 1, end: line.moves.length }[where];
  if (target === undefined || target < 0 || target > line.moves.length || target === line.ply) return;
  select(target, focusMove);
}

/** Plays `move` (a square or 'pass') for the side to move: the line goes on from the ply shown;
 *  what came after it in the line is dropped, unless it is the same move. */
async function play(move) {
  const entry = entryShown();
  if (!line.ready || playing || !entry || !entry.answer) return;
  const { answer } = entry;
  if (answer.over) {
    showError('The game is over here: there is nothing to play.');
    return;
  }
  // The line's own next move (after the pass the server put in, if any) steps forward.
  const next = line.moves[line.ply];
  if (next === move) {
    select(line.ply + 1);
    return;
  }
  if (next === 'pass' && line.moves[line.ply + 1] === move) {
    select(line.ply + 2);
    return;
  }
  const side = SIDE_NAME[answer.side_to_move];
  const moves = [...line.moves.slice(0, line.ply), move];
  playing = true;
  try {
    const next = await api.analysisPosition(bodyFor(moves));
    closeBestLine();
    animateNext = true;
    showError('');
    takeLine(next);
    const last = next.positions[next.positions.length - 1];
    const flips = last && last.last_move && last.last_move.square === move ? last.last_move.flips.length : 0;
    const words = move === 'pass' ? `${side} passes.` : `${side} played ${move}, flipping ${pluralDiscs(flips)}.`;
    announce(`${words} ${turnWords(next)}.`);
  } catch (error) {
    showError(sentence(error.message));
  } finally {
    playing = false;
  }
}

// --- the best line --------------------------------------------------------------------------

async function openBestLine(focus = false) {
  const entry = entryShown();
  const values = entry && entry.values;
  if (!values || !values.best_line || !values.best_line.length) return;
  const key = shownKey;
  const ply = line.ply;
  const moves = [...line.moves.slice(0, ply), ...values.best_line];
  let answer;
  try {
    answer = await api.analysisPosition(bodyFor(moves));
  } catch (error) {
    showError(sentence(error.message));
    return;
  }
  if (key !== shownKey) return;
  bestLine = {
    key, ply, answer, step: 0, moves: answer.moves.slice(ply), positions: answer.positions.slice(ply + 1),
  };
  render();
  if (focus) ($('best-line-next').disabled ? $('best-line-exit') : $('best-line-next')).focus();
}

function stepBestLine(delta) {
  if (!bestLine) return;
  const next = bestLine.step + delta;
  if (next < 0 || next >= bestLine.positions.length) return;
  bestLine.step = next;
  render();
}

function closeBestLine(focus = false) {
  if (!bestLine) return;
  bestLine = null;
  render();
  if (focus) $('best-line').focus();
}

function playBestLine() {
  if (!bestLine) return;
  const { answer, ply, step: at } = bestLine;
  bestLine = null;
  takeLine(answer, ply + at + 1);
  announce(`The best line is now the line, showing move ${ply + at + 1}.`);
}

// --- drawing --------------------------------------------------------------------------------

function render() {
  if (!line.ready) return;
  const entry = entryShown();
  const answer = entry ? entry.answer : null;
  const values = entry ? entry.values || null : null;
  const position = line.positions[line.ply] || line.positions[line.positions.length - 1];
  if (!position) return;

  if (bestLine) {
    renderBestLineBoard();
  } else {
    $('line-note').hidden = true;
    // The board is told only what changed, so that a first tap's preview survives the values
    // coming in.
    const legal = answer && !answer.over ? legalSquares(answer) : [];
    const mover = answer ? answer.side_to_move : null;
    const drawn = JSON.stringify([position.board, position.last_move && position.last_move.square]);
    if (drawn !== drawnBoard) {
      drawnBoard = drawn;
      board.setPosition(position.board, { lastMove: position.last_move, animate: animateNext });
    }
    const moves = JSON.stringify([legal.map((move) => move.square), mover]);
    if (moves !== drawnMoves) {
      drawnMoves = moves;
      board.showMoves(legal, { mover, dots: true });
    }
    board.setMarks(valueMarks(values));
  }
  animateNext = false;

  const counts = answer && answer.counts ? answer.counts : countDiscs(position.board);
  $('count-black').textContent = String(counts.black);
  $('count-white').textContent = String(counts.white);
  const side = answer ? answer.side_to_move : null;
  $('player-black').classList.toggle('to-move', side === 'black');
  $('player-white').classList.toggle('to-move', side === 'white');
  $('turn').textContent = answer ? turnWords(answer) : '\u00a0';
  const empties = answer ? answer.empties : countDiscs(position.board).empty;
  $('empties').textContent = `${empties} empty`;
  $('empties').title = answer ? countWords(answer) : '';
  $('pass').hidden = !(answer && answer.must_pass);
  document.body.dataset.side = side || 'none';
  document.body.dataset.over = String(Boolean(answer && answer.over));

  moveList.render(linePlies(line.start, line.moves), () => true, line.ply);
  $('nav-start').disabled = line.ply === 0;
  $('nav-back').disabled = line.ply === 0;
  $('nav-forward').disabled = line.ply >= line.moves.length;
  $('nav-end').disabled = line.ply >= line.moves.length;
  const playable = Boolean(answer && !answer.over);
  $('move-input').setAttribute('aria-disabled', playable ? 'false' : 'true');
  $('type-move-play').setAttribute('aria-disabled', playable ? 'false' : 'true');

  const address = `${location.origin}${addressOf({ start: line.start, line: line.moves, ply: line.ply })}`;
  const link = $('share-link');
  if (link.getAttribute('href') !== address) {
    link.href = address;
    link.textContent = address;
  }
  renderEngine();
}

function renderBestLineBoard() {
  const at = bestLine.positions[bestLine.step];
  const move = bestLine.moves[bestLine.step];
  board.setPosition(at.board, { lastMove: move === 'pass' ? null : at.last_move, animate: false });
  board.showMoves([], { mover: null, dots: false });
  board.setMarks([]);
  drawnBoard = null;
  drawnMoves = null;
  const note = $('line-note');
  note.hidden = false;
  note.textContent = `The best line: ${move}, move ${bestLine.step + 1} of ${bestLine.positions.length}.`;
}

function renderEngine() {
  const entry = entryShown();
  const answer = entry ? entry.answer : null;
  const values = entry ? entry.values || null : null;
  const status = engineStatus({ answer, values, error: valuesError, retryIn });
  const card = $('engine');
  card.dataset.state = status.kind;
  $('board').setAttribute('aria-busy', String(status.kind === 'thinking'));
  $('engine-status').textContent = status.text;
  $('engine-progress').classList.toggle('idle', status.kind !== 'thinking');
  $('engine-retry').hidden = status.kind !== 'busy' && status.kind !== 'failed';
  $('engine-best').textContent = bestWords(answer, values) || (status.kind === 'over' && answer ? `${turnWords(answer)}.` : '');
  $('engine-line').textContent = answer && !answer.over ? bestLineWords(values, line.start, line.moves.slice(0, line.ply)) : '';

  const inLine = Boolean(bestLine);
  const hasLine = Boolean(values && values.best_line && values.best_line.length);
  $('best-line').hidden = inLine;
  $('best-line').disabled = !hasLine;
  for (const id of ['best-line-back', 'best-line-next', 'best-line-play', 'best-line-exit']) $(id).hidden = !inLine;
  if (inLine) {
    $('best-line-back').disabled = bestLine.step === 0;
    $('best-line-next').disabled = bestLine.step >= bestLine.positions.length - 1;
  }
  renderValues(answer, values);
}

function renderValues(answer, values) {
  const list = $('values-list');
  const rows = valueRows(answer, values);
  const key = JSON.stringify([shownKey, rows.map((row) => [row.move, row.text, row.exact, row.best])]);
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  const focused = list.contains(document.activeElement) ? document.activeElement.dataset.move : null;
  list.replaceChildren();
  if (!rows.length) {
    const item = document.createElement('li');
    item.className = 'values-empty muted';
    item.textContent = answer && answer.over ? 'No moves: the game is over.' : 'Loading the position…';
    list.append(item);
    return;
  }
  for (const row of rows) {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.move = row.move;
    button.className = 'value-button';
    button.classList.toggle('best', row.best);
    const name = document.createElement('span');
    name.className = 'value-move';
    name.textContent = row.move === 'pass' ? 'Pass' : row.move;
    const value = document.createElement('span');
    value.className = `value-number${row.exact ? ' exact' : ''}`;
    value.setAttribute('aria-hidden', 'true');
    value.textContent = row.text || '…';
    const words = document.createElement('span');
    words.className = 'visually-hidden';
    words.textContent = `: ${row.words}`;
    button.append(name, value, words);
    button.addEventListener('click', () => play(row.move));
    item.append(button);
    list.append(item);
  }
  if (focused) list.querySelector(`button[data-move="${focused}"]`)?.focus();
}

function showError(text) {
  const chip = $('board-error');
  chip.textContent = text;
  chip.hidden = !text;
}

function announce(text) {
  $('status').textContent = text;
}

function announceEngine() {
  const entry = entryShown();
  const status = engineStatus({ answer: entry && entry.answer, values: entry && entry.values, error: valuesError, retryIn });
  const best = entry ? bestWords(entry.answer, entry.values) : '';
  $('engine-announce').textContent = status.kind === 'done' ? best : status.text;
}

// --- controls -------------------------------------------------------------------------------

board.onInput(({ square }) => play(square));
board.onPreview((shown) => {
  const hint = $('tap-hint');
  hint.hidden = !(shown && shown.touch);
  if (!hint.hidden) hint.textContent = `Tap ${shown.square} again to play it.`;
});

$('pass').addEventListener('click', () => play('pass'));
$('nav-start').addEventListener('click', () => step('start'));
$('nav-back').addEventListener('click', () => step('back'));
$('nav-forward').addEventListener('click', () => step('forward'));
$('nav-end').addEventListener('click', () => step('end'));
$('engine-retry').addEventListener('click', retryNow);
$('best-line').addEventListener('click', () => openBestLine(true));
$('best-line-back').addEventListener('click', () => stepBestLine(-1));
$('best-line-next').addEventListener('click', () => stepBestLine(1));
$('best-line-exit').addEventListener('click', () => closeBestLine(true));
$('best-line-play').addEventListener('click', playBestLine);

// ← → Home End move through the line from anywhere but a text field or the board (whose own
// arrows move between squares); while the best line is shown, ← and → step through it and
// Escape leaves it.
document.addEventListener('keydown', (event) => {
  if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
  if (event.target.closest?.('input, textarea, select, dialog, .board')) return;
  if (bestLine && (event.key === 'ArrowLeft' || event.key === 'ArrowRight' || event.key === 'Escape')) {
    event.preventDefault();
    if (event.key === 'Escape') closeBestLine();
    else stepBestLine(event.key === 'ArrowLeft' ? -1 : 1);
    return;
  }
  const where = { ArrowLeft: 'back', ArrowRight: 'forward', Home: 'start', End: 'end' }[event.key];
  if (!where) return;
  event.preventDefault();
  closeBestLine();
  step(where, Boolean(event.target.closest?.('#moves')));
});

$('type-move').addEventListener('submit', (event) => {
  event.preventDefault();
  const input = $('move-input');
  const text = input.value.trim().toLowerCase();
  if (text !== 'pass' && squareIndex(text) < 0) {
    showError(`"${input.value.trim()}" is not a square: type a column a–h and a row 1–8, e.g. f5.`);
    return;
  }
  const entry = entryShown();
  const answer = entry && entry.answer;
  if (answer && !answer.over && text !== 'pass' && !legalSquares(answer).some((move) => move.square === text)) {
    const legal = legalSquares(answer).map((move) => move.square);
    showError(legal.length
      ? `${text} is not a legal move for ${SIDE_NAME[answer.side_to_move]} here.`
      : `${SIDE_NAME[answer.side_to_move]} has no legal move: pass.`);
    return;
  }
  play(text);
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
    announce(`Loaded: ${plyWords(linePlies(line.start, line.moves), line.ply, (entryShown() || {}).answer)}`);
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
      showError(sentence(again.message));
      return;
    }
  }
  announce(plyWords(linePlies(line.start, line.moves), line.ply, (entryShown() || {}).answer));
}

start();
