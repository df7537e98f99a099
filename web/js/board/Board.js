// The board facade: renders a 64-character position (a1..h8, row by row, a1 top-left) as a
// grid of real buttons, marks the legal moves it is given, previews their flips on hover (or
// on a first tap), rings the last move and animates flips outward from the placed disc.
// It holds no rules: legal moves and flips come from the server.

export const Disc = Object.freeze({ BLACK: 'X', WHITE: 'O', EMPTY: '-' });
export const FILES = Object.freeze(['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h']);

const DISC_NAME = Object.freeze({ X: 'black', O: 'white', '-': 'empty' });
const FLIP_STEP_MS = 70;

export const squareName = (index) => `${FILES[index % 8]}${Math.floor(index / 8) + 1}`;
export const squareIndex = (name) => {
  const text = String(name).trim().toLowerCase();
  if (!/^[a-h][1-8]$/.test(text)) return -1;
  return (Number(text[1]) - 1) * 8 + FILES.indexOf(text[0]);
};

export class Board {
  /**
   * @param {HTMLElement} container where the board goes
   * @param {{label?: string, interactive?: boolean, small?: boolean}} options
   */
  constructor(container, { label = 'Board', interactive = true, small = false } = {}) {
    this.container = container;
    this.interactive = interactive;
    this.position = '-'.repeat(64);
    this.legal = new Map();
    this.mover = null;
    this.dots = true;
    this.lastSquare = null;
    this.previewed = null;
    this.pointerType = '';
    this.listeners = new Set();
    this.focusIndex = 0;

    this.root = document.createElement('div');
    this.root.className = small ? 'board board-small' : 'board';
    this.root.setAttribute('role', 'group');
    this.root.setAttribute('aria-label', label);
    this.squares = [];
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
      if (index % 8 === 0) square.dataset.rank = String(Math.floor(index / 8) + 1);
      if (index >= 56) square.dataset.file = FILES[index % 8];
      const disc = document.createElement('span');
      disc.className = 'disc';
      disc.setAttribute('aria-hidden', 'true');
      square.append(disc);
      this.squares.push(square);
      this.root.append(square);
    }
    container.append(this.root);

