// A time control chosen with one tap: the controls offered as a group of tiles (radio buttons,
// so the arrow keys move between them), the choice remembered in this browser.
import { $ } from './dom.js';

/** Every control the server offers, as players write them, with the family each belongs to. */
export const CONTROLS = Object.freeze([
  Object.freeze({ value: '30s', main: '30 s', kind: 'a move' }),
  Object.freeze({ value: '1+0', main: '1+0', kind: 'Bullet' }),
  Object.freeze({ value: '1+1', main: '1+1', kind: 'Bullet' }),
  Object.freeze({ value: '3+0', main: '3+0', kind: 'Blitz' }),
  Object.freeze({ value: '3+2', main: '3+2', kind: 'Blitz' }),
  Object.freeze({ value: '5+3', main: '5+3', kind: 'Blitz' }),
  Object.freeze({ value: '10+5', main: '10+5', kind: 'Rapid' }),
  Object.freeze({ value: '15+10', main: '15+10', kind: 'Rapid' }),
  Object.freeze({ value: '30+0', main: '30+0', kind: 'Classical' }),
  Object.freeze({ value: '1d', main: '1 day', kind: 'a move' }),
  Object.freeze({ value: '2d', main: '2 days', kind: 'a move' }),
  Object.freeze({ value: '3d', main: '3 days', kind: 'a move' }),
  Object.freeze({ value: '7d', main: '7 days', kind: 'a move' }),
]);

/** The untimed choice of a game against the computer. */
export const NO_CLOCK = Object.freeze({ value: '', main: 'None', kind: 'no clock' });

function remembered(key, tiles) {
  try {
    const value = localStorage.getItem(key);
    return tiles.some((tile) => tile.value === value) ? value : null;
  } catch {
    return null;
  }
}

/** Fills the element `id` with one tile per control of `tiles`, `name` naming the group; the
 *  choice starts as the one remembered under `key` (else the first) and is remembered on each
 *  change. Returns a function giving the control chosen. */
export function controlTiles(id, name, tiles, key) {
  const group = $(id);
  const chosen = remembered(key, tiles) ?? tiles[0].value;
  group.replaceChildren(...tiles.map((tile) => {
    const label = document.createElement('label');
    label.className = 'control-tile';
    const input = document.createElement('input');
    input.type = 'radio';
    input.name = name;
    input.value = tile.value;
    input.checked = tile.value === chosen;
    const main = document.createElement('span');
    main.className = 'control-main';
    main.textContent = tile.main;
    const kind = document.createElement('span');
    kind.className = 'control-kind';
    kind.textContent = tile.kind;
    label.append(input, main, kind);
    return label;
  }));
  // A row that scrolls sideways shows the chosen tile, without moving the page.
  const checked = group.querySelector('input:checked');
  if (checked && group.scrollWidth > group.clientWidth) {
    group.scrollLeft = checked.parentElement.offsetLeft - group.offsetLeft;
  }
  group.addEventListener('change', (event) => {
    try { localStorage.setItem(key, event.target.value); } catch { /* private mode */ }
  });
  return () => (group.querySelector('input:checked') || { value: tiles[0].value }).value;
}
