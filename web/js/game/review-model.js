// The engine's review of a finished game, as the page shows it: a pure module (no DOM) that
// turns the body of `GET /api/games/{id}/analysis` into marks, sentences, the graph's points
// and the status line. The server judges every move; nothing here knows the rules.
import { SIDE_NAME, orList, signed } from '../notation/words.js';
import { moveNumbers, movesMade } from '../notation/numbering.js';

/** The mark written after a move of each class; best, good and forced moves get none. */
export const MARKS = Object.freeze({ inaccuracy: '?!', mistake: '?', blunder: '??' });

/** What a class is called, with its article, for sentences. */
const CLASS_WORDS = Object.freeze({
  best: 'the best move', good: 'a good move', inaccuracy: 'an inaccuracy', mistake: 'a mistake',
  blunder: 'a blunder', forced: 'forced',
});

/** What a class is called in a list or a table. */
export const CLASS_NAME = Object.freeze({
  best: 'best move', good: 'good move', inaccuracy: 'inaccuracy', mistake: 'mistake', blunder: 'blunder', forced: 'forced',
});

/** The statuses the server reports while the engine works: the page asks again. */
const WORKING = new Set(['queued', 'running']);

// --- numbers in words -------------------------------------------------------------------

/** A count of discs lost, as a change: "−7 discs", "−1 disc". */
export const lossWords = (loss) => `${signed(-Math.abs(loss))} disc${Math.abs(loss) === 1 ? '' : 's'}`;

/** A value from Black's point of view in words: "Black +4", "White +3", "even". */
export function valueWords(value) {
  if (value > 0) return `Black ${signed(value)}`;
  if (value < 0) return `White ${signed(-value)}`;
  return 'even';
}

function countWords(count, one, many) {
  if (!count) return `no ${many}`;
  return `${count} ${count === 1 ? one : many}`;
}

// --- the status -------------------------------------------------------------------------

/**
 * What the review card says about the review itself.
 * @returns {{kind: 'none'|'waiting'|'done'|'failed', text: string, action: string|null,
 *   poll: boolean, progress: {done: number, total: number}|null}}
 * `action` is the label of the button that asks for a review (null: no button); `poll` says
 * whether to ask the server again soon; `progress` is there while the engine works.
 */
export function reviewStatus(body) {
  const status = body && body.status;
  const progress = body && body.progress && Number.isFinite(body.progress.total) && body.progress.total > 0
    ? { done: Math.min(body.progress.done || 0, body.progress.total), total: body.progress.total }
    : null;
  switch (status) {
    case 'none':
      return { kind: 'none', text: 'This game has not been reviewed yet.', action: 'Review this game', poll: false, progress: null };
    case 'queued':
      return { kind: 'waiting', text: 'Waiting for the engine: the review starts soon…', action: null, poll: true, progress };
    case 'running':
      return {
        kind: 'waiting',
        text: progress ? `Reviewing… ${progress.done} of ${progress.total} moves` : 'Reviewing…',
        action: null,
        poll: true,
        progress,
      };
    case 'done':
      return { kind: 'done', text: doneText(body), action: null, poll: false, progress: null };
    case 'failed':
      return { kind: 'failed', text: 'Review failed', action: 'Try again', poll: false, progress: null };
    default:
      return { kind: 'failed', text: 'The review could not be read.', action: null, poll: false, progress: null };
  }
}

function doneText(body) {
  const how = [];
  if (body.search) how.push(body.search);
  if (Number.isFinite(body.exact_from_empties)) how.push(`perfect play in the last ${body.exact_from_empties} empty squares`);
  const engine = body.engine ? `Reviewed by ${body.engine}` : 'Reviewed by the engine';
  return how.length ? `${engine} (${how.join('; ')}).` : `${engine}.`;
}

/** The status line after a refused request (an ApiError-like {status, code, message}). */
export function errorStatus(error) {
  const code = error && error.code;
  const status = error && error.status;
  const failed = (text, action = 'Try again') => ({ kind: 'failed', text, action, poll: false, progress: null });
  if (code === 'game_live' || status === 409) return failed('The review comes once the game is over.', null);
  if (code === 'too_many_analyses' || status === 429) return failed('Too many reviews were asked for just now. Try again in a minute.');
  if (code === 'analysis_queue_full' || status === 503) return failed('The engine is busy with other reviews. Try again in a minute.');
  if (status === 404) return failed('There is no review for this game.', null);
  if (status === 401) return failed('Choose a nickname on the home page first, then ask for the review here.', null);
  return failed('The review could not be loaded. Check your connection and try again.');
}

