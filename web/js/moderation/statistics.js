// A player's file's statistics: each figure of their recent reviewed rated games (their
// window) beside their rating band's mean ± sd and how many standard errors better than the
// band they are, then the games one by one. The server computes every number; this only
// lays them out.
import { el } from '../element.js';
import { NONE, discs, gameLink, integer, percent, spread, zScore } from './format.js';
import { bandName } from './reports.js';

/** The four statistics: their name, where each figure is, how it is written, its z-score's
 *  key in the assessment (none for move times, which never flag). */
const FIGURES = Object.freeze([
  { key: 'mean_loss', name: 'Mean disc loss', hint: 'lower is better', write: discs, z: 'z_loss' },
  { key: 'best_share', name: 'Best-move share', hint: 'higher is better', write: percent, z: 'z_best' },
  { key: 'perfect_rate', name: 'Perfect-play rate from 20 empties', hint: 'games whose endgame had no loss', write: percent, z: 'z_perfect' },
  { key: 'time_cv', name: 'Move-time spread', hint: 'standard deviation over mean; low is machine-like', write: spread, z: null },
]);

const th = (text, attributes = {}) => el('th', attributes, text);
const td = (text, className = 'num') => el('td', { class: className }, text);

/** The table of the window beside the band. */
function figuresTable(statistics) {
  const { window, band, assessment } = statistics;
  const rows = FIGURES.map((figure) => {
    const spreadOf = band[figure.key] || {};
    const z = assessment && figure.z ? assessment[figure.z] : null;
    const bandText = spreadOf.count ? `${figure.write(spreadOf.mean)} ± ${figure.write(spreadOf.sd)}` : NONE;
    return el('tr', { 'data-figure': figure.key },
      el('th', { scope: 'row' }, figure.name, el('span', { class: 'figure-hint' }, ` (${figure.hint})`)),
      td(figure.write(window[figure.key])),
      td(bandText),
      td(integer(spreadOf.count)),
      td(z === null || z === undefined ? NONE : zScore(z)));
  });
  return el('div', { class: 'table-wrap' }, el('table', { class: 'data-table figures', id: 'figures' },
    el('caption', {}, `${window.games === 1 ? 'Their last reviewed rated game' : `Their last ${integer(window.games)} reviewed rated games`} beside players rated ${bandName(band)}`),
    el('thead', {}, el('tr', {},
      th('Statistic', { scope: 'col' }), th('Player', { scope: 'col', class: 'num' }),
      th('Band mean ± sd', { scope: 'col', class: 'num' }), th('Band games', { scope: 'col', class: 'num' }),
      th('z (better than band)', { scope: 'col', class: 'num' }))),
    el('tbody', {}, rows)));
}

/** What the assessment concluded, in words. */
function verdict(assessment) {
  if (!assessment) {
    return el('p', { class: 'muted', id: 'figures-verdict' },
      'No z-scores yet: they need at least 10 reviewed games of theirs and 30 of others in the band.');
  }
  const line = el('p', { id: 'figures-verdict', 'data-flagged': String(Boolean(assessment.flagged)) },
    assessment.flagged
      ? el('strong', {}, 'Flagged: far better than their band.')
      : 'Not flagged: within what their band plays.');
  const reasons = Array.isArray(assessment.reasons) ? assessment.reasons : [];
  return reasons.length ? el('div', {}, line, el('ul', {}, reasons.map((reason) => el('li', {}, reason)))) : line;
}

const yesNo = (value) => (value === true ? 'Yes' : value === false ? 'No' : NONE);

/** Their games one by one, newest first, each linking to its page. */
function gamesTable(games) {
  const rows = games.map(({ game, stats }) => el('tr', {},
    el('td', {}, gameLink(game, game)),
    td(integer(stats.moves)), td(discs(stats.mean_loss)), td(percent(stats.best_share)),
    td(integer(stats.exact_moves)), td(yesNo(stats.perfect_endgame)), td(spread(stats.time_cv))));
  return el('div', { class: 'table-wrap' }, el('table', { class: 'data-table', id: 'file-games' },
    el('caption', {}, 'Reviewed rated games, newest first'),
    el('thead', {}, el('tr', {},
      th('Game', { scope: 'col' }), th('Moves with a choice', { scope: 'col', class: 'num' }),
      th('Mean loss', { scope: 'col', class: 'num' }), th('Best moves', { scope: 'col', class: 'num' }),
      th('Exact moves', { scope: 'col', class: 'num' }), th('Perfect endgame', { scope: 'col', class: 'num' }),
      th('Time spread', { scope: 'col', class: 'num' }))),
    el('tbody', {}, rows)));
}

/** The statistics card's contents for `statistics` (null: no reviewed rated game yet). */
export function statisticsParts(statistics) {
  if (!statistics) return [el('p', { class: 'muted', id: 'figures-none' }, 'No reviewed rated games yet: nothing to compare.')];
  const games = Array.isArray(statistics.games) ? statistics.games : [];
  return [figuresTable(statistics), verdict(statistics.assessment), games.length ? gamesTable(games) : null];
}
