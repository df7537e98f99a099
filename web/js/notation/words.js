// Sides and values in words, written the same on every page that shows a board: the game and
// its review, the analysis board and the puzzles. Pure (no DOM), so it is tested without a
// browser.

export const SIDE_NAME = Object.freeze({ black: 'Black', white: 'White' });

const MINUS = '\u2212';

const plain = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(1));

/** A value with its sign, a true minus for a loss: "+2", "−7", "0", "+1.3". */
export function signed(value) {
  const number = Number(value) || 0;
  if (number > 0) return `+${plain(number)}`;
  if (number < 0) return `${MINUS}${plain(-number)}`;
  return '0';
}

/** "d3", "d3 or c4", "d3, c4 or e6". */
export function orList(items) {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;
}