/** Whether the server's answer means "ask again soon". */
export const shouldPoll = (body) => Boolean(body) && WORKING.has(body.status);

// --- the plies --------------------------------------------------------------------------

const plies = (body) => (body && body.status === 'done' && Array.isArray(body.plies) ? body.plies : []);

/** The mark of a ply in the move list: {cls, mark, label}; `mark` is '' for classes without one. */
export function plyMark(ply) {
  if (!ply || !CLASS_NAME[ply.class]) return null;
  return { cls: ply.class, mark: MARKS[ply.class] || '', label: CLASS_NAME[ply.class] };
}

/** The marks of every ply of a done review, by ply number. */
export function moveMarks(body) {
  const marks = new Map();
  for (const ply of plies(body)) {
    const mark = plyMark(ply);
    if (mark) marks.set(ply.ply, mark);
  }
  return marks;
}

/** The sentence about one ply: "f5 was a mistake: −7 discs; best was d3 (+2)." */
export function plyWords(ply) {
  if (ply.move === 'pass') return `${SIDE_NAME[ply.color]} had no legal move and passed.`;
  const best = (ply.best || []).filter((move) => move !== ply.move);
  const bestText = best.length ? `; best was ${orList(best)} (${signed(ply.best_value)})` : '';
  switch (ply.class) {
    case 'forced':
      return `${ply.move} was forced: the only legal move.`;
    case 'best':
      return `${ply.move} was the best move (${signed(ply.played_value)}).`;
    case 'good':
      if (!ply.loss) return `${ply.move} was a good move (${signed(ply.played_value)}).`;
      return `${ply.move} was a good move: ${lossWords(ply.loss)}${bestText}.`;
    default:
      return `${ply.move} was ${CLASS_WORDS[ply.class] || 'played'}: ${lossWords(ply.loss)}${bestText}.`;
  }
}

/** "Move 12 · Black f5": the move's number (discs placed, 1 to 60) and who played what; a pass,
 *  which places no disc, "After move 12 · White passes". `list` is the review's plies. */
export function plyTitle(list, ply) {
  const number = movesMade(list, ply.ply);
  return ply.move === 'pass'
    ? `After move ${number} · ${SIDE_NAME[ply.color]} passes`
    : `Move ${number} · ${SIDE_NAME[ply.color]} ${ply.move}`;
}

/**
 * What the review says with `count` plies on the board (the ply selected in the move list):
 * the words about the last ply played, the best move in the position shown (for the board's
 * marks), and whether that ply has a best line to show.
 * @returns {{title: string, words: string, next: string, marks: {square: string, text: string}[],
 *   line: boolean}}
 */
export function selectedPly(body, count) {
  const list = plies(body);
  const played = count > 0 ? list.find((ply) => ply.ply === count) : null;
  const coming = list.find((ply) => ply.ply === count + 1);
  let next = '';
  let marks = [];
  if (coming && coming.move === 'pass') {
    next = `${SIDE_NAME[coming.color]} has no legal move here and passes.`;
  } else if (coming) {
    const squares = (coming.best || []).filter((move) => move !== 'pass');
    const value = signed(coming.best_value);
    if (squares.length) {
      next = `Best here for ${SIDE_NAME[coming.color]}: ${orList(squares)} (${value}${coming.exact ? ', exact' : ''}).`;
      marks = squares.map((square) => ({ square, text: value }));
    }
  } else if (list.length && count >= list.length) {
    next = 'The game is over here.';
  }
  return {
    title: played ? plyTitle(list, played) : 'The start',
    words: played ? plyWords(played) : (list.length ? 'The starting position, before Black\'s first move.' : ''),
    next,
    marks,
    line: Boolean(played && Array.isArray(played.best_line) && played.best_line.length),
  };
}

/**
 * Step `step` (from 0) of the best line instead of ply `count`: the board to show, its move and
 * the words. Null when there is no such step.
 * @returns {{board: string, move: string, step: number, length: number, text: string}|null}
 */
export function lineStep(body, count, step) {
  const played = plies(body).find((ply) => ply.ply === count);
  const line = played && Array.isArray(played.best_line) ? played.best_line : [];
  if (!line.length || step < 0 || step >= line.length) return null;
  const entry = line[step];
  const colors = [played.color, played.color === 'black' ? 'white' : 'black'];
  const mover = SIDE_NAME[colors[step % 2]];
  const moves = line.map((item) => item.move).join(' ');
  return {
    board: entry.board,
    move: entry.move,
    step,
    length: line.length,
    text: `The best line instead of ${played.move}: ${moves}. Showing ${mover} ${entry.move}, step ${step + 1} of ${line.length}.`,
  };
}

