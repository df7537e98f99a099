// Words shared by the pages.

/** The server's sentence for people, capitalised and ending in a full stop. */
export function sentence(text) {
  const trimmed = String(text || '').trim();
  if (!trimmed) return '';
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export const pluralDiscs = (n) => `${n} disc${n === 1 ? '' : 's'}`;

/** A time control as players read it, from the server's compact form: `30s` → "30 s a move",
 *  `3+2` → "3+2", `1d` → "1 day a move", `2d` → "2 days a move"; anything else as it is. */
export function controlName(control) {
  const text = String(control || '');
  const perMove = /^(\d+)s$/.exec(text);
  if (perMove) return `${perMove[1]} s a move`;
  const daily = /^(\d+)d$/.exec(text);
  if (daily) return `${daily[1]} day${daily[1] === '1' ? '' : 's'} a move`;
  return text;
}

const DEADLINE = new Intl.DateTimeFormat(undefined, {
  weekday: 'short', day: 'numeric', month: 'short', hour: '2-digit', minute: '2-digit',
});

/** A deadline as a local date and time: "Tue 8 Dec, 14:05" (in the browser's language). */
export const formatDeadline = (at) => DEADLINE.format(at);

const AGO = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });

/** How long before `now` the time `ms` was: "just now", "3 minutes ago", "yesterday". */
export function timeAgo(ms, now = Date.now()) {
  const seconds = Math.round((ms - now) / 1000);
  if (Math.abs(seconds) < 60) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (Math.abs(minutes) < 60) return AGO.format(minutes, 'minute');
  const hours = Math.round(minutes / 60);
  if (Math.abs(hours) < 24) return AGO.format(hours, 'hour');
  return AGO.format(Math.round(hours / 24), 'day');
}
