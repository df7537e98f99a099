// The quick game: the page's one big Play, under the time control chosen beside it. It says how
// long the server really waits for a person before giving the computer (`computer_after_ms`
// from /api/stats).
import * as api from '../api.js';
import { POOLS, Queue } from '../protocol.js';
import { $ } from './dom.js';
import { requireSession } from './nickname.js';
import { seekerCard } from './search.js';
import { controlTiles } from './control-tiles.js';

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

/** The pools' controls as tiles: the clock above, the family below. */
const TILES = Object.freeze({
  '30s': ['30 s', 'a move'], blitz: ['3+2', 'Blitz'], rapid: ['10+5', 'Rapid'], daily: ['2d', 'Daily'],
  xot: ['5+3', 'XOT'],
});

/** The time controls a quick game may be played under, 30 s a move first; returns the one
 *  chosen. */
function fillPools() {
  const tiles = POOLS.map(({ key }) => ({ value: key, main: (TILES[key] || [key])[0], kind: (TILES[key] || [])[1] || '' }));
  const chosen = controlTiles('quick-pool', 'quick-pool', tiles, 'outflank.quickPool');
  const show = () => { $('quick-control').textContent = poolName(chosen()); };
  $('quick-pool').addEventListener('change', show);
  show();
  return chosen;
}

export function initQuick() {
  const pool = fillPools();
  seekerCard({
    queue: Queue.QUICK,
    prefix: 'quick',
    label: 'Play',
    prepare: async () => Boolean(await requireSession()),
    pools: () => [pool()],
    poolName,
  });
  showWait();
}
