// Play the computer: a level (named with its rating, the one nearest the player's suggested),
// a colour, and whether to start from an XOT opening.
import * as api from '../api.js';
import { fillLevels, watchChoice } from '../levels.js';
import { $, busy } from './dom.js';
import { requireSession } from './nickname.js';

const checked = (name) => document.querySelector(`input[name="${name}"]:checked`).value;

export function initComputer() {
  watchChoice($('level'));
  fillLevels($('level'), $('level-hint'));
  $('play-computer').addEventListener('click', (event) => busy(event.currentTarget, async () => {
    if (!(await requireSession())) return;
    const game = await api.newComputerGame(Number($('level').value), checked('color'), $('computer-xot').checked);
    location.assign(game.url);
  }));
}
