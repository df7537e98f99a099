// The engine's card on the analysis board: its status (thinking, busy, failed, done), the best
// move and the best line in words, the buttons that show the best line on the board, and every
// legal move with its value. Drawn from the state after every change.
import { bestLineWords, bestWords, blackValue, turnWords, valueRows } from './model.js';
import { EvalBar } from '../board/eval-bar.js';
import { shownEngineStatus, shownEntry, shownKey, shownMoves } from './state.js';

const $ = (id) => document.getElementById(id);
let evalBar = null;

/** Draws the engine's card for the position shown (once there is a line). */
export function renderEngine(state) {
  const entry = shownEntry(state);
  const answer = entry ? entry.answer : null;
  const values = entry ? entry.values || null : null;
  const status = shownEngineStatus(state);
  $('engine').dataset.state = status.kind;
  $('board').setAttribute('aria-busy', String(status.kind === 'thinking'));
  $('engine-status').textContent = status.text;
  $('engine-progress').classList.toggle('idle', status.kind !== 'thinking');
  $('engine-retry').hidden = status.kind !== 'busy' && status.kind !== 'failed';
  $('engine-best').textContent = bestWords(answer, values) || (status.kind === 'over' && answer ? `${turnWords(answer)}.` : '');
  $('engine-line').textContent = answer && !answer.over ? bestLineWords(values, state.line.start, shownMoves(state)) : '';

  const { bestLine } = state;
  const hasLine = Boolean(values && values.best_line && values.best_line.length);
  $('best-line').hidden = Boolean(bestLine);
  $('best-line').disabled = !hasLine;
  for (const id of ['best-line-back', 'best-line-next', 'best-line-play', 'best-line-exit']) $(id).hidden = !bestLine;
  if (bestLine) {
    $('best-line-back').disabled = bestLine.step === 0;
    $('best-line-next').disabled = bestLine.step >= bestLine.positions.length - 1;
  }
  renderValues(shownKey(state), answer, values);
  evalBar = evalBar || new EvalBar($('eval-bar'));
  const shown = state.bestLine ? null : blackValue(answer, values);
  if (shown) evalBar.show(shown.value, shown.exact);
  else evalBar.clear();
}

/** The "Moves and values" list, each move a button that plays it (`data-move`); redrawn only
 *  when a row changes, keeping the focus on the move it was on. */
function renderValues(key, answer, values) {
  const list = $('values-list');
  const rows = valueRows(answer, values);
  const drawn = JSON.stringify([key, rows.map((row) => [row.move, row.text, row.exact, row.best])]);
  if (list.dataset.key === drawn) return;
  list.dataset.key = drawn;
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
    item.append(button);
    list.append(item);
  }
  if (focused) list.querySelector(`button[data-move="${focused}"]`)?.focus();
}
