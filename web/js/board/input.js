// The board's input: mouse, touch and keyboard turned into previews and plays. With a mouse a
// hover previews and a click plays; on touch the first tap previews and a second tap on the
// same square plays; the keyboard moves a roving focus with the arrows and plays with Enter or
// Space.

export class BoardInput {
  /**
   * @param {import('./view.js').BoardView} view
   * @param {{state: () => import('./model.js').BoardState,
   *          preview: (index: number|null, touch?: boolean) => void, play: (index: number) => void}} board
   */
  constructor(view, board) {
    this.view = view;
    this.board = board;
    this.pointerType = '';
    this.focusIndex = 0;
    this.handlers = {
      pointerdown: (event) => { this.pointerType = event.pointerType || ''; },
      click: (event) => this.clicked(event),
      mouseover: (event) => this.hovered(event),
      mouseleave: () => { if (this.pointerType !== 'touch') board.preview(null); },
      keydown: (event) => this.key(event),
      focusin: (event) => this.focused(event),
    };
    for (const [name, handler] of Object.entries(this.handlers)) view.root.addEventListener(name, handler);
  }

  destroy() {
    for (const [name, handler] of Object.entries(this.handlers)) this.view.root.removeEventListener(name, handler);
  }

  legal(index) {
    return this.board.state().legal.has(index);
  }

  hovered(event) {
    if (this.pointerType === 'touch') return;
    const index = this.view.indexOf(event.target);
    if (index >= 0 && index !== this.board.state().previewed) this.board.preview(this.legal(index) ? index : null);
  }

  focused(event) {
    const index = this.view.indexOf(event.target);
    if (index < 0) return;
    this.moveFocus(index, false);
    if (this.legal(index) && event.target.matches(':focus-visible')) this.board.preview(index);
  }

  clicked(event) {
    const index = this.view.indexOf(event.target);
    if (index < 0) return;
    const touch = this.pointerType === 'touch';
    this.pointerType = touch ? 'touch' : '';
    this.moveFocus(index, false);
    if (!this.legal(index)) {
      this.board.preview(null);
      return;
    }
    if (touch && this.board.state().previewed !== index) {
      this.board.preview(index, true);
      return;
    }
    this.board.play(index);
  }

  moveFocus(index, focus = true) {
    const { squares } = this.view;
    squares[this.focusIndex].tabIndex = -1;
    this.focusIndex = index;
    squares[index].tabIndex = 0;
    if (focus) squares[index].focus();
  }

  /** Puts the keyboard focus on the board, at its roving square. */
  focus() {
    this.view.squares[this.focusIndex].focus();
  }

  key(event) {
    const index = this.view.indexOf(event.target);
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
        if (this.legal(index)) this.board.play(index);
        return;
      default: return;
    }
    event.preventDefault();
    event.stopPropagation(); // the arrows move on the board, not through the move list
    this.pointerType = '';
    this.moveFocus(next);
    this.board.preview(this.legal(next) ? next : null);
  }
}
