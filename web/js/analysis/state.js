// The analysis board's state, as a pure reducer (no DOM): the line on the board and the ply
// shown, what the server said about each position, the engine's progress, the best line while
// it is shown and the error over the board. `reduce(state, action)` returns the next state and
// never touches the page; the renderers draw it, and the page (analysis.js) sends the requests
// and dispatches their answers as actions. An action the state has no use for (an answer to a
// request overtaken by a newer one, a step past the end) returns the same state object, so that
// the page can tell. The server knows the rules; nothing here does.
import { squareIndex } from '../board/model.js';
import { STANDARD_START, addressOf, compactStart } from '../notation/address.js';
import { SIDE_NAME } from '../notation/words.js';
import {
  bestWords, engineStatus, legalSquares, linePlies, placedBefore, plyWords, positionKey, retryDelay,
} from './model.js';

/** How many positions the state remembers; the one used longest ago goes first. */
export const CACHE_LIMIT = 400;

/**
 * @typedef {object} Line the line on the board, as the server wrote it
 * @property {string} start the position it starts from
 * @property {string[]} moves its moves, passes included
 * @property {object[]} positions the position after each ply ({board, last_move}), the start first
 * @property {number} ply how many plies of it the board shows
 */

/**
 * @typedef {object} State
 * @property {Line|null} line null until the server's first answer
 * @property {Map<string, {answer?: object, values?: object}>} cache what the server said about
 *   each position, by its key (positionKey): its rules, and its values once the engine gave them
 * @property {number} loads the number of the latest load: the answer to an older one is dropped
 * @property {number} valuesAsked the number of the latest values request: likewise
 * @property {object|null} valuesError the refusal of the position's values ({code, status, message})
 * @property {number} retryIn seconds until the values are asked for again (0: no retry waiting)
 * @property {boolean} playing a move is on its way to the server
 * @property {object|null} bestLine {key, ply, answer, moves, positions, step} while the best line
 *   of the position `key` (after `ply` plies) is shown: the server's answer about the line with
 *   it, its moves and their positions, and the step shown
 * @property {string} error what the error line over the board says ('' for nothing)
 * @property {number} errorId counts the errors said, so that the same refusal twice is said twice
 * @property {boolean} animate whether the last change is a move to animate
 */

/**
 * The actions, as plain objects:
 * - `{type: 'load_started'}` a new line is asked for; `{type: 'loaded', seq, answer, ply}` its
 *   answer (`seq`: `loads` when it was asked), shown at ply `ply` (the end when null)
 * - `{type: 'selected', ply}` the board shows the position after `ply` plies of the line
 * - `{type: 'play_started'}`, then `{type: 'played', answer}` (the line with the move) or
 *   `{type: 'play_failed', text}`
 * - `{type: 'answered', key, answer}` the server's answer about the position `key`, or
 *   `{type: 'rules_failed', key, text}`
 * - `{type: 'values_started'}`, then `{type: 'valued', key, answer}` or
 *   `{type: 'values_failed', key, seq, error}` (`seq`: `valuesAsked` when they were asked for)
 * - `{type: 'retry_tick'}` a second of the wait before asking again has passed
 * - `{type: 'best_line_opened', key, ply, answer}`, `{type: 'best_line_stepped', delta}`,
 *   `{type: 'best_line_closed'}`, `{type: 'best_line_played'}`
 * - `{type: 'error', text}` the page's own refusal ('' clears it)
 */

/** @returns {State} */
export const initialState = () => ({
  line: null, cache: new Map(), loads: 0, valuesAsked: 0, valuesError: null, retryIn: 0, playing: false,
  bestLine: null, error: '', errorId: 0, animate: false,
});

