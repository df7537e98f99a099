// The move list of the game page and the analysis board: one item per ply, in two columns
// (Black, White) numbered by full moves as the game record is. Items are added and removed as
// plies come and go, never redrawn, so the keyboard focus stays where it was.
import { SIDE_NAME } from './words.js';

export class MoveList {
  /** @param {HTMLOListElement} list @param {(count: number) => void} onPick */
  constructor(list, onPick) {
    this.list = list;
    this.onPick = onPick;
    this.items = []; // {ply, item, button|null}
  }

  /** Shows `moves` (the game's plies); `known` tells which positions can be shown; `current`
   *  is the ply count shown on the board. */
  render(moves, known, current) {
    let keep = 0;
    while (keep < this.items.length && keep < moves.length && sameMove(this.items[keep].ply, moves[keep])
      && Boolean(this.items[keep].button) === known(moves[keep].number)) keep += 1;
    for (const stale of this.items.splice(keep)) stale.item.remove();
    let number = this.items.length ? this.items[this.items.length - 1].fullMove : 0;
    for (let index = keep; index < moves.length; index += 1) {
      const ply = moves[index];
      if (ply.color === 'black' || index === 0) number += 1;
      this.items.push(this.item(ply, number, known(ply.number)));
    }
    for (const { ply, button } of this.items) {
      if (!button) continue;
      if (ply.number === current) button.setAttribute('aria-current', 'step');
      else button.removeAttribute('aria-current');
    }
    const shown = this.items.find(({ ply }) => ply.number === current);
    if (shown) keepInView(this.list, shown.item);
    else this.list.scrollTop = this.list.scrollHeight;
  }

  item(ply, fullMove, playable) {
    const item = document.createElement('li');
    item.className = ply.color;
    item.dataset.ply = String(ply.number);
    if (ply.color === 'black') {
      const no = document.createElement('span');
      no.className = 'move-no';
      no.textContent = `${fullMove}.`;
      item.append(no);
    }
    const text = ply.move === 'pass' ? 'pass' : ply.move;
    let button = null;
    const target = document.createElement(playable ? 'button' : 'span');
    if (playable) {
      button = target;
      button.type = 'button';
      button.className = 'move';
      button.addEventListener('click', () => this.onPick(ply.number));
    } else {
      target.className = 'move';
    }
    const colour = document.createElement('span');
    colour.className = 'visually-hidden';
    colour.textContent = `${SIDE_NAME[ply.color]} `;
    target.append(colour, text);
    if (ply.move === 'pass') target.classList.add('pass');
    item.append(target);
    this.list.append(item);
    return { ply, item, button, fullMove };
  }

  /** Focuses the button of ply `count`, if it has one. */
  focus(count) {
    const found = this.items.find(({ ply }) => ply.number === count);
    found?.button?.focus();
  }
}

const sameMove = (a, b) => a.number === b.number && a.move === b.move && a.color === b.color;

function keepInView(list, item) {
  const top = item.offsetTop - list.offsetTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + item.offsetHeight > list.scrollTop + list.clientHeight) list.scrollTop = top + item.offsetHeight - list.clientHeight;
}
