// The board's DOM: a frame with the coordinates on its rim and a grid of 64 squares (real
// buttons when the board takes input). `draw(state)` touches only what changed since the last
// draw, so a running flip animation is never cut short by an unrelated update.
import { FILES, discName, squareLabel, squareName } from './model.js';
import { markPreviewCount, markText, markers } from './extensions/markers.js';

function rim(kind, labels) {
  const strip = document.createElement('div');
  strip.className = `rim rim-${kind}`;
  strip.setAttribute('aria-hidden', 'true');
  for (const label of labels) {
    const cell = document.createElement('span');
    cell.textContent = label;
    strip.append(cell);
  }
  return strip;
}

export class BoardView {
  /**
   * @param {HTMLElement} container
   * @param {{label: string, interactive: boolean, small: boolean}} options
   */
  constructor(container, { label, interactive, small }) {
    this.interactive = interactive;
    this.root = document.createElement('div');
    this.root.className = small ? 'board board-small' : 'board';
    this.root.setAttribute('role', 'group');
    this.root.setAttribute('aria-label', label);
    this.grid = document.createElement('div');
    this.grid.className = 'grid';
    this.squares = [];
    this.drawn = [];
    for (let index = 0; index < 64; index += 1) {
      const square = document.createElement(interactive ? 'button' : 'div');
      if (interactive) {
        square.type = 'button';
        square.tabIndex = index === 0 ? 0 : -1;
      } else {
        square.setAttribute('role', 'img');
      }
      square.className = 'square';
      square.dataset.square = squareName(index);
      const disc = document.createElement('span');
      disc.className = 'disc empty';
      disc.setAttribute('aria-hidden', 'true');
      square.append(disc);
      this.squares.push(square);
      this.drawn.push({ disc: '-', label: '', disabled: null, marks: {}, text: '' });
      this.grid.append(square);
    }
    const corner = document.createElement('span');
    corner.className = 'rim-corner';
    corner.setAttribute('aria-hidden', 'true');
    this.root.append(corner, rim('files', FILES), rim('ranks', ['1', '2', '3', '4', '5', '6', '7', '8']), this.grid);
    container.append(this.root);
  }

  /** Brings the DOM in line with `state`. */
  draw(state) {
    for (let index = 0; index < 64; index += 1) {
      const square = this.squares[index];
      const drawn = this.drawn[index];
      const code = state.position[index] || '-';
      if (drawn.disc !== code) {
        square.firstChild.className = `disc ${discName(code)}`;
        drawn.disc = code;
      }
      const marks = markers(state, index);
      for (const [name, on] of Object.entries(marks)) {
        if (drawn.marks[name] !== on) square.classList.toggle(name, on);
      }
      drawn.marks = marks;
      const text = markText(state, index);
      if (drawn.text !== text) {
        this.drawMarkText(square, text);
        drawn.text = text;
      }
      const label = squareLabel(state, index);
      if (drawn.label !== label) {
        square.setAttribute('aria-label', label);
        drawn.label = label;
      }
      if (this.interactive && drawn.disabled !== !marks.legal) {
        square.setAttribute('aria-disabled', marks.legal ? 'false' : 'true');
        drawn.disabled = !marks.legal;
      }
    }
    if (state.mover) this.root.dataset.mover = state.mover;
    else delete this.root.dataset.mover;
    markPreviewCount(this.root, state);
  }

  /** The short text of a page mark (the best move's value), in a badge over the square. */
  drawMarkText(square, text) {
    let badge = square.querySelector('.mark-text');
    if (!text) {
      badge?.remove();
      return;
    }
    if (!badge) {
      badge = document.createElement('span');
      badge.className = 'mark-text';
      badge.setAttribute('aria-hidden', 'true');
      square.append(badge);
    }
    badge.textContent = text;
  }

  /** The index of the square holding `target`, or -1. */
  indexOf(target) {
    const square = target instanceof Element ? target.closest('.square') : null;
    return square ? this.squares.indexOf(square) : -1;
  }

  destroy() {
    this.root.remove();
  }
}