    if (interactive) {
      this.handlers = {
        pointerdown: (event) => { this.pointerType = event.pointerType || ''; },
        click: (event) => this.clicked(event),
        mouseover: (event) => this.hovered(event),
        mouseleave: () => { if (this.pointerType !== 'touch') this.preview(null); },
        keydown: (event) => this.key(event),
        focusin: (event) => this.focused(event),
      };
      for (const [name, handler] of Object.entries(this.handlers)) this.root.addEventListener(name, handler);
    }
    this.render(new Set(), -1);
  }

  /** Shows `board` (64 chars). With `lastMove` ({square, flips}) the move is ringed and, when
   *  `animate` is set, its flips turn over outward from it. */
  setPosition(board, { lastMove = null, animate = false } = {}) {
    this.position = board;
    this.lastSquare = lastMove ? squareIndex(lastMove.square) : null;
    const flipped = new Set(animate && lastMove ? lastMove.flips.map(squareIndex) : []);
    this.previewed = null;
    this.render(flipped, animate && lastMove ? this.lastSquare : -1);
  }

  /** Marks the legal moves ({square, flips} from the server) for `mover` ('black'/'white');
   *  `dots` shows the markers. An empty list makes every square inert. */
  showMoves(legal, { mover = null, dots = true } = {}) {
    this.legal = new Map(legal.map((move) => [squareIndex(move.square), move.flips.map(squareIndex)]));
    this.mover = mover;
    this.dots = dots;
    this.previewed = null;
    this.render(new Set(), -1);
  }

  /** `listener({square})` is called when the user plays a square. Returns an unsubscribe. */
  onInput(listener) {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  destroy() {
    if (this.handlers) {
      for (const [name, handler] of Object.entries(this.handlers)) this.root.removeEventListener(name, handler);
    }
    this.listeners.clear();
    this.root.remove();
  }

  render(flipped, origin) {
    for (let index = 0; index < 64; index += 1) {
      const square = this.squares[index];
      const code = this.position[index] || '-';
      const legal = this.legal.has(index);
      const disc = square.firstChild;
      disc.className = `disc ${DISC_NAME[code] || 'empty'}`;
      if (flipped.has(index) && origin >= 0) {
        const distance = Math.max(Math.abs((index % 8) - (origin % 8)), Math.abs(Math.floor(index / 8) - Math.floor(origin / 8)));
        disc.style.animationDelay = `${(distance - 1) * FLIP_STEP_MS}ms`;
        void disc.offsetWidth; // restart the animation
        disc.classList.add('flipping');
      } else {
        disc.style.animationDelay = '';
      }
      square.classList.toggle('legal', legal);
      square.classList.toggle('dot', legal && this.dots);
      square.classList.toggle('last', index === this.lastSquare);
      square.classList.remove('preview', 'would-flip');
      let label = `${squareName(index)}, ${DISC_NAME[code] || 'empty'}`;
      if (legal && this.dots) label += ', legal move';
      if (index === this.lastSquare) label += ', last move';
      square.setAttribute('aria-label', label);
      if (this.interactive) square.setAttribute('aria-disabled', legal ? 'false' : 'true');
    }
    if (this.mover) this.root.dataset.mover = this.mover;
    else delete this.root.dataset.mover;
  }

  /** Shows the faint disc and the would-flip highlights of `index` (null clears). */
  preview(index) {
    for (const square of this.root.querySelectorAll('.preview, .would-flip')) {
      square.classList.remove('preview', 'would-flip');
    }
    this.previewed = null;
    if (index === null || !this.legal.has(index)) {
      delete this.root.dataset.previewFlips;
      return;
    }
    this.previewed = index;
    this.squares[index].classList.add('preview');
    const flips = this.legal.get(index);
    for (const flip of flips) this.squares[flip].classList.add('would-flip');
    this.root.dataset.previewFlips = String(flips.length);
  }

  indexOf(target) {
    const square = target instanceof Element ? target.closest('.square') : null;
    return square ? this.squares.indexOf(square) : -1;
  }

  hovered(event) {
    if (this.pointerType === 'touch') return;
    const index = this.indexOf(event.target);
    if (index >= 0 && index !== this.previewed) this.preview(this.legal.has(index) ? index : null);
  }

  focused(event) {
    const index = this.indexOf(event.target);
    if (index < 0) return;
    this.moveFocus(index, false);
    if (this.legal.has(index) && event.target.matches(':focus-visible')) this.preview(index);
  }

  clicked(event) {
    const index = this.indexOf(event.target);
    if (index < 0) return;
    const touch = this.pointerType === 'touch';
    this.pointerType = touch ? 'touch' : '';
    this.moveFocus(index, false);
    if (!this.legal.has(index)) {
      this.preview(null);
      return;
    }
    if (touch && this.previewed !== index) {
      this.preview(index);
      return;
    }
    this.play(index);
  }

  play(index) {
    this.preview(null);
    for (const listener of this.listeners) listener({ square: squareName(index) });
  }

  moveFocus(index, focus = true) {
    this.squares[this.focusIndex].tabIndex = -1;
    this.focusIndex = index;
    this.squares[index].tabIndex = 0;
    if (focus) this.squares[index].focus();
  }

  key(event) {
    const index = this.indexOf(event.target);
    if (index < 0) return;
    const row = Math.floor(index / 8);
    const col = index % 8;
    let next = null;
    switch (event.key) {
      case 'ArrowLeft': next = row * 8 + Math.max(col - 1, 0); break;
      case 'ArrowRight': next = row * 8 + Math.min(col + 1, 7); break;
      case 'ArrowUp': next = Math.max(row - 1, 0) * 8 + col; break;
      case 'ArrowDown': next = Math.min(row + 1, 7) * 8 + col; break;
      case 'Home': next = row * 8; break;
      case 'End': next = row * 8 + 7; break;
      case 'Enter':
      case ' ':
        event.preventDefault();
        this.pointerType = '';
        if (this.legal.has(index)) this.play(index);
        return;
      default: return;
    }
    event.preventDefault();
    this.pointerType = '';
    this.moveFocus(next);
    this.preview(this.legal.has(next) ? next : null);
  }
}
