// The quick game: the page's one big Play, under the time control chosen beside it. It says how
// long the server really waits for a person before giving the computer (`computer_after_ms`
// from /api/stats).
import * as api from '../api.js';
import { POOLS, Queue } from '../protocol.js';
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

const poolName = (key) => (POOLS.find((pool) => pool.key === key) || { name: key }).name;

/** The time controls a quick game may be played under, 30 s a move first. */
function fillPools() {
  const select = $('quick-pool');
  select.replaceChildren(...POOLS.map((pool) => new Option(pool.name, pool.key)));
  const show = () => { $('quick-control').textContent = poolName(select.value); };
  select.addEventListener('change', show);
  show();
}

export function initQuick() {
  fillPools();
  seekerCard({
    queue: Queue.QUICK,
    prefix: 'quick',
    label: 'Play',
    prepare: async () => Boolean(await requireSession()),
    pools: () => [$('quick-pool').value],
    poolName,
  });
  showWait();
}
