// A report as the desk shows it, in the queue and in a player's file: its reason, when, who
// sent it (the reporter's file) or that the reviews raised it, the game, the details, and for
// the reviews' signal the numbers behind it.
import { el } from '../element.js';
import { reasonName, reportStatusName, timeElement } from '../safety/words.js';
import { discs, fileLink, gameLink, integer, percent, zScore } from './format.js';

/** "1,200–1,400". */
export const bandName = (band) => `${integer(band.low)}–${integer(band.high)}`;

/** One line of a signal's numbers: the player's figure against the band's, and the z-score. */
function evidenceLine(name, mine, spread, z, write) {
  const against = spread ? ` against ${write(spread.mean)} ± ${write(spread.sd)}` : '';
  const score = z === null || z === undefined ? '' : `, z ${zScore(z)}`;
  return el('li', {}, el('span', { class: 'evidence-name' }, name), ` ${write(mine)}${against}${score}`);
}

/** The numbers of a signal (`evidence`: the assessment the reviews made). */
export function evidenceBlock(evidence) {
  const { window = {}, band = {} } = evidence;
  return el('div', { class: 'evidence' },
    el('p', {}, `Their last ${integer(window.games)} reviewed rated game${window.games === 1 ? '' : 's'} beside the band ${bandName(band)} `
      + `(${integer(band.mean_loss && band.mean_loss.count)} games of others)${evidence.flagged ? ': flagged.' : '.'}`),
    el('ul', {},
      evidenceLine('Mean disc loss', window.mean_loss, band.mean_loss, evidence.z_loss, discs),
      evidenceLine('Best-move share', window.best_share, band.best_share, evidence.z_best, percent),
      window.perfect_rate === null || window.perfect_rate === undefined ? null
        : evidenceLine('Perfect-play rate', window.perfect_rate, band.perfect_rate, evidence.z_perfect, percent)));
}

/** A report; `status`: whether to show where it stands (a file lists closed ones too). */
export function reportItem(report, { status = false } = {}) {
  const signal = report.reason === 'signal';
  const meta = el('span', { class: 'report-meta' }, ' · ', timeElement(report.created_at, true), ' · ');
  if (signal) meta.append('raised by the reviews');
  else if (report.reporter) meta.append('by ', fileLink(report.reporter, report.reporter_name || 'the reporter'));
  if (report.game) meta.append(' · ', gameLink(report.game));
  const head = el('p', { class: 'report-head' }, el('strong', {}, reasonName(report.reason)), meta);
  if (status) head.append(' ', el('span', { class: 'status-chip', 'data-status': report.status }, reportStatusName(report.status)));
  const item = el('li', { class: 'report', 'data-reason': report.reason, 'data-status': report.status }, head);
  if (signal && report.evidence && typeof report.evidence === 'object') item.append(evidenceBlock(report.evidence));
  else if (report.details) item.append(el('blockquote', { class: 'report-details' }, report.details));
  return item;
}
