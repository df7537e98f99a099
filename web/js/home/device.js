// Two players on this device: one page moves for both sides.
import * as api from '../api.js';
import { $, busy } from './dom.js';
import { requireSession } from './nickname.js';

export function initDevice() {
  $('play-device').addEventListener('click', (event) => busy(event.currentTarget, async () => {
    if (!(await requireSession())) return;
    const game = await api.newSameDeviceGame();
    location.assign(game.url);
  }));
}
