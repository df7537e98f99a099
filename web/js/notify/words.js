// The words of challenges and notifications: a challenge's terms as either player reads them,
// what each notification says (and what its link says), how long ago something happened and
// how long is left.
import { controlName, timeAgo as timeAgoFrom } from '../text.js';
import { serverNow } from './clock.js';

/** The control a challenge without one is played at (the server's default). */
export const DEFAULT_CONTROL = '30s';

const COLOUR_NAME = Object.freeze({ black: 'Black', white: 'White' });
const OTHER = Object.freeze({ black: 'white', white: 'black' });

/** Whether `challenge` is still waiting for its answer at `now` (ms, the server's time). */
export const isOpen = (challenge, now = serverNow()) =>
  Boolean(challenge) && challenge.status === 'open' && challenge.expires_at > now;

/** Whether `challenge` is to a daily game (days a move): it waits a week, not a minute. */
export const isDaily = (challenge) => /^\d+d$/.test(String(challenge.control || ''));

/** The colour the player called `viewer` plays in `challenge`: 'black', 'white' or 'random'. */
export function colourOf(challenge, viewer) {
  const asked = challenge.colour;
  if (asked !== 'black' && asked !== 'white') return 'random';
  return challenge.from === viewer ? asked : OTHER[asked];
}

/** "3+2, rated, you play White, XOT": the terms of `challenge` as `viewer` (a public name)
 *  reads them. */
export function terms(challenge, viewer) {
  const colour = colourOf(challenge, viewer);
  return [
    controlName(challenge.control || DEFAULT_CONTROL),
    challenge.rated ? 'rated' : 'not rated',
    colour === 'random' ? 'you play a random colour' : `you play ${COLOUR_NAME[colour]}`,
    challenge.xot ? 'XOT' : null,
  ].filter(Boolean).join(', ');
}

/** Someone's public name as sent, or a stand-in when the account is gone. */
export const nameOf = (name) => String(name || 'A deleted player');

/** "just now", "3 minutes ago", "yesterday", by the server's clock. */
export const timeAgo = (ms, now = serverNow()) => timeAgoFrom(ms, now);

/** "45 s left", "12 min left", "5 h left", "6 days left"; '' once past. */
export function timeLeft(expiresAt, now = serverNow()) {
  const seconds = Math.ceil((expiresAt - now) / 1000);
  if (seconds <= 0) return '';
  if (seconds < 120) return `${seconds} s left`;
  const minutes = Math.floor(seconds / 60);
  if (minutes < 120) return `${minutes} min left`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h left`;
  const days = Math.floor(hours / 24);
  return `${days} days left`;
}

const count = (n, one, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** "Your 3 guest games and 2 puzzles are now on your account." */
function guestHistoryText(data) {
  const games = Number.isSafeInteger(data.games) && data.games > 0 ? count(data.games, 'guest game') : null;
  const puzzles = Number.isSafeInteger(data.puzzles) && data.puzzles > 0 ? count(data.puzzles, 'puzzle') : null;
  const what = [games, puzzles].filter(Boolean).join(' and ');
  return what ? `Your ${what} ${what === '1 guest game' || what === '1 puzzle' ? 'is' : 'are'} now on your account.`
    : 'What you played as a guest is now on your account.';
}

/** "bob started a ranked game against cid (3+2)." */
function startedText(data) {
  const game = data.mode === 'ranked' ? 'a ranked game' : 'a game';
  const control = data.control ? ` (${controlName(data.control)})` : '';
  return `${nameOf(data.player)} started ${game} against ${nameOf(data.opponent)}${control}.`;
}

/** The words of a notification's link, by kind (the link itself is the bell's and the toasts'). */
export const LINK_WORDS = Object.freeze({
  challenge_accepted: 'Open the game',
  followed_started: 'Watch',
  daily_turn: 'Play your move',
  daily_reminder: 'Play your move',
  guest_history_kept: 'Your profile',
  report_acted_on: 'Your reports',
});

/** The word before a daily game's reminder, in the bell and its toast. */
export const URGENT_WORD = 'Hurry';

/** The kinds of notification about a daily game's clock: they say how long is left. */
export const isDailyTurn = (notification) => notification.kind === 'daily_turn' || notification.kind === 'daily_reminder';

/** How long is left of a daily game's time to move ("31 h left"), '' once past or unknown. */
export function moveTimeLeft(notification) {
  const deadline = notification.data && notification.data.deadline;
  return isDailyTurn(notification) && Number.isFinite(deadline) ? timeLeft(deadline) : '';
}

/** What a notification says, in one sentence, to the player called `viewer`. */
export function notificationText(notification, viewer) {
  const data = notification.data || {};
  switch (notification.kind) {
    case 'challenge_received':
      return `${nameOf(data.from)} challenged you: ${terms(data, viewer)}.`;
    case 'challenge_accepted':
      return `${nameOf(data.to)} accepted your challenge: ${terms(data, viewer)}.`;
    case 'challenge_declined':
      return `${nameOf(data.to)} declined your challenge: ${terms(data, viewer)}.`;
    case 'report_acted_on':
      return `A moderator acted on your report about ${nameOf(data.target)}.`;
    case 'followed_started':
      return startedText(data);
    case 'daily_turn':
      return `Your move against ${nameOf(data.opponent)}.`;
    case 'daily_reminder':
      return `Less than a tenth of your time is left against ${nameOf(data.opponent)}.`;
    case 'guest_history_kept':
      return guestHistoryText(data);
    default:
      return 'Something happened on your account.';
  }
}