/** The next state after `action`; the same state when the action changes nothing. */
export function reduce(state, action) {
  const next = { ...state, animate: false };
  switch (action.type) {
    case 'load_started':
      return { ...next, loads: state.loads + 1 };
    case 'loaded':
      if (action.seq !== state.loads) return state;
      return withLine({ ...next, bestLine: null }, action.answer, action.ply);
    case 'selected': {
      if (!state.line) return state;
      const ply = Math.min(Math.max(action.ply, 0), state.line.moves.length);
      return shown({ ...next, line: { ...state.line, ply }, animate: ply === state.line.ply + 1, ...said('') });
    }
    case 'play_started':
      return { ...next, playing: true };
    case 'played':
      return withLine({ ...next, playing: false, bestLine: null, ...said('') }, action.answer, null, true);
    case 'play_failed':
      return { ...next, playing: false, ...said(action.text, state) };
    case 'answered':
      return { ...next, cache: remember(state.cache, action.key, { answer: action.answer }) };
    case 'rules_failed':
      if (action.key !== shownKey(state)) return state;
      return { ...next, ...said(action.text, state) };
    case 'values_started':
      return { ...next, valuesAsked: state.valuesAsked + 1, valuesError: null, retryIn: 0 };
    case 'valued': {
      const { values, ...rules } = action.answer;
      const entry = { answer: rules, values: values || { moves: [], best_line: [] } };
      return { ...next, cache: remember(state.cache, action.key, entry) };
    }
    case 'values_failed': {
      if (!awaitsValues(state, action.key, action.seq)) return state;
      const { error } = action;
      return { ...next, valuesError: error, retryIn: isBusy(error) ? retryDelay(error.retryAfter) : 0 };
    }
    case 'retry_tick':
      return { ...next, retryIn: Math.max(0, state.retryIn - 1) };
    case 'best_line_opened': {
      const { key, ply, answer } = action;
      if (key !== shownKey(state)) return state;
      const bestLine = { key, ply, answer, step: 0, moves: answer.moves.slice(ply), positions: answer.positions.slice(ply + 1) };
      return { ...next, bestLine };
    }
    case 'best_line_stepped': {
      const line = state.bestLine;
      if (!line) return state;
      const step = line.step + action.delta;
      if (step < 0 || step >= line.positions.length) return state;
      return { ...next, bestLine: { ...line, step } };
    }
    case 'best_line_closed':
      if (!state.bestLine) return state;
      return { ...next, bestLine: null };
    case 'best_line_played': {
      if (!state.bestLine) return state;
      const { answer, ply, step } = state.bestLine;
      return withLine({ ...next, bestLine: null }, answer, ply + step + 1);
    }
    case 'error':
      return { ...next, ...said(action.text, state) };
    default:
      return state;
  }
}

/** Takes the server's answer about a whole line as the line, showing ply `ply` (the end when
 *  null) and remembering the answer as the one about the line's last position. */
function withLine(state, answer, ply = null, animate = false) {
  const start = answer.start || STANDARD_START;
  const moves = Array.isArray(answer.moves) ? answer.moves : [];
  const positions = Array.isArray(answer.positions) ? answer.positions : [];
  const shownPly = Number.isInteger(ply) ? Math.min(Math.max(ply, 0), moves.length) : moves.length;
  const cache = remember(state.cache, positionKey(start, moves), { answer });
  return shown({ ...state, line: { start, moves, positions, ply: shownPly }, cache, animate });
}

/** A new position shown: the best line goes unless it is this position's, and the values'
 *  refusal and retry belonged to the position before. */
function shown(state) {
  const bestLine = state.bestLine && state.bestLine.key === shownKey(state) ? state.bestLine : null;
  return { ...state, bestLine, valuesError: null, retryIn: 0 };
}

/** The error fields for `text`: a new error is said again even when it is the same. */
const said = (text, state = null) => ({ error: text, ...(text && state ? { errorId: state.errorId + 1 } : {}) });

/** The cache with `fields` added to the entry `key`, now the one used last. */
function remember(cache, key, fields) {
  const next = new Map(cache);
  const entry = { ...(next.get(key) || {}), ...fields };
  next.delete(key);
  next.set(key, entry);
  while (next.size > CACHE_LIMIT) next.delete(next.keys().next().value);
  return next;
}

/** Whether a values refusal means "the engine is busy: ask again later". */
const isBusy = (error) => Boolean(error) && (error.code === 'analysis_busy' || error.status === 503);

// --- what the state says ----------------------------------------------------------------

/** The moves played to the position shown. */
export const shownMoves = (state) => (state.line ? state.line.moves.slice(0, state.line.ply) : []);

/** The key of the position shown, or null before the first line. */
export const shownKey = (state) => (state.line ? positionKey(state.line.start, shownMoves(state)) : null);

/** What the server said about the position shown ({answer, values}), or null. */
export function shownEntry(state) {
  const key = shownKey(state);
  return key === null ? null : state.cache.get(key) || null;
}

