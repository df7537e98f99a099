// "Notifications on this device", in the bell's panel: a checkbox for each kind of notification
// this browser may show while no Outflank page is open (Web Push). Checking the first one asks
// for the browser's permission (on that click only), registers the service worker (/sw.js),
// subscribes with the server's key and hands the subscription to the server with the kinds
// checked; changing the kinds hands it again; unchecking them all forgets it on both sides.
// The boxes show what the server has for this browser's subscription. Only where the browser
// can do all this is the part shown.
import * as api from '../api.js';
import { el } from '../element.js';
import { sentence } from '../text.js';

/** The choices offered, each with the kinds of notification it stands for. */
const CHOICES = [
  { id: 'received', words: 'Challenges to you', kinds: ['challenge_received'] },
  { id: 'answered', words: 'Your challenges answered', kinds: ['challenge_accepted', 'challenge_declined'] },
  { id: 'turn', words: 'Your turn in daily games', kinds: ['daily_turn'] },
  { id: 'reminder', words: 'Daily games running out of time', kinds: ['daily_reminder'] },
  { id: 'followed', words: 'Games of players you follow', kinds: ['followed_started'] },
  { id: 'reports', words: 'Reports you made, acted on', kinds: ['report_acted_on'] },
];

const DENIED = 'This browser blocks notifications from this site. To turn them on, allow notifications for this site in the browser’s settings, then check them here.';

let section = null;
let boxes = []; // [{choice, input, label}]
let note = null;
let statusLine = null;
let settings = null; // GET /api/push's answer
let subscription = null; // this browser's PushSubscription, or null
let queue = Promise.resolve();

/** Whether this browser can show pushed notifications at all. */
export function pushSupported() {
  return typeof navigator !== 'undefined' && 'serviceWorker' in navigator
    && typeof window !== 'undefined' && 'PushManager' in window && 'Notification' in window;
}

/** The bytes of a base64url string. */
export function base64urlBytes(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/') + '='.repeat((4 - (text.length % 4)) % 4);
  return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

/** Whether `subscription` was made with the key `publicKey` (base64url); one that does not say
 *  is taken to be. */
function madeWith(pushSubscription, publicKey) {
  const key = pushSubscription.options && pushSubscription.options.applicationServerKey;
  if (!key) return true;
  const have = ArrayBuffer.isView(key) ? new Uint8Array(key.buffer, key.byteOffset, key.byteLength) : new Uint8Array(key);
  const want = base64urlBytes(publicKey);
  return have.length === want.length && have.every((byte, i) => byte === want[i]);
}

/** The kinds the server has for the subscription at `endpoint`. */
function serverKinds(endpoint) {
  const found = settings && endpoint && settings.subscriptions.find((item) => item.endpoint === endpoint);
  return found ? found.kinds : [];
}

function say(text) {
  statusLine.textContent = text;
}

/** The boxes as the server has this browser's subscription, and the note on a denial. */
function draw() {
  const kinds = serverKinds(subscription && subscription.endpoint);
  const offered = settings ? settings.kinds : [];
  for (const { choice, input, label } of boxes) {
    label.hidden = settings !== null && !choice.kinds.some((kind) => offered.includes(kind));
    input.checked = choice.kinds.some((kind) => kinds.includes(kind));
  }
  note.hidden = Notification.permission !== 'denied';
  section.dataset.state = subscription && kinds.length ? 'on' : 'off';
}

/** The kinds checked, of those the server offers. */
function checkedKinds() {
  const offered = settings ? settings.kinds : [];
  return boxes.filter(({ input }) => input.checked)
    .flatMap(({ choice }) => choice.kinds).filter((kind) => offered.includes(kind));
}

/** Forgets `pushSubscription` on the server (if it has it) and in the browser. */
async function drop(pushSubscription) {
  try {
    await api.deletePushSubscription(pushSubscription.endpoint);
  } catch (error) {
    if (error.status !== 404) throw error;
  }
  if (settings) settings.subscriptions = settings.subscriptions.filter((item) => item.endpoint !== pushSubscription.endpoint);
  await pushSubscription.unsubscribe();
}

/** This browser's subscription, with the server's key: the one it has, or a new one. */
async function subscribed() {
  const registration = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  const ready = await navigator.serviceWorker.ready;
  const manager = (ready || registration).pushManager;
  let current = await manager.getSubscription();
  if (current && !madeWith(current, settings.public_key)) {
    await drop(current);
    current = null;
  }
  return current || manager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(settings.public_key) });
}

