// How the moderator's desk writes numbers and links: statistics, z-scores, players' files and
// games. Figures the server did not give are a dash, never a guess.
import { el } from '../element.js';

const count = new Intl.NumberFormat('en');
const oneDecimal = new Intl.NumberFormat('en', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
const twoDecimals = new Intl.NumberFormat('en', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

export const NONE = '—';
const finite = (value) => typeof value === 'number' && Number.isFinite(value);

/** "1,234". */
export const integer = (value) => (finite(value) ? count.format(value) : NONE);
/** Discs lost, one decimal: "1.8". */
export const discs = (value) => (finite(value) ? oneDecimal.format(value) : NONE);
/** A share as a percentage: "62%", "7.5%" under ten. */
export const percent = (value) => {
  if (!finite(value)) return NONE;
  const points = value * 100;
  return `${Math.abs(points) < 10 && points !== 0 ? oneDecimal.format(points) : Math.round(points)}%`;
};
/** A spread of move times (a coefficient of variation): "0.45". */
export const spread = (value) => (finite(value) ? twoDecimals.format(value) : NONE);
/** A z-score with its sign, a true minus: "+5.2", "−0.4". */
export const zScore = (value) => {
  if (!finite(value)) return NONE;
  const text = oneDecimal.format(Math.abs(value));
  return value < 0 ? `\u2212${text}` : `+${text}`;
};

/** The file of player `id` on the desk. */
export const fileUrl = (id) => `/mod?player=${encodeURIComponent(id)}`;

/** A link to player `id`'s file, named `name` (or a short form of the id). */
export function fileLink(id, name) {
  return el('a', { href: fileUrl(id) }, name || `player ${id}`);
}

/** A link to game `id`'s page. */
export function gameLink(id, text = 'the game') {
  return el('a', { href: `/game/${encodeURIComponent(id)}` }, text);
}
