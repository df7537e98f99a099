// The analysis board's address, which carries a line (`/analysis?moves=f5d6c3&start=…&ply=N`)
// so that a copied link opens the same board: written by the analysis board, by the game
// page's "Analyse this position" and by the puzzles; read by the analysis board when it opens.
// Pure (no DOM); the server reads the moves and knows the rules.

/** The standard start as the server writes it. */
export const STANDARD_START = '---------------------------OX------XO--------------------------- X';

/** A position string without its space: "<64 squares><X|O>", as the address carries it. */
export const compactStart = (start) => String(start || '').replace(/\s+/g, '');

/** Whether `start` (either form) is the standard start. */
export const isStandardStart = (start) => !start || compactStart(start).toUpperCase() === compactStart(STANDARD_START);

/** The moves of an address's `moves` (e.g. "f5d6c3", "f5 d6 pass c3"): squares and passes.
 *  Anything else is kept, a character at a time, so that the server names the bad text. */
export function splitMoves(text) {
  const tokens = String(text || '').toLowerCase().match(/pass|[a-h][1-8]|[^\s,]/g);
  return tokens || [];
}

/**
 * What the page's address asks for: the body of the first request and the ply to select.
 * @returns {{body: {start?: string, moves?: string[]}, ply: number|null}}
 */
export function readAddress(search) {
  const params = new URLSearchParams(search);
  const body = {};
  const start = (params.get('start') || '').trim();
  if (start) body.start = start;
  const moves = splitMoves(params.get('moves'));
  if (moves.length) body.moves = moves;
  const ply = params.get('ply');
  return { body, ply: ply !== null && /^\d+$/.test(ply.trim()) ? Number(ply) : null };
}

/**
 * The address of a line: `/analysis?moves=f5d6c3` (passes left out: the server puts them back),
 * `start=<64 squares><X|O>` when the start is not the standard one, and `ply=N` when the ply
 * shown is not the end of the line.
 */
export function addressOf({ start, line, ply }) {
  const parts = [];
  const moves = line.filter((move) => move !== 'pass').join('');
  if (moves) parts.push(`moves=${moves}`);
  if (!isStandardStart(start)) parts.push(`start=${encodeURIComponent(compactStart(start))}`);
  if (Number.isInteger(ply) && ply < line.length) parts.push(`ply=${ply}`);
  return parts.length ? `/analysis?${parts.join('&')}` : '/analysis';
}
