// The move list of the game page and the analysis board: one item per ply, in two columns
// (Black, White), each move with its Othello number (the n-th disc placed is move n; a pass has
// none). Items are added and removed as plies come and go, never redrawn, so the keyboard focus
// stays where it was.
import { SIDE_NAME } from './words.js';

export class MoveList {
  /**
   * @param {HTMLOListElement} list @param {(count: number) => void} onPick
   * @param {{strip?: boolean}} options `strip`: a phone's one-line strip under the board, which
   *   scrolls sideways and repeats the full list for the eye only (its buttons are not in the
   *   tab order; the list is there for the keyboard and screen readers).
   */
  constructor(list, onPick, { strip = false } = {}) {
    this.list = list;
    this.onPick = onPick;
    this.strip = strip;
    this.items = []; // {ply, item, button|null}
  }

  /** Shows `moves` (the game's plies); `known` tells which positions can be shown; `current`
   *  is the ply count shown on the board; `placed` the discs placed before the first ply (a
   *  set-up position's), so that its moves go on from there. */
  render(moves, known, current, placed = 0) {
    let keep = 0;
    while (keep < this.items.length && keep < moves.length && sameMove(this.items[keep].ply, moves[keep])
      && Boolean(this.items[keep].button) === known(moves[keep].number) && this.placed === placed) keep += 1;
    this.placed = placed;
    for (const stale of this.items.splice(keep)) stale.item.remove();
    let number = this.items.reduce((last, { number: n }) => n ?? last, placed);
    for (let index = keep; index < moves.length; index += 1) {
      const ply = moves[index];
      const own = ply.move === 'pass' ? null : (number += 1);
      this.items.push(this.item(ply, own, known(ply.number)));
    }
    for (const { ply, button } of this.items) {
      if (!button) continue;
      if (ply.number === current) button.setAttribute('aria-current', 'step');
      else button.removeAttribute('aria-current');
    }
    const shown = this.items.find(({ ply }) => ply.number === current);
    if (this.strip) {
      const last = shown || this.items[this.items.length - 1];
      if (last) keepInViewSideways(this.list, last.item);
      else this.list.scrollLeft = 0;
    } else if (shown) keepInView(this.list, shown.item);
    else this.list.scrollTop = this.list.scrollHeight;
  }

  item(ply, number, playable) {
    const item = document.createElement('li');
    item.className = ply.color;
    item.dataset.ply = String(ply.number);
    const text = ply.move === 'pass' ? 'pass' : ply.move;
    let button = null;
    const target = document.createElement(playable ? 'button' : 'span');
    if (playable) {
      button = target;
      button.type = 'button';
      button.className = 'move';
      if (this.strip) button.tabIndex = -1;
      button.addEventListener('click', () => this.onPick(ply.number));
    } else {
      target.className = 'move';
    }
    const colour = document.createElement('span');
    colour.className = 'visually-hidden';
    colour.textContent = `${SIDE_NAME[ply.color]} `;
    if (number !== null) {
      const no = document.createElement('span');
      no.className = 'move-no';
      no.textContent = `${number}.`;
      target.append(no, ' ');
    }
    target.append(colour, text);
    if (ply.move === 'pass') target.classList.add('pass');
    item.append(target);
    this.list.append(item);
    return { ply, item, button, number };
  }

  /** Focuses the button of ply `count`, if it has one. */
  focus(count) {
    const found = this.items.find(({ ply }) => ply.number === count);
    found?.button?.focus();
  }
}

const sameMove = (a, b) => a.number === b.number && a.move === b.move && a.color === b.color;

function keepInViewSideways(list, item) {
  const left = item.offsetLeft - list.offsetLeft;
  if (left < list.scrollLeft) list.scrollLeft = left;
  else if (left + item.offsetWidth > list.scrollLeft + list.clientWidth) list.scrollLeft = left + item.offsetWidth - list.clientWidth;
}

function keepInView(list, item) {
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight;
}
