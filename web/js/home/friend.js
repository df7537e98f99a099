// Play a friend: a link to send. Share… (the system's share sheet) is offered only where the
// browser has one; Copy link works everywhere and always says what happened: copied, or
// selected for the player to copy themselves.
import * as api from '../api.js';
import { $, busy } from './dom.js';
import { requireSession } from './nickname.js';
import { copyText, selectContents } from '../clipboard.js';
import { CONTROLS, controlTiles } from './control-tiles.js';

const COPIED_FOR_MS = 2500;
let polling = null;
let copiedTimer = null;

async function copyLink() {
  const node = $('room-link');
  const button = $('copy-link');
  const status = $('copy-status');
  clearTimeout(copiedTimer);
  if (await copyText(node.textContent, node)) {
    button.textContent = 'Copied ✓';
    status.textContent = 'Link copied: paste it in a message to your friend.';
    copiedTimer = setTimeout(() => { button.textContent = 'Copy link'; }, COPIED_FOR_MS);
  } else {
    selectContents(node);
    status.textContent = 'The link is selected: press Ctrl+C (⌘C on a Mac) to copy it.';
  }
}

async function waitForFriend(code) {
  try {
    const room = await api.room(code);
    if (room.game_id) {
      clearInterval(polling);
      $('room-status').textContent = `${room.guest || 'Your friend'} joined. Starting the game…`;
      location.assign(`/game/${room.game_id}`);
    }
  } catch (error) {
    if (error.status === 410 || error.status === 404) {
      clearInterval(polling);
      $('room-status').textContent = 'This link has expired. Create a new one.';
    }
  }
}

export function initFriend() {
  // 30 s a move is the rooms' default: asked for by naming no control.
  const tiles = CONTROLS.map((tile) => (tile.value === '30s' ? { ...tile, value: '' } : tile));
  const control = controlTiles('friend-control', 'friend-control', tiles, 'outflank.friendControl');
  $('create-link').addEventListener('click', (event) => busy(event.currentTarget, async () => {
    if (!(await requireSession())) return;
    const room = await api.newRoom(control(), $('friend-xot').checked);
    $('room').hidden = false;
    $('room-link').textContent = room.link;
    $('copy-status').textContent = '';
    $('copy-link').textContent = 'Copy link';
    $('room-status').textContent = 'Waiting for your friend to join…';
    const share = $('share-link');
    share.hidden = typeof navigator.share !== 'function';
    share.onclick = () => navigator.share({ title: 'Play Reversi with me', url: room.link }).catch(() => {});
    clearInterval(polling);
    polling = setInterval(() => waitForFriend(room.code), 1000);
  }));
  $('copy-link').addEventListener('click', copyLink);
}