/** Hands `pushSubscription` to the server with `kinds`; keeps what the server answers. */
async function save(pushSubscription, kinds) {
  const kept = await api.savePushSubscription(pushSubscription.toJSON(), kinds);
  settings.subscriptions = [...settings.subscriptions.filter((item) => item.endpoint !== kept.endpoint), kept];
  subscription = pushSubscription;
}

/** Makes the server and the browser match the boxes; `asking`: the permission asked for on
 *  this change, if it was. */
async function apply(asking) {
  if (!settings) return;
  const kinds = checkedKinds();
  try {
    if (kinds.length === 0) {
      if (subscription) await drop(subscription);
      subscription = null;
      say('Notifications on this device are off.');
      return;
    }
    const permission = asking ? await asking : Notification.permission;
    if (permission !== 'granted') {
      say(permission === 'denied' ? DENIED : 'Notifications were not allowed, so none are shown on this device.');
      return;
    }
    const pushSubscription = await subscribed();
    await save(pushSubscription, kinds);
    say('Saved. This device shows the notifications checked, even with no Outflank page open.');
  } catch (error) {
    say(`Not saved: ${sentence(error.message || String(error))}`);
  } finally {
    draw();
  }
}

function changed() {
  // The browser asks for permission only on the click itself, before anything is awaited.
  const asking = checkedKinds().length > 0 && Notification.permission === 'default'
    ? Promise.resolve(Notification.requestPermission()) : null;
  queue = queue.then(() => apply(asking));
}

/** Reads what the server and this browser have; a subscription made with another key than
 *  the server's is made again, with the kinds it had. */
export async function refreshPush() {
  if (!section) return;
  say('');
  try {
    settings = await api.pushSettings();
    const registration = await navigator.serviceWorker.getRegistration('/');
    subscription = registration ? await registration.pushManager.getSubscription() : null;
    if (subscription && !madeWith(subscription, settings.public_key)) {
      const kinds = serverKinds(subscription.endpoint);
      await drop(subscription);
      subscription = null;
      if (kinds.length && Notification.permission === 'granted') await save(await subscribed(), kinds);
    }
  } catch (error) {
    say(`The settings of this device could not be loaded: ${sentence(error.message || String(error))}`);
  }
  draw();
}

/** The part, made once; null where the browser cannot show pushed notifications. */
export function pushSection() {
  if (!pushSupported()) return null;
  if (section) return section;
  boxes = CHOICES.map((choice) => {
    const input = el('input', { type: 'checkbox', id: `push-${choice.id}`, name: 'push-kind', value: choice.kinds.join(' ') });
    const label = el('label', { for: `push-${choice.id}` }, input, choice.words);
    input.addEventListener('change', changed);
    return { choice, input, label };
  });
  note = el('p', { class: 'notify-push-note', id: 'push-denied', hidden: true }, DENIED);
  statusLine = el('p', { class: 'notify-status', id: 'push-status', role: 'status' });
  section = el('div', { class: 'notify-push', id: 'notify-push', role: 'group', 'aria-labelledby': 'notify-push-heading' },
    el('h3', { id: 'notify-push-heading' }, 'Notifications on this device'),
    el('p', { class: 'muted notify-push-hint' }, 'Shown by this browser even when no Outflank page is open.'),
    note,
    el('div', { class: 'notify-push-kinds' }, boxes.map(({ label }) => label)),
    statusLine);
  return section;
}
