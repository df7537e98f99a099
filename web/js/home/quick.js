// The quick game: the page's one big Play. It says how long the server really waits for a
// person before giving the computer (`computer_after_ms` from /api/stats).
import * as api from '../api.js';
import { Queue } from '../protocol.js';
import { $ } from './dom.js';
import { requireSession } from './nickname.js';
import { seekerCard } from './search.js';

/** "15 seconds", "1.5 seconds", "2 minutes": a wait as people say it. */
export function spokenWait(ms) {
  const number = new Intl.NumberFormat('en', { maximumFractionDigits: 1 });
  if (ms >= 60000) {
    const minutes = ms / 60000;
    return `${number.format(minutes)} ${minutes === 1 ? 'minute' : 'minutes'}`;
  }
  const seconds = ms / 1000;
  return `${number.format(seconds)} ${seconds === 1 ? 'second' : 'seconds'}`;
}

async function showWait() {
  try {
    const { computer_after_ms: wait } = await api.stats();
    if (Number.isSafeInteger(wait) && wait >= 0) $('quick-wait').textContent = `within ${spokenWait(wait)}`;
  } catch {
    // "soon" stays: true, if vaguer.
  }
}

export function initQuick() {
  seekerCard({ queue: Queue.QUICK, prefix: 'quick', label: 'Play', prepare: async () => Boolean(await requireSession()) });
  showWait();
}
