// Accounts on the client: who is signed in (asked once per page and shared by every module),
// how ratings and their changes are written, and the sign-in and profile addresses.
import * as api from './api.js';

const number = new Intl.NumberFormat('en');

/** "1,214", with "?" while provisional: "1,214?". */
export function formatRating(rating, provisional) {
  return `${number.format(rating)}${provisional ? '?' : ''}`;
}

/** A rating change as people write it: "+20", "−20" (a real minus sign), "±0". */
export function formatChange(change) {
  if (change > 0) return `+${number.format(change)}`;
  if (change < 0) return `\u2212${number.format(-change)}`;
  return '±0';
}

/** A rating change for screen readers: "up 20", "down 20", "unchanged". */
export function spokenChange(change) {
  if (change > 0) return `up ${number.format(change)}`;
  if (change < 0) return `down ${number.format(-change)}`;
  return 'unchanged';
}

/** `path` when it is a path on this site ("/…" but not "//…" or "/\…"), else "/". */
export function safeReturnTo(path) {
  if (typeof path !== 'string' || !path.startsWith('/')) return '/';
  if (path.startsWith('//') || path.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f\u007f]/.test(path)) return '/';
  return path;
}

/** This page's path and query, to come back to after signing in. */
export const herePath = () => `${location.pathname}${location.search}`;

/** Where "Sign in with Google" goes: back to `returnTo` afterwards. */
export const signInUrl = (returnTo = herePath()) =>
  `/auth/google?return_to=${encodeURIComponent(safeReturnTo(returnTo))}`;

/** Where a signed-in account without a public name chooses one. */
export const welcomeUrl = (returnTo = herePath()) =>
  `/welcome?return_to=${encodeURIComponent(safeReturnTo(returnTo))}`;

export const profileUrl = (name) => `/players/${encodeURIComponent(name)}`;

/**
 * What this page knows about the visitor, asked once: `google` (sign-in is configured),
 * `me` (the active session from /api/me, or null without one) and, for convenience, `account`
 * (`me.account` or null) and `named` (a signed-in account with a public name).
 */
let asked = null;
export function whoAmI({ fresh = false } = {}) {
  if (!asked || fresh) {
    asked = Promise.all([
      api.auth().then((answer) => Boolean(answer && answer.google), () => false),
      api.me().then((answer) => (answer && answer.session === 'active' ? answer : null), () => null),
    ]).then(([google, me]) => {
      const account = (me && me.account) || null;
      return { google, me, account, named: Boolean(account && account.name) };
    });
  }
  return asked;
}
