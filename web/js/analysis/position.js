// The analysis board's position as the page shows it: the board (or the step of the best line
// while it is shown), the disc counts, whose turn it is, and the error line over the board.
// Drawn from the state after every change.
import { countDiscs } from '../board/model.js';
import { countWords, legalSquares, turnWords, valueMarks } from './model.js';
import { shownEntry, shownPosition } from './state.js';

const $ = (id) => document.getElementById(id);

export class PositionView {
  /** @param {import('../board/Board.js').Board} board */
  constructor(board) {
    this.board = board;
    // What the board was last told, its position and its legal moves: it is told only what
    // changed, so that a first tap's preview survives the values coming in.
    this.drawnBoard = null;
    this.drawnMoves = null;
    this.errorId = -1; // the error last written to the error line (an alert, said when written)
  }

  /** Draws the position shown in `state` (once there is one). */
  render(state) {
    const position = shownPosition(state);
    const entry = shownEntry(state);
    const answer = entry ? entry.answer : null;
    if (state.bestLine) this.renderBestLine(state.bestLine);
    else this.renderLine(position, answer, entry ? entry.values || null : null, state.animate);

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
    $('opening-name').textContent = position && position.opening_name ? position.opening_name : '';
    $('pass').hidden = !(answer && answer.must_pass);
    document.body.dataset.side = side || 'none';
    document.body.dataset.over = String(Boolean(answer && answer.over));
  }

  /** The line's position, its legal moves for the side to move and the engine's values on them. */
  renderLine(position, answer, values, animate) {
    $('line-note').hidden = true;
    const legal = answer && !answer.over ? legalSquares(answer) : [];
    const mover = answer ? answer.side_to_move : null;
    const drawn = JSON.stringify([position.board, position.last_move && position.last_move.square]);
    if (drawn !== this.drawnBoard) {
      this.drawnBoard = drawn;
      this.board.setPosition(position.board, { lastMove: position.last_move, animate });
    }
    const moves = JSON.stringify([legal.map((move) => move.square), mover]);
    if (moves !== this.drawnMoves) {
      this.drawnMoves = moves;
      this.board.showMoves(legal, { mover, dots: true });
    }
    this.board.setMarks(valueMarks(values));
  }

  /** The step of the best line shown, with nothing to play on it, and a note saying so. */
  renderBestLine(line) {
    const at = line.positions[line.step];
    const move = line.moves[line.step];
    this.board.setPosition(at.board, { lastMove: move === 'pass' ? null : at.last_move, animate: false });
    this.board.showMoves([], { mover: null, dots: false });
    this.board.setMarks([]);
    this.drawnBoard = null;
    this.drawnMoves = null;
    const note = $('line-note');
    note.hidden = false;
    note.textContent = `The best line: ${move}, step ${line.step + 1} of ${line.positions.length}.`;
  }

  /** The error line, written only when an error is said or cleared. */
  renderError(state) {
    const chip = $('board-error');
    if (state.errorId === this.errorId && chip.textContent === state.error) return;
    this.errorId = state.errorId;
    chip.textContent = state.error;
    chip.hidden = !state.error;
  }
}
