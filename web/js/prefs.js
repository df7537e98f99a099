// Preferences remembered in the browser.

const HINTS_KEY = 'outflank.showLegalMoves';

export function showLegalMoves() {
  try { return localStorage.getItem(HINTS_KEY) !== 'false'; } catch { return true; }
}

export function setShowLegalMoves(on) {
  try { localStorage.setItem(HINTS_KEY, on ? 'true' : 'false'); } catch { /* private mode */ }
}

const RANKED_POOLS_KEY = 'outflank.rankedPools';

/** The pools last ticked for a ranked game, as keys (`null`: never chosen here). */
export function rankedPools() {
  try {
    const stored = JSON.parse(localStorage.getItem(RANKED_POOLS_KEY));
    return Array.isArray(stored) ? stored.filter((key) => typeof key === 'string') : null;
  } catch {
    return null;
  }
}

export function setRankedPools(keys) {
  try { localStorage.setItem(RANKED_POOLS_KEY, JSON.stringify(keys)); } catch { /* private mode */ }
}
