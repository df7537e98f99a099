// The board facade, the chessground way: state in, render out. The state is plain data
// (model.js); the view draws it (view.js); input (input.js) turns pointer, touch and keys into
// previews and plays; extensions add markers and the flip animation. It holds no rules: legal
// moves and flips come from the server.
import { initialState, squareIndex, squareName, withMarks, withMoves, withPosition, withPreview } from './model.js';
import { BoardView } from './view.js';
import { BoardInput } from './input.js';
import { animateFlips, endFlipOnAnimationEnd } from './extensions/animation.js';

export { Disc, FILES, countDiscs, squareIndex, squareName } from './model.js';

export class Board {
  /**
   * @param {HTMLElement} container where the board goes
   * @param {{label?: string, interactive?: boolean, small?: boolean}} options
   */
  constructor(container, { label = 'Board', interactive = true, small = false } = {}) {
    this.state = initialState();
    this.listeners = new Set();
    this.previewListeners = new Set();
    this.view = new BoardView(container, { label, interactive, small });
    this.root = this.view.root;
    endFlipOnAnimationEnd(this.root);
    this.input = interactive
      ? new BoardInput(this.view, {
        state: () => this.state,
        preview: (index, touch) => this.showPreview(index, touch),
        play: (index) => this.play(index),
      })
      : null;
    this.view.draw(this.state);
  }

  /** Draws `state`; a change of preview is told to the preview listeners (`touch` when a
   *  first tap made it). */
  update(state, touch = false) {
    const before = this.state.previewed;
    this.state = state;
    this.view.draw(state);
    if (state.previewed === before) return;
    const shown = state.previewed === null
      ? null
      : { square: squareName(state.previewed), flips: state.legal.get(state.previewed).length, touch };
    for (const listener of this.previewListeners) listener(shown);
  }

  /** Shows `board` (64 chars). With `lastMove` ({square, flips}) the move is ringed and, when
   *  `animate` is set, its flips turn over outward from it. */
  setPosition(board, { lastMove = null, animate = false } = {}) {
    const last = lastMove ? squareIndex(lastMove.square) : null;
    this.update(withPosition(this.state, board, last));
    if (animate && lastMove && last !== null) animateFlips(this.view.squares, lastMove.flips.map(squareIndex), last);
  }

  /** Marks the legal moves ({square, flips} from the server) for `mover` ('black'/'white');
   *  `dots` shows the markers. An empty list makes every square inert. */
  showMoves(legal, { mover = null, dots = true } = {}) {
    this.update(withMoves(this.state, legal, mover, dots));
  }

  /** Marks squares for the page ([{square, kind, text, exact}], e.g. the engine's best move
   *  with its value "+2"); an empty list clears them. Redraws only when the marks change. */
  setMarks(marks) {
    const key = JSON.stringify(marks.map((mark) => [mark.square, mark.kind || 'best', mark.text || '', Boolean(mark.exact)]));
    if (key === this.marksKey) return;
    this.marksKey = key;
    this.update(withMarks(this.state, marks));
  }

  /** Shows the faint disc and would-flip squares of the named square (null clears). */
  preview(square) {
    this.showPreview(square === null ? null : squareIndex(square), false);
  }

  showPreview(index, touch) {
    this.update(withPreview(this.state, index), touch);
  }

  /** `listener({square, flips, touch} | null)` hears each change of the preview: `touch` when
   *  a first tap made it (a second tap plays). Returns an unsubscribe. */
  onPreview(listener) {
    this.previewListeners.add(listener);
    return () => this.previewListeners.delete(listener);
  }

  /** `listener({square})` is called when the user plays a square. Returns an unsubscribe. */
  onInput(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Puts the keyboard focus on the board. */
  focus() {
    this.input?.focus();
  }

  play(index) {
    this.showPreview(null, false);
    for (const listener of this.listeners) listener({ square: squareName(index) });
  }

  destroy() {
    this.input?.destroy();
    this.listeners.clear();
    this.previewListeners.clear();
    this.view.destroy();
  }
}
