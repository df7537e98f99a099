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
