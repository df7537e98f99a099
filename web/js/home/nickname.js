// The nickname, asked inline next to Play: every way to play but Ranked needs it (a signed-in
// player plays under their account's name instead). A missing or refused nickname is said next
// to the field, and the field gets the focus.
import * as api from '../api.js';
import { whoAmI } from '../account.js';
import { $, sentence } from './dom.js';

const input = $('nickname');
const error = $('nickname-error');

/** Says what is wrong with the nickname, next to it, and puts the focus there. */
function refuse(message) {
  error.textContent = message;
  input.setAttribute('aria-invalid', 'true');
  input.focus();
}

function clear() {
  error.textContent = '';
  input.removeAttribute('aria-invalid');
}

/** The session to play with: the account's when signed in, else the nickname's (started or
 *  renamed now). Null after telling the user, next to the field, what is missing. Other
 *  failures (the server cannot be reached) are thrown for the caller to show. */
export async function requireSession() {
  clear();
  const who = await whoAmI();
  if (who.account) return who.me;
  const name = input.value.trim();
  if (!name) {
    refuse('Choose a nickname first.');
    return null;
  }
  try {
    return await api.ensureSession(name);
  } catch (failure) {
    if (failure.status === 422 || failure.status === 409) {
      refuse(sentence(failure.message));
      return null;
    }
    throw failure;
  }
}

/** Signed in, the field gives way to a line saying which name opponents see. */
export function renderNickname({ me, account }) {
  $('nickname-guest').hidden = Boolean(account);
  const line = $('nickname-account');
  line.hidden = !account;
  if (!account) return;
  const name = document.createElement('strong');
  if (account.name) {
    name.textContent = account.name;
    line.replaceChildren('You are signed in: opponents see your public name, ', name, ', in every game.');
  } else {
    name.textContent = (me && me.nickname) || 'Player';
    line.replaceChildren('You are signed in and play as ', name, ' until you choose your public name.');
  }
}

export function initNickname() {
  input.value = api.savedNickname();
  input.addEventListener('input', () => { if (error.textContent) clear(); });
}
