// The computer's levels in a <select>: each option named with its measured rating, and the
// level rated nearest the player chosen unless the player already picked one.
import * as api from './api.js';

const LEVELS = 10;
const DEFAULT_LEVEL = 3;

/** Offers levels 1 to 10 in `select` at once; the names and the suggestion follow. */
function offerLevels(select) {
  for (let level = 1; level <= LEVELS; level += 1) {
    const option = document.createElement('option');
    option.value = String(level);
    option.textContent = `Level ${level}`;
    select.append(option);
  }
  select.value = String(DEFAULT_LEVEL);
}

/** Fills `select` from the server's level list; says which level was suggested, if any. */
export async function fillLevels(select, hint) {
  offerLevels(select);
  let info;
  try {
    info = await api.computerLevels();
  } catch {
    return; // The plain numbers stay; the server checks the level anyway.
  }
  for (const level of info.levels) {
    const option = select.querySelector(`option[value="${level.level}"]`);
    if (option) option.textContent = `Level ${level.level} (≈${level.elo.toLocaleString('en-US')})`;
  }
  if (!select.dataset.touched) select.value = String(info.suggested);
  if (hint) {
    const whose = info.own_rating ? 'your rating' : 'the beginners’ rating a guest starts at';
    hint.textContent = `Level ${info.suggested} is rated nearest ${info.rating.toLocaleString('en-US')}, `
      + `${whose}. Level 1 is for beginners; level 10 is the strongest.`;
  }
}

/** Remembers that the player chose a level, so a late suggestion does not override it. */
export function watchChoice(select) {
  select.addEventListener('change', () => { select.dataset.touched = 'yes'; });
}
