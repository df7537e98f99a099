// Play the computer: a level (named with its rating, the one nearest the player's suggested),
// a colour, a clock (none unless chosen) and whether to start from an XOT opening.
import * as api from '../api.js';
import { fillLevels, watchChoice } from '../levels.js';
import { $, busy } from './dom.js';
import { requireSession } from './nickname.js';
import { CONTROLS, NO_CLOCK, controlTiles } from './control-tiles.js';

const checked = (name) => document.querySelector(`input[name="${name}"]:checked`).value;

export function initComputer() {
  watchChoice($('level'));
  fillLevels($('level'), $('level-hint'));
  const control = controlTiles('computer-control', 'computer-control', [NO_CLOCK, ...CONTROLS], 'outflank.computerControl');
  $('play-computer').addEventListener('click', (event) => busy(event.currentTarget, async () => {
    if (!(await requireSession())) return;
    const game = await api.newComputerGame(Number($('level').value), checked('color'), {
      xot: $('computer-xot').checked, control: control(),
    });
    location.assign(game.url);
  }));
}
