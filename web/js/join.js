// The friend-link landing page /join/{code}: pick a nickname if needed, press Join.
import * as api from './api.js';
import { whoAmI } from './account.js';
import { controlName } from './text.js';
import './header.js';

const $ = (id) => document.getElementById(id);
const code = decodeURIComponent(location.pathname.split('/')[2] || '');
const status = $('join-status');
const errorLine = $('join-error');
const nickname = $('nickname');
nickname.value = api.savedNickname();

function expired(error) {
  $('join-card').hidden = true;
  status.textContent = error.status === 410
    ? 'This link has expired. Ask your friend for a new one.'
    : 'This link does not exist. Check that you copied all of it, or ask your friend for a new one.';
}

async function load() {
  try {
    const room = await api.room(code);
    $('join-card').hidden = false;
    // The room's terms, when it has other than the default clock and start.
    const terms = [room.control && controlName(room.control), room.xot && 'from an XOT opening'].filter(Boolean);
    $('join-invite').textContent = `${room.host} invites you to a game of Reversi${terms.length ? `: ${terms.join(', ')}` : ''}.`;
    status.textContent = room.guest ? `${room.guest} has joined this link already.` : '';
    if (room.game_id && room.guest) status.textContent += ' If that was you, press Join to return to the game.';
  } catch (error) {
    if (error.status === 404 || error.status === 410) expired(error);
    else status.textContent = error.message;
  }
}

// Signed in: the account's name is used, so there is no nickname to choose.
let signedIn = false;
whoAmI().then(({ me, account }) => {
  if (!account) return;
  signedIn = true;
  $('nickname-label').hidden = true;
  nickname.hidden = true;
  const joinAs = $('join-as');
  joinAs.textContent = `You join as ${account.name || (me && me.nickname) || 'your account'}.`;
  joinAs.hidden = false;
});

$('join').addEventListener('click', async (event) => {
  const button = event.currentTarget;
  errorLine.textContent = '';
  const name = nickname.value.trim();
  if (!signedIn && !name) {
    errorLine.textContent = 'Choose a nickname first.';
    nickname.focus();
    return;
  }
  button.disabled = true;
  try {
    if (!signedIn) await api.ensureSession(name);
    const room = await api.joinRoom(code);
    status.textContent = 'Joined. Starting the game…';
    location.assign(`/game/${room.game_id}`);
  } catch (error) {
    if (error.status === 404 || error.status === 410) expired(error);
    else errorLine.textContent = error.message;
    button.disabled = false;
  }
});

load();
