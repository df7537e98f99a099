// A rating-history line chart drawn by hand in SVG: the rating after each rated game, from
// the implied start of 1,200 (game 0). Colours come from the stylesheet's classes.
import { formatRating } from './account.js';

const SVG = 'http://www.w3.org/2000/svg';
export const START_RATING = 1200;

const MARGIN = Object.freeze({ top: 30, right: 52, bottom: 44, left: 52 });
const NICE_STEPS = [5, 10, 20, 25, 50, 100, 200, 250, 500, 1000];

const number = new Intl.NumberFormat('en');

function svg(tag, attributes = {}, text = '') {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text) node.textContent = text;
  return node;
}

/** The smallest nice step that cuts `range` into at most `most` parts. */
function niceStep(range, most, steps = NICE_STEPS) {
  for (const step of steps) if (range / step <= most) return step;
  return Math.ceil(range / most / 1000) * 1000;
}

/** Rounds for the drawing (two decimals keep the markup short). */
const r = (value) => Math.round(value * 100) / 100;

/**
 * The chart for `history` (the rating after each rated game, oldest first), or null when
 * there is nothing to draw (no rated games yet). `name` goes into its title and description.
 */
export function ratingChart(history, name, { provisional = false, width = 640, idPrefix = 'rating-chart' } = {}) {
  if (!history.length) return null;
  // Drawn at the width it is shown at, so that its text stays the size of the page's.
  const WIDTH = Math.round(Math.min(Math.max(width, 260), 900));
  const HEIGHT = WIDTH < 480 ? 220 : 260;
  const ratings = [START_RATING, ...history.map((entry) => entry.rating)];
  const games = ratings.length - 1;
  // At least 40 points of rating from bottom to top, so that small changes stay small.
  const extra = Math.max(0, 40 - (Math.max(...ratings) - Math.min(...ratings))) / 2;
  const low = Math.min(...ratings) - extra;
  const high = Math.max(...ratings) + extra;

  const yStep = niceStep(high - low, 5);
  let yMin = Math.floor(low / yStep) * yStep;
  let yMax = Math.ceil(high / yStep) * yStep;
  if (yMin === yMax) {
    yMin -= yStep;
    yMax += yStep;
  }
  const plotWidth = WIDTH - MARGIN.left - MARGIN.right;
  const plotHeight = HEIGHT - MARGIN.top - MARGIN.bottom;
  const x = (game) => MARGIN.left + (game / games) * plotWidth;
  const y = (rating) => MARGIN.top + (1 - (rating - yMin) / (yMax - yMin)) * plotHeight;

  const titleId = `${idPrefix}-title`;
  const descId = `${idPrefix}-desc`;
  const root = svg('svg', {
    class: 'chart', viewBox: `0 0 ${WIDTH} ${HEIGHT}`, role: 'img', 'aria-labelledby': `${titleId} ${descId}`,
    preserveAspectRatio: 'xMidYMid meet',
  });
  root.append(svg('title', { id: titleId }, `Rating history of ${name}`));
  root.append(svg('desc', { id: descId }, describe(ratings, name, provisional)));

  // Horizontal grid lines with the ratings on the left.
  const grid = svg('g', { 'aria-hidden': 'true' });
  for (let value = yMin; value <= yMax; value += yStep) {
    grid.append(svg('line', { class: 'grid', x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: r(y(value)), y2: r(y(value)) }));
    grid.append(svg('text', { x: MARGIN.left - 8, y: r(y(value) + 4), 'text-anchor': 'end' }, number.format(value)));
  }
  // The game numbers along the bottom.
  const xStep = niceStep(games, WIDTH < 480 ? 4 : 8, [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500]);
  for (let game = 0; game <= games; game += xStep) {
    grid.append(svg('line', { class: 'axis', x1: r(x(game)), x2: r(x(game)), y1: HEIGHT - MARGIN.bottom, y2: HEIGHT - MARGIN.bottom + 5 }));
    grid.append(svg('text', { x: r(x(game)), y: HEIGHT - MARGIN.bottom + 18, 'text-anchor': 'middle' }, number.format(game)));
  }
  grid.append(svg('line', { class: 'axis', x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: HEIGHT - MARGIN.bottom, y2: HEIGHT - MARGIN.bottom }));
  grid.append(svg('text', { x: MARGIN.left + plotWidth / 2, y: HEIGHT - 6, 'text-anchor': 'middle' }, 'Rated games played'));
  grid.append(svg('text', { x: 4, y: 12 }, 'Rating'));
  // The start, dashed, when it is not the bottom line already.
  if (START_RATING > yMin) {
    grid.append(svg('line', { class: 'start-line', x1: MARGIN.left, x2: WIDTH - MARGIN.right, y1: r(y(START_RATING)), y2: r(y(START_RATING)) }));
  }
  root.append(grid);

  const points = ratings.map((rating, game) => `${r(x(game))},${r(y(rating))}`);
  const line = svg('g', { 'aria-hidden': 'true' });
  line.append(svg('polyline', { class: 'line', points: points.join(' ') }));
  if (games <= 40) {
    ratings.forEach((rating, game) => {
      line.append(svg('circle', { class: 'point', cx: r(x(game)), cy: r(y(rating)), r: 3.5 }));
    });
  }
  const last = ratings[games];
  line.append(svg('text', { class: 'last-label', x: r(x(games) + 8), y: r(y(last) + 4) }, number.format(last)));
  root.append(line);
  return root;
}

/** The chart in words: every rating when there are few, the summary always. */
function describe(ratings, name, provisional) {
  const games = ratings.length - 1;
  const after = ratings.slice(1);
  const last = after[after.length - 1];
  const low = Math.min(...ratings);
  const high = Math.max(...ratings);
  const plural = games === 1 ? 'game' : 'games';
  let text = `${name} started at ${number.format(START_RATING)}. `;
  if (games <= 20) {
    text += `Rating after each of ${number.format(games)} rated ${plural}: ${after.map((value) => number.format(value)).join(', ')}. `;
  } else {
    text += `After ${number.format(games)} rated ${plural} the rating is ${number.format(last)}. `;
  }
  text += `Lowest ${number.format(low)}, highest ${number.format(high)}, now ${formatRating(last, provisional)}${provisional ? ' (provisional)' : ''}.`;
  return text;
}
