// The analysis board's words, as a pure module (no DOM): what the set-up box holds, the plies
// of the line for the move list, and the server's answers of POST /api/analysis/position and
// /values turned into marks, rows and sentences. The server knows the rules; nothing here does.
import { pluralDiscs } from '../text.js';
import { SIDE_NAME, orList, signed } from '../notation/words.js';
import { STANDARD_START, compactStart, readAddress } from '../notation/address.js';
import { moveNumbers, movesMade } from '../notation/numbering.js';

const other = (side) => (side === 'black' ? 'white' : 'black');

/** The side to move first from a position string (its last letter): 'black' or 'white'. */
export const startSide = (start) => (/[oO]\s*$/.test(String(start || STANDARD_START)) ? 'white' : 'black');

/**
 * What the set-up box holds, as the body to send: a position string (64 squares and the side
 * to move, spaces and line breaks allowed) goes as `start`; an analysis address as its line;
 * anything else (a move list, a text record, a GGF game) as `record`, read by the server.
 * @returns {{body: object, ply: number|null}|{error: string}}
 */
export function readSetup(text) {
  const trimmed = String(text || '').trim();
  if (!trimmed) return { error: 'Paste a move list, a game record or a position first.' };
  const squares = trimmed.replace(/\s+/g, '');
  if (/^[-.XO*]{64}[XO*]$/i.test(squares)) return { body: { start: squares }, ply: null };
  const link = /^(?:https?:\/\/[^/\s]+)?\/analysis(\?\S*)?$/.exec(trimmed);
  if (link) return readAddress(link[1] || '');
  return { body: { record: trimmed }, ply: null };
}

/** The plies of the line for the move list ({number, color, move}), the sides alternating from
 *  the start's side to move (a pass is a ply too). */
export function linePlies(start, line) {
  let color = startSide(start);
  return line.map((move, index) => {
    const ply = { number: index + 1, color, move };
    color = other(color);
    return ply;
  });
}

/** The key of a position: its start and the moves that lead to it. */
export const positionKey = (start, moves) => `${compactStart(start)}|${moves.join(' ')}`;

/** The legal moves of an answer as the board takes them ({square, flips}); the server may list
 *  bare squares or squares with their flips. */
export function legalSquares(answer) {
  const list = (answer && Array.isArray(answer.legal_moves)) ? answer.legal_moves : [];
  return list.map((move) => (typeof move === 'string' ? { square: move, flips: [] } : { square: move.square, flips: move.flips || [] }));
}

// --- the engine's values ----------------------------------------------------------------

const valueList = (values) => (values && Array.isArray(values.moves) ? values.moves : []);

/** The best value among `values.moves` (they come best first), or null. */
export const bestValue = (values) => (valueList(values).length ? valueList(values)[0].value : null);

/** The position's value for Black in discs, for the eval bar: the best move's value turned to
 *  Black's side, exact when the best move's is; the disc difference once the game is over;
 *  null while unknown. @returns {{value: number, exact: boolean}|null} */
export function blackValue(answer, values) {
  if (!answer) return null;
  if (answer.over) return answer.counts ? { value: answer.counts.black - answer.counts.white, exact: true } : null;
  const best = bestValue(values);
  if (best === null || !answer.side_to_move) return null;
  return { value: answer.side_to_move === 'black' ? best : -best, exact: Boolean(valueList(values)[0].exact) };
}

/**
 * The marks on the board: every legal move's value on its square ("+4", "−2"), the best ones
 * (all those worth the best value) marked as best; exact values carry `exact`.
 * @returns {{square: string, kind: 'best'|'value', text: string, exact: boolean}[]}
 */
export function valueMarks(values) {
  const best = bestValue(values);
  return valueList(values).filter((entry) => entry.move !== 'pass').map((entry) => ({
    square: entry.move,
    kind: entry.value === best ? 'best' : 'value',
    text: signed(entry.value),
    exact: Boolean(entry.exact),
  }));
}

/**
 * The rows of the "Moves and values" list: with values, best first; while the engine thinks,
 * the legal moves with no value yet (so that the list keeps its length).
 * @returns {{move: string, text: string, exact: boolean, best: boolean, words: string}[]}
 * (`words` says the value for screen readers: "+4 for Black, exact, best").
 */
export function valueRows(answer, values) {
  const side = answer && answer.side_to_move;
  if (!side) return [];
  const entries = valueList(values);
  if (entries.length) {
    const best = bestValue(values);
    return entries.map((entry) => {
      const text = signed(entry.value);
      const move = entry.move;
      return {
        move,
        text,
        exact: Boolean(entry.exact),
        best: entry.value === best,
        words: `${text} for ${SIDE_NAME[side]}${entry.exact ? ', exact' : ', estimate'}${entry.value === best ? ', best' : ''}`,
      };
    });
  }
  const squares = answer.must_pass ? ['pass'] : legalSquares(answer).map((move) => move.square);
  return squares.map((move) => ({ move, text: '', exact: false, best: false, words: 'no value yet' }));
}

