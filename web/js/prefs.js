// Preferences remembered in the browser.

const HINTS_KEY = 'outflank.showLegalMoves';

export function showLegalMoves() {
  try { return localStorage.getItem(HINTS_KEY) !== 'false'; } catch { return true; }
}

export function setShowLegalMoves(on) {
  try { localStorage.setItem(HINTS_KEY, on ? 'true' : 'false'); } catch { /* private mode */ }
}
