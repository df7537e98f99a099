// The home page: a nickname, then the ways to play.
import * as api from './api.js';

const $ = (id) => document.getElementById(id);
const nickname = $('nickname');
const errorLine = $('home-error');
let polling = null;

nickname.value = api.savedNickname();

function showError(message) {
  errorLine.textContent = message;
}

/** The session for the nickname typed, or null after telling the user what is missing. */
async function session() {
  showError('');
  const name = nickname.value.trim();
  if (!name) {
    showError('Choose a nickname first.');
    nickname.focus();
    return null;
  }
  try {
    return await api.ensureSession(name);
  } catch (error) {
    showError(error.message);
    nickname.focus();
    return null;
  }
}

async function busy(button, action) {
  button.disabled = true;
  try {
    await action();
  } catch (error) {
    showError(error.message);
  } finally {
    button.disabled = false;
  }
}

const checked = (name) => document.querySelector(`input[name="${name}"]:checked`).value;

$('play-computer').addEventListener('click', (event) => busy(event.currentTarget, async () => {
  if (!(await session())) return;
  const game = await api.newComputerGame(checked('level'), checked('color'));
  location.assign(game.url);
}));

$('play-device').addEventListener('click', (event) => busy(event.currentTarget, async () => {
  if (!(await session())) return;
  const game = await api.newSameDeviceGame();
  location.assign(game.url);
}));

$('create-link').addEventListener('click', (event) => busy(event.currentTarget, async () => {
  if (!(await session())) return;
  const room = await api.newRoom();
  $('room').hidden = false;
  $('room-link').textContent = room.link;
  $('room-status').textContent = 'Waiting for your friend to join…';
  const share = $('share-link');
  if (navigator.share) {
    share.hidden = false;
    share.onclick = () => navigator.share({ title: 'Play Reversi with me', url: room.link }).catch(() => {});
  }
  clearInterval(polling);
  polling = setInterval(() => waitForFriend(room.code), 1000);
}));

$('copy-link').addEventListener('click', async () => {
  const link = $('room-link').textContent;
  try {
    await navigator.clipboard.writeText(link);
    $('room-status').textContent = 'Link copied. Waiting for your friend to join…';
  } catch {
    const range = document.createRange();
    range.selectNodeContents($('room-link'));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    $('room-status').textContent = 'Select the link and copy it. Waiting for your friend to join…';
  }
});

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