/** "Best for Black: c3 (+4, exact)." or "" without values. */
export function bestWords(answer, values) {
  const side = answer && answer.side_to_move;
  const entries = valueList(values);
  if (!side || !entries.length) return '';
  const best = bestValue(values);
  const top = entries.filter((entry) => entry.value === best);
  const moves = top.map((entry) => (entry.move === 'pass' ? 'pass' : entry.move));
  const exact = top.every((entry) => entry.exact);
  return `Best for ${SIDE_NAME[side]}: ${orList(moves)} (${signed(best)}${exact ? ', exact' : ''}).`;
}

/** The discs placed before a start position's first move (its discs beyond the first four),
 *  so that the moves from a set-up position are numbered as they would be in its game. */
export function placedBefore(start) {
  const squares = compactStart(start || STANDARD_START).slice(0, 64);
  return Math.max(0, (squares.match(/[XO*]/gi) || []).length - 4);
}

/** The best line in words, each move with its number as the move list goes on from the ply
 *  shown (`moves` played from `start`): "Best line: 3. f4 4. f6 5. g5". */
export function bestLineWords(values, start, moves) {
  const line = values && Array.isArray(values.best_line) ? values.best_line : [];
  if (!line.length) return '';
  const plies = linePlies(start, [...moves, ...line]);
  const numbers = moveNumbers(plies);
  const placed = placedBefore(start);
  const words = plies.slice(moves.length).map((ply, index) => {
    const number = numbers[moves.length + index];
    return number === null ? 'pass' : `${placed + number}. ${ply.move}`;
  });
  return `Best line: ${words.join(' ')}`;
}

/** How the values were found, in short: "Depth 10; exact from 18 empties." */
export function methodWords(values) {
  if (!values) return '';
  const parts = [];
  if (values.search) parts.push(values.search);
  if (Number.isFinite(values.exact_from_empties)) parts.push(`exact from ${values.exact_from_empties} empties`);
  const text = parts.join('; ');
  return text ? `${text[0].toUpperCase()}${text.slice(1)}.` : '';
}

// --- the position ------------------------------------------------------------------------

/** The turn line: "Black to move", "White has no legal move: pass", "Game over: Black wins 40–24". */
export function turnWords(answer) {
  if (!answer) return '';
  if (answer.over) return resultWords(answer.result);
  const side = SIDE_NAME[answer.side_to_move] || '';
  if (answer.must_pass) return `${side} has no legal move and must pass`;
  return `${side} to move`;
}

/** "Game over: Black wins 40–24" / "Game over: a draw, 32–32". */
export function resultWords(result) {
  if (!result) return 'Game over';
  const score = `${result.black}\u2013${result.white}`;
  if (result.winner === 'draw') return `Game over: a draw, ${score}`;
  return `Game over: ${SIDE_NAME[result.winner]} wins ${score}`;
}

/** "Black 4 · White 1 · 59 empty". */
export function countWords(answer) {
  if (!answer || !answer.counts) return '';
  return `Black ${answer.counts.black} · White ${answer.counts.white} · ${answer.empties} empty`;
}

/** What the status line says about the ply shown, numbered from the discs `placed` before the
 *  first: "After move 3, Black c3. White to move." */
export function plyWords(plies, ply, answer, placed = 0) {
  const shown = ply > 0 ? plies[ply - 1] : null;
  const number = placed + movesMade(plies, ply);
  const before = !shown ? 'The start position.'
    : shown.move === 'pass' ? `${SIDE_NAME[shown.color]} passes after move ${number}.`
      : `After move ${number}, ${SIDE_NAME[shown.color]} ${shown.move}.`;
  const turn = answer ? `${turnWords(answer)}.` : '';
  return [before, turn].filter(Boolean).join(' ');
}

/** What the status line says once `mover` ('black' or 'white') played `move` and `answer` (the
 *  server's answer about the line with it) came: "Black played f5, flipping 1 disc. White to
 *  move." */
export function playedWords(mover, move, answer) {
  const side = SIDE_NAME[mover];
  const positions = Array.isArray(answer.positions) ? answer.positions : [];
  const last = positions[positions.length - 1];
  const flips = last && last.last_move && last.last_move.square === move ? last.last_move.flips.length : 0;
  const words = move === 'pass' ? `${side} passes.` : `${side} played ${move}, flipping ${pluralDiscs(flips)}.`;
  return `${words} ${turnWords(answer)}.`;
}

/** What the values' answer (or refusal) means for the engine's status line.
 *  @returns {{kind: 'thinking'|'done'|'busy'|'failed'|'over', text: string}} */
export function engineStatus({ answer, values, error, retryIn }) {
  if (answer && answer.over) return { kind: 'over', text: 'The game is over here: nothing to value.' };
  if (values) return { kind: 'done', text: methodWords(values) || 'Values ready.' };
  if (error && (error.code === 'analysis_busy' || error.status === 503)) {
    return {
      kind: 'busy',
      text: retryIn ? `The engine is busy with other positions. Trying again in ${retryIn} s…` : 'The engine is busy with other positions.',
    };
  }
  if (error) return { kind: 'failed', text: `No values: ${error.message || 'the engine did not answer'}` };
  return { kind: 'thinking', text: 'The engine is thinking…' };
}

/** Seconds to wait before asking again after a 503 (its Retry-After, kept within 1–30 s). */
export const retryDelay = (seconds) => Math.min(30, Math.max(1, Math.round(Number(seconds) || 3)));
