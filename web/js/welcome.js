// /welcome?return_to=/path: a signed-in account without a public name chooses one (the guest
// nickname is offered first), then goes back to where it was signing in from. `return_to`
// is followed only when it is a path on this site.
import * as api from './api.js';
import { safeReturnTo, signInUrl, whoAmI } from './account.js';
import './header.js';

const $ = (id) => document.getElementById(id);
const returnTo = safeReturnTo(new URLSearchParams(location.search).get('return_to'));
const input = $('public-name');
const errorLine = $('name-error');

function showError(text) {
  errorLine.textContent = text;
  if (text) input.setAttribute('aria-invalid', 'true');
  else input.removeAttribute('aria-invalid');
}

/** The server's sentence for people, capitalised and ending in a full stop. */
function sentence(text) {
  const trimmed = String(text || '').trim();
  if (!trimmed) return '';
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

/** The guest nickname as a public name: spaces become `_`, other signs are dropped, and it
 *  starts and ends with a letter or digit. */
function suggestion(nickname) {
  const text = String(nickname || '').trim();
  const cleaned = text.replace(/\s+/g, '_').replace(/[^A-Za-z0-9_-]/g, '').slice(0, 20)
    .replace(/^[_-]+|[_-]+$/g, '');
  return cleaned.length >= 3 ? cleaned : text;
}

async function load() {
  const { google, me, account } = await whoAmI();
  $('welcome-loading').hidden = true;
  if (account && account.name) {
    // Named already (another tab, or the Back button): nothing to choose.
    $('named-card').hidden = false;
    $('named-text').textContent = `You are signed in as ${account.name}.`;
    $('continue').href = returnTo;
    return;
  }
  if (!account) {
    $('signed-out-card').hidden = false;
    const signIn = $('welcome-sign-in');
    if (google) {
      signIn.href = signInUrl(returnTo);
      signIn.hidden = false;
    } else {
      $('signed-out-text').textContent = 'You are not signed in, and sign-in is not set up on this server. Every way to play but Ranked works without an account.';
    }
    return;
  }
  $('name-card').hidden = false;
  input.value = suggestion((me && me.nickname) || api.savedNickname());
  input.focus();
  input.select();
}

$('name-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const name = input.value.trim();
  if (!name) {
    showError('Type a name first.');
    input.focus();
    return;
  }
  const button = $('save-name');
  button.disabled = true;
  showError('');
  try {
    await api.setAccountName(name);
    location.assign(returnTo);
  } catch (error) {
    button.disabled = false;
    if (error.code === 'name_taken') {
      showError(`“${name}” is taken. Choose another name.`);
    } else if (error.code === 'not_signed_in' || error.status === 401) {
      showError('You are no longer signed in. Sign in again, then choose your name.');
    } else {
      showError(sentence(error.message));
    }
    input.focus();
  }
});

input.addEventListener('input', () => {
  if (errorLine.textContent) showError('');
});

load();
