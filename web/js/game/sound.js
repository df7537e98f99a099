// Subtle sounds for a move, a capture of many discs and low time: synthesised with the Web
// Audio API (no files to load), off by default, the choice remembered in this browser.

const KEY = 'outflank.sound';

export function soundOn() {
  try { return localStorage.getItem(KEY) === 'on'; } catch { return false; }
}

/** Whether the player turned sounds off here (not merely never turned them on). */
export function soundTurnedOff() {
  try { return localStorage.getItem(KEY) === 'off'; } catch { return false; }
}

export function setSoundOn(on) {
  try { localStorage.setItem(KEY, on ? 'on' : 'off'); } catch { /* private mode */ }
}

let context = null;

function audio() {
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) return null;
  if (!context) context = new Context();
  if (context.state === 'suspended') context.resume().catch(() => {});
  return context;
}

/** One soft tone: `frequency` Hz for `ms`, at `gain`, `delay` ms from now. */
export function tone(frequency, ms, gain, delay = 0, type = 'sine') {
  const ctx = audio();
  if (!ctx) return;
  const start = ctx.currentTime + delay / 1000;
  const oscillator = ctx.createOscillator();
  const volume = ctx.createGain();
  oscillator.type = type;
  oscillator.frequency.setValueAtTime(frequency, start);
  volume.gain.setValueAtTime(0.0001, start);
  volume.gain.exponentialRampToValueAtTime(gain, start + 0.008);
  volume.gain.exponentialRampToValueAtTime(0.0001, start + ms / 1000);
  oscillator.connect(volume).connect(ctx.destination);
  oscillator.start(start);
  oscillator.stop(start + ms / 1000 + 0.02);
}

export const Sound = Object.freeze({ MOVE: 'move', CAPTURE: 'capture', LOW_TIME: 'low_time' });

/** Plays `sound` when sounds are on. A capture is a move that flips five discs or more. */
export function play(sound) {
  if (!soundOn()) return;
  switch (sound) {
    case Sound.MOVE: tone(520, 70, 0.08, 0, 'triangle'); break;
    case Sound.CAPTURE: tone(520, 70, 0.08, 0, 'triangle'); tone(690, 90, 0.06, 60, 'triangle'); break;
    case Sound.LOW_TIME: tone(880, 120, 0.05); break;
    default: break;
  }
}
