// The analysis board's line as the page shows it: the move list with the ply shown, the buttons
// that move through it, the move box, and the link that opens the same board. Drawn from the
// state after every change.
import { linePlies, placedBefore } from './model.js';
import { shownAddress, shownEntry } from './state.js';

const $ = (id) => document.getElementById(id);

export class LineView {
  /** @param {import('../notation/move-list.js').MoveList} moveList */
  constructor(moveList) {
    this.moveList = moveList;
    this.drawn = null; // the line the move list last showed, so that it keeps its scroll until the line moves
  }

  /** Draws the line of `state` (once there is one). */
  render(state) {
    const { line } = state;
    if (line !== this.drawn) {
      this.drawn = line;
      this.moveList.render(linePlies(line.start, line.moves), () => true, line.ply, placedBefore(line.start));
    }
    $('nav-start').disabled = line.ply === 0;
    $('nav-back').disabled = line.ply === 0;
    $('nav-forward').disabled = line.ply >= line.moves.length;
    $('nav-end').disabled = line.ply >= line.moves.length;
    const entry = shownEntry(state);
    const playable = Boolean(entry && entry.answer && !entry.answer.over);
    $('move-input').setAttribute('aria-disabled', playable ? 'false' : 'true');
    $('type-move-play').setAttribute('aria-disabled', playable ? 'false' : 'true');

    const address = `${location.origin}${shownAddress(state)}`;
    const link = $('share-link');
    if (link.getAttribute('href') !== address) {
      link.href = address;
      link.textContent = address;
      // A "copied" note was about the link before: it goes with it.
      $('copy-status').textContent = '';
      $('copy-link').textContent = 'Copy link';
    }
  }
}
