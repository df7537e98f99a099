// Notifications and challenges on every page of a signed-in player with a public name: the
// bell for the site header, the challenge toasts, the toasts of news (a followed player's game,
// a daily game's turn), and the socket they all listen to.
import { notificationBell } from './bell.js';
import { startFeed } from './feed.js';
import { startNews } from './news.js';
import { startTray } from './tray.js';

/** The header's bell for the player called `name`; the first call starts the socket and the
 *  toasts. */
export function notifications(name) {
  const bell = notificationBell();
  startTray();
  startNews();
  startFeed(name);
  return bell;
}
