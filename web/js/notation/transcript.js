// A finished game's transcript, as on a tournament score sheet: the board with, on each square,
// the number of the move that placed a disc there (1 to 60, Othello's numbering), the start's
// discs drawn as discs. Pure (no DOM): the cells and the picture as SVG text, which the page
// shows, prints and turns into an image file.
import { moveNumbers } from './numbering.js';

const FILES = 'abcdefgh';

/** The square's index 0–63 (a1 first, h8 last), or -1 for something else. */
function indexOf(square) {
  if (typeof square !== 'string' || square.length !== 2) return -1;
  const file = FILES.indexOf(square[0]);
  const rank = Number(square[1]) - 1;
  return file < 0 || !(rank >= 0 && rank < 8) ? -1 : rank * 8 + file;
}

/**
 * The 64 cells, a1 first: a start disc (`disc` 'black' or 'white', no number), a move
 * (`number` and the `color` that played it), or empty. `start` is the start position's 64
 * squares (`X`, `O`, `-`), `moves` the game's plies ({color, move}).
 * @returns {{disc: string|null, number: number|null, color: string|null}[]}
 */
export function transcriptCells(start, moves) {
  const cells = Array.from({ length: 64 }, (_, index) => {
    const code = (start || '')[index];
    return { disc: code === 'X' ? 'black' : code === 'O' ? 'white' : null, number: null, color: null };
  });
  const numbers = moveNumbers(moves);
  moves.forEach((ply, index) => {
    const at = indexOf(ply.move);
    if (at >= 0 && numbers[index] !== null) cells[at] = { disc: null, number: numbers[index], color: ply.color };
  });
  return cells;
}

const escape = (text) => String(text).replace(/[&<>"]/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' }[c]));

/**
 * The transcript as a standalone SVG picture: coordinates around the board, each move's number
 * on a disc of its player's colour, the start's discs plain, and `title` and `subtitle` (the
 * players and the result) above it.
 */
export function transcriptSvg(cells, { title = '', subtitle = '' } = {}) {
  const cell = 48;
  const margin = 28;
  const top = title ? 64 : 16;
  const size = cell * 8;
  const width = size + margin * 2;
  const height = top + size + margin + 12;
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="system-ui, sans-serif">`,
    `<rect width="${width}" height="${height}" fill="#ffffff"/>`,
  ];
  if (title) parts.push(`<text x="${width / 2}" y="26" text-anchor="middle" font-size="18" font-weight="700" fill="#161616">${escape(title)}</text>`);
  if (subtitle) parts.push(`<text x="${width / 2}" y="48" text-anchor="middle" font-size="14" fill="#3d4441">${escape(subtitle)}</text>`);
  parts.push(`<rect x="${margin}" y="${top}" width="${size}" height="${size}" fill="#2e8b57"/>`);
  for (let line = 0; line <= 8; line += 1) {
    const at = line * cell;
    parts.push(`<line x1="${margin + at}" y1="${top}" x2="${margin + at}" y2="${top + size}" stroke="#123b25" stroke-width="1.5"/>`);
    parts.push(`<line x1="${margin}" y1="${top + at}" x2="${margin + size}" y2="${top + at}" stroke="#123b25" stroke-width="1.5"/>`);
  }
  for (let i = 0; i < 8; i += 1) {
    const middle = i * cell + cell / 2;
    parts.push(`<text x="${margin + middle}" y="${top - 8}" text-anchor="middle" font-size="13" fill="#3d4441">${FILES[i]}</text>`);
    parts.push(`<text x="${margin - 12}" y="${top + middle + 5}" text-anchor="middle" font-size="13" fill="#3d4441">${i + 1}</text>`);
  }
  cells.forEach((entry, index) => {
    const x = margin + (index % 8) * cell + cell / 2;
    const y = top + Math.floor(index / 8) * cell + cell / 2;
    const colour = entry.disc || entry.color;
    if (!colour) return;
    const fill = colour === 'black' ? '#161616' : '#f6f5ef';
    const ink = colour === 'black' ? '#ffffff' : '#161616';
    parts.push(`<circle cx="${x}" cy="${y}" r="${cell * 0.4}" fill="${fill}" stroke="#123b25" stroke-width="1"/>`);
    if (entry.number !== null) {
      parts.push(`<text x="${x}" y="${y + 6}" text-anchor="middle" font-size="17" font-weight="700" fill="${ink}">${entry.number}</text>`);
    }
  });
  parts.push('</svg>');
  return parts.join('');
}
