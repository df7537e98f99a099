// Notifications and challenges on every page of a signed-in player with a public name: the
// bell for the site header, the challenge toasts, and the socket they both listen to.
import { notificationBell } from './bell.js';
import { startFeed } from './feed.js';
import { startTray } from './tray.js';

/** The header's bell for the player called `name`; the first call starts the socket and the
 *  toasts. */
export function notifications(name) {
  const bell = notificationBell();
  startTray();
  startFeed(name);
  return bell;
}
