// The rules page's example boards: fixed positions (from the server's documented examples)
// drawn by the board component, read-only.
import { Board } from './board/Board.js';
import './header.js';

const EXAMPLES = Object.freeze([
  {
    id: 'example-start',
    label: 'The start position',
    board: '---------------------------OX------XO---------------------------',
    marks: ['c4', 'd3', 'e6', 'f5'],
    mover: 'black',
  },
  {
    id: 'example-d3',
    label: 'After Black plays d3',
    board: '-------------------X-------XX------XO---------------------------',
    lastMove: { square: 'd3', flips: ['d4'] },
  },
  {
    id: 'example-pass',
    label: 'Black has no legal move',
    board: 'X-O------O------OOXX-------XX------XXX--------------------------',
    marks: ['e3', 'f6'],
    mover: 'white',
    lastMove: { square: 'c1', flips: ['b2'] },
  },
  {
    id: 'example-f6',
    label: 'After White plays f6',
    board: 'X-O------O------OOOX-------OX------XOX-------O------------------',
    lastMove: { square: 'f6', flips: ['e5', 'd4', 'c3'] },
  },
]);

for (const example of EXAMPLES) {
  const board = new Board(document.getElementById(example.id), { label: example.label, interactive: false, small: true });
  board.setPosition(example.board, { lastMove: example.lastMove || null });
  if (example.marks) board.showMoves(example.marks.map((square) => ({ square, flips: [] })), { mover: example.mover });
}

// The strategy tips' map: where the corners, X-squares and C-squares are (a1 top-left).
const CORNERS = ['a1', 'h1', 'a8', 'h8'];
const X_SQUARES = ['b2', 'g2', 'b7', 'g7'];
const C_SQUARES = ['b1', 'g1', 'a2', 'h2', 'a7', 'h7', 'b8', 'g8'];

function drawSquareMap(map) {
  const cells = [];
  for (let row = 1; row <= 8; row += 1) {
    for (const file of 'abcdefgh') {
      const square = `${file}${row}`;
      const cell = document.createElement('span');
      cell.dataset.square = square;
      cell.setAttribute('aria-hidden', 'true');
      if (CORNERS.includes(square)) cell.className = 'corner';
      else if (X_SQUARES.includes(square)) { cell.className = 'x-square'; cell.textContent = 'X'; }
      else if (C_SQUARES.includes(square)) { cell.className = 'c-square'; cell.textContent = 'C'; }
      cells.push(cell);
    }
  }
  map.replaceChildren(...cells);
}

const squareMap = document.getElementById('square-map');
if (squareMap) drawSquareMap(squareMap);
