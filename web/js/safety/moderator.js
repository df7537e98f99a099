// Whether the signed-in account moderates, for the header's link to the moderator's desk, as
// /api/mod/me answers it: kept for the tab, per account, so one question per tab, not one per
// page. The desk itself always asks afresh and keeps what it was told.
import * as api from '../api.js';

const key = (playerId) => `outflank.moderator.${playerId}`;

/** What this tab was told about `playerId`: true, false, or null when it never asked. */
export function knownModerator(playerId) {
  try {
    const kept = sessionStorage.getItem(key(playerId));
    return kept === null ? null : kept === 'true';
  } catch {
    return null;
  }
}

export function rememberModerator(playerId, moderator) {
  try { sessionStorage.setItem(key(playerId), String(moderator)); } catch { /* private mode */ }
}

/** Whether `playerId` (the signed-in account) moderates: as kept, else asked. */
export async function isModerator(playerId, { fresh = false } = {}) {
  const known = fresh ? null : knownModerator(playerId);
  if (known !== null) return known;
  try {
    const { moderator } = await api.modMe();
    rememberModerator(playerId, moderator === true);
    return moderator === true;
  } catch (error) {
    // Only a clear answer is kept: a network failure asks again on the next page.
    if (error.status === 401) rememberModerator(playerId, false);
    return false;
  }
}