/** The position shown ({board, last_move}): the line's, at its ply; null before the first line. */
export function shownPosition(state) {
  if (!state.line) return null;
  const { positions, ply } = state.line;
  return positions[ply] || positions[positions.length - 1] || null;
}

/** The address of the line and the ply shown (once there is a line). */
export const shownAddress = ({ line }) => addressOf({ start: line.start, line: line.moves, ply: line.ply });

/** The body of a request about the position after `moves` from the line's start. */
export const requestBody = (state, moves) => ({ start: compactStart(state.line.start), moves });

/** Whether the position `key` wants its values asked for: its rules are known, the game goes on
 *  there and no values came yet. */
export function wantsValues(state, key) {
  const entry = state.cache.get(key);
  return Boolean(entry && entry.answer && !entry.answer.over && !entry.values);
}

/** Whether values request `seq` about `key` is still awaited: no newer request was made and
 *  the position is still shown. */
export const awaitsValues = (state, key, seq) => seq === state.valuesAsked && key === shownKey(state);

/** The ply to show for a step ('start', 'back', 'forward' or 'end'), or null when the step goes
 *  nowhere (past an end, or where the board already is). */
export function stepTarget(state, where) {
  if (!state.line) return null;
  const { moves, ply } = state.line;
  const target = { start: 0, back: ply - 1, forward: ply + 1, end: moves.length }[where];
  if (target === undefined || target < 0 || target > moves.length || target === ply) return null;
  return target;
}

/**
 * What playing `move` (a square or 'pass') in the position shown comes to: null when there is
 * nothing to do yet (no answer about the position, or a move already on its way); `{error}`
 * when the game is over there; `{ply}` when it is the line's own next move (after the pass the
 * server put in, if any), which steps forward; else `{moves}`, the line to ask the server about:
 * the plies shown and the move, what came after them dropped.
 * @returns {null|{error: string}|{ply: number}|{moves: string[]}}
 */
export function planPlay(state, move) {
  const entry = shownEntry(state);
  if (!state.line || state.playing || !entry || !entry.answer) return null;
  if (entry.answer.over) return { error: 'The game is over here: there is nothing to play.' };
  const { moves, ply } = state.line;
  if (moves[ply] === move) return { ply: ply + 1 };
  if (moves[ply] === 'pass' && moves[ply + 1] === move) return { ply: ply + 2 };
  return { moves: [...moves.slice(0, ply), move] };
}

/** The move typed in the box (`{move}`: a square or 'pass'), or why it cannot be played
 *  (`{error}`): not a square, or not among the server's legal moves here. */
export function typedMove(state, typed) {
  const shown = String(typed || '').trim();
  const text = shown.toLowerCase();
  if (text !== 'pass' && squareIndex(text) < 0) {
    return { error: `"${shown}" is not a square: type a column a–h and a row 1–8, e.g. f5.` };
  }
  const entry = shownEntry(state);
  const answer = entry && entry.answer;
  if (answer && !answer.over && text !== 'pass') {
    const legal = legalSquares(answer).map((move) => move.square);
    if (legal.includes(text)) return { move: text };
    const side = SIDE_NAME[answer.side_to_move];
    return { error: legal.length ? `${text} is not a legal move for ${side} here.` : `${side} has no legal move: pass.` };
  }
  return { move: text };
}

/** What the status line says about the ply shown: "After move 3, Black c3. White to move." */
export function plyAnnouncement(state) {
  const line = state.line || { start: STANDARD_START, moves: [], ply: 0 };
  const entry = shownEntry(state);
  return plyWords(linePlies(line.start, line.moves), line.ply, entry ? entry.answer : undefined, placedBefore(line.start));
}

/** What the engine's status line says about the position shown. */
export function shownEngineStatus(state) {
  const entry = shownEntry(state);
  return engineStatus({
    answer: entry ? entry.answer : null, values: entry ? entry.values || null : null, error: state.valuesError, retryIn: state.retryIn,
  });
}

/** What is announced when the engine answers (or does not): the best move, or the status. */
export function engineAnnouncement(state) {
  const entry = shownEntry(state);
  const status = shownEngineStatus(state);
  return status.kind === 'done' && entry ? bestWords(entry.answer, entry.values) : status.text;
}
