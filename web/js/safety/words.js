// The words of trust and safety, shared by the report dialog, the profile and the moderator's
// desk: what a report is about and where it stands.

/** The reasons a person may give, in the order the report dialog lists them. */
export const REPORT_REASONS = Object.freeze([
  Object.freeze({ key: 'engine', name: 'Engine assistance', about: 'They let a program choose their moves.' }),
  Object.freeze({ key: 'name', name: 'Offensive name', about: 'Their name is abusive, or passes them off as someone else.' }),
  Object.freeze({ key: 'rating', name: 'Rating manipulation', about: 'Losing on purpose, or arranging results with someone.' }),
  Object.freeze({ key: 'other', name: 'Something else', about: 'Say what happened in the details.' }),
]);

const REASON_NAMES = Object.freeze({
  ...Object.fromEntries(REPORT_REASONS.map((reason) => [reason.key, reason.name])),
  signal: 'Review signal',
});

/** "Engine assistance"; the reviews' own flag is the "Review signal". */
export const reasonName = (key) => REASON_NAMES[key] || String(key);

/** Where a report stands, as its reporter reads it (and, for `open` and `dismissed`, a
 *  moderator). */
const STATUS_NAMES = Object.freeze({
  received: 'Received', acted_on: 'Acted on', closed: 'Closed', open: 'Open', dismissed: 'Dismissed',
});

export const reportStatusName = (status) => STATUS_NAMES[status] || String(status);

/** What each sanction does, named as a moderator picks it. */
export const SANCTION_NAMES = Object.freeze({
  engine: 'Engine assistance', name: 'Name reset', closed: 'Account closed',
});

export const sanctionName = (kind) => SANCTION_NAMES[kind] || String(kind);

const day = new Intl.DateTimeFormat('en', { dateStyle: 'long' });
const moment = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeStyle: 'short' });

/** A `<time>` of `ms`: "7 December 2026" (`withTime`: "7 Dec 2026, 14:05"). */
export function timeElement(ms, withTime = false) {
  const node = document.createElement('time');
  const date = new Date(ms);
  node.dateTime = date.toISOString();
  node.textContent = (withTime ? moment : day).format(date);
  return node;
}

/** "7 December 2026". */
export const dayText = (ms) => day.format(new Date(ms));
