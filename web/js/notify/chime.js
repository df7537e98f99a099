// The short chime of a challenge arriving: two soft rising tones, synthesised like the game's
// sounds. A challenge is worth hearing, so it sounds unless the player turned the site's
// sounds off (the game page's choice, remembered in this browser).
import { soundTurnedOff, tone } from '../game/sound.js';

/** Plays the challenge chime, unless sounds are off. */
export function chime() {
  if (soundTurnedOff()) return;
  try {
    tone(660, 140, 0.07);
    tone(880, 220, 0.06, 120);
  } catch { /* no sound here: the toast says it all */ }
}