// --- the summary ------------------------------------------------------------------------

/**
 * One sentence per player: "Ann (Black) lost 1.2 discs a move on average, with 1 inaccuracy,
 * no mistakes and 1 blunder." `names` gives each side's name ({black, white}); without one the
 * colour stands alone.
 * @returns {{side: 'black'|'white', text: string}[]}
 */
export function summaryLines(body, names = {}) {
  if (!body || body.status !== 'done' || !body.summary) return [];
  return ['black', 'white'].filter((side) => body.summary[side]).map((side) => {
    const stats = body.summary[side];
    const who = names[side] && names[side] !== SIDE_NAME[side] ? `${names[side]} (${SIDE_NAME[side]})` : SIDE_NAME[side];
    const mean = (Number(stats.mean_loss) || 0).toFixed(1);
    const counts = [stats.inaccuracies || 0, stats.mistakes || 0, stats.blunders || 0];
    const errors = counts.every((count) => count === 0)
      ? 'no inaccuracies, mistakes or blunders'
      : `${countWords(counts[0], 'inaccuracy', 'inaccuracies')}, ${countWords(counts[1], 'mistake', 'mistakes')} and ${countWords(counts[2], 'blunder', 'blunders')}`;
    // Accuracy: the server's mean of 100 × 2^(−loss/6) over the moves that had a choice.
    const accuracy = Number.isFinite(stats.accuracy) ? ` (accuracy ${Math.round(stats.accuracy)}%)` : '';
    return { side, text: `${who} lost ${mean} discs a move on average${accuracy}, with ${errors}.` };
  });
}

// --- the graph --------------------------------------------------------------------------

/**
 * The graph's points: Black's value after each ply, from the start (ply 0); `number` is the
 * move's number (discs placed), null for a pass.
 * @returns {{ply: number, number: number|null, value: number, cls: string|null, label: string}[]}
 */
export function graphPoints(body) {
  const list = plies(body);
  if (!list.length) return [];
  const numbers = moveNumbers(list);
  const points = [{ ply: 0, number: 0, value: Number(list[0].value_before) || 0, cls: null, label: 'Start' }];
  list.forEach((ply, index) => {
    points.push({
      ply: ply.ply, number: numbers[index], value: Number(ply.value_after) || 0, cls: ply.class || null, label: `${SIDE_NAME[ply.color]} ${ply.move}`,
    });
  });
  return points;
}

/** The ply count from which the review's values are exact (the engine solved the rest of the
 *  game), or null when none is. */
export function exactFrom(body) {
  const first = plies(body).find((ply) => ply.exact);
  return first ? first.ply - 1 : null;
}

const LIMITS = [4, 8, 12, 16, 24, 32, 48, 64];

/** The graph's height above and below zero: the smallest of 4, 8, 12 … 64 that holds every value. */
export function graphLimit(points) {
  const most = Math.max(0, ...points.map((point) => Math.abs(point.value)));
  return LIMITS.find((limit) => most <= limit) || 64;
}

/** The graph as a table, a row per point: {ply, number, move, value, judgement}; `number` is
 *  what the table shows ('' for a pass). */
export const graphRows = (body) => graphPoints(body).map((point) => ({
  ply: point.ply,
  number: point.number === null ? '' : String(point.number),
  move: point.label,
  value: valueWords(point.value),
  judgement: point.cls ? CLASS_NAME[point.cls] : '',
}));

/** The nearest point's ply to a position `fraction` (0 to 1) of the way along `points`. */
export function nearestPly(points, fraction) {
  if (!points.length) return null;
  const last = points[points.length - 1].ply;
  const clamped = Math.min(1, Math.max(0, fraction));
  return Math.round(clamped * last);
}

/** The graph's value in words at `ply`, for its accessible value: "Move 12, Black f5: Black +4"
 *  ("Black f5" and "Black pass" as the graph's table says them). */
export function pointWords(points, ply) {
  const index = points.findIndex((item) => item.ply === ply);
  if (index < 0) return '';
  const point = points[index];
  const judged = point.cls && MARKS[point.cls] ? `, ${CLASS_NAME[point.cls]}` : '';
  if (point.ply === 0) return `Start: ${valueWords(point.value)}`;
  const number = point.number ?? points.slice(0, index).reduce((last, item) => item.number ?? last, 0);
  const where = point.number === null ? `After move ${number}` : `Move ${number}`;
  return `${where}, ${point.label}${judged}: ${valueWords(point.value)}`;
}
