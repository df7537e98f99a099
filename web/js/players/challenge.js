// A profile's Challenge: for a signed-in player with a public name looking at someone else, a
// button opening a small form (the time control, from those the site offers; the colour to
// play; rated; XOT) that sends the challenge. The server says what is wrong when it refuses,
// and the challenge toasts (notify/tray.js) show the wait, Cancel and the answer. The address's
// `#challenge` opens the form at once: the leaderboard's "Find a player" links there.
import * as api from '../api.js';
import { signInUrl } from '../account.js';
import { el } from '../element.js';
import { CONTROLS } from '../home/control-tiles.js';
import { trackSent } from '../notify/tray.js';
import { POOLS } from '../protocol.js';
import { controlName, sentence } from '../text.js';

const HASH = '#challenge';
const CONTROL_KEY = 'outflank.challengeControl';
const COLOURS = Object.freeze([
  Object.freeze({ value: 'random', name: 'Random' }),
  Object.freeze({ value: 'black', name: 'Black', about: ' (moves first)' }),
  Object.freeze({ value: 'white', name: 'White' }),
]);

/** "30 s a move", "3+2 · Blitz", "2 days a move". */
const optionName = (control) => (/[sd]$/.test(control.value) ? controlName(control.value) : `${control.main} · ${control.kind}`);

function rememberedControl() {
  try {
    const value = localStorage.getItem(CONTROL_KEY);
    return CONTROLS.some((control) => control.value === value) ? value : CONTROLS[0].value;
  } catch {
    return CONTROLS[0].value;
  }
}

/** The dialog with the form to challenge the player called `name`; `opener` gets the focus back. */
function challengeDialog(name, opener) {
  const chosen = rememberedControl();
  const select = el('select', { id: 'challenge-control', name: 'control' },
    CONTROLS.map((control) => el('option', { value: control.value, selected: control.value === chosen }, optionName(control))));
  const error = el('p', { id: 'challenge-error', class: 'error', role: 'alert' });
  const sendButton = el('button', { type: 'submit', class: 'primary', id: 'challenge-send' }, 'Send challenge');
  const closeButton = el('button', { type: 'button', id: 'challenge-close' }, 'Cancel');
  const form = el('form', { id: 'challenge-form', class: 'challenge-form', novalidate: true },
    el('h2', { id: 'challenge-title' }, `Challenge ${name}`),
    el('div', { class: 'field' }, el('label', { for: 'challenge-control' }, 'Time control'), select),
    el('fieldset', { class: 'colour-choice', id: 'challenge-colour' },
      el('legend', {}, 'You play'),
      COLOURS.map((colour) => el('label', {},
        el('input', { type: 'radio', name: 'colour', value: colour.value, checked: colour.value === 'random' }),
        colour.name, colour.about ? el('span', { class: 'visually-hidden' }, colour.about) : null))),
    el('div', { class: 'checks' },
      el('label', {}, el('input', { type: 'checkbox', id: 'challenge-rated', name: 'rated', 'aria-describedby': 'challenge-rated-hint' }), 'Rated'),
      el('label', {}, el('input', { type: 'checkbox', id: 'challenge-xot', name: 'xot', 'aria-describedby': 'challenge-xot-hint' }), 'XOT opening')),
    el('p', { class: 'muted hint', id: 'challenge-rated-hint' },
      `Rated: the result moves both players’ ratings, in the rating pool of its clock (${POOLS.map((pool) => pool.name).join('; ')}).`),
    el('p', { class: 'muted hint', id: 'challenge-xot-hint' }, 'XOT: the first eight moves are drawn at random from balanced openings.'),
    el('p', { class: 'muted hint', id: 'challenge-wait' }, `${name} has a minute to answer; a week for a game of days a move.`),
    error,
    el('div', { class: 'row' }, sendButton, closeButton));
  const dialog = el('dialog', {
    id: 'challenge-dialog', class: 'form-dialog', 'aria-labelledby': 'challenge-title', 'aria-describedby': 'challenge-wait',
  }, form);

  closeButton.addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => opener.focus());
  select.addEventListener('change', () => {
    try { localStorage.setItem(CONTROL_KEY, select.value); } catch { /* private mode */ }
  });
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    error.textContent = '';
    sendButton.disabled = true;
    try {
      const challenge = await api.challenge(name, {
        control: select.value,
        colour: form.elements.colour.value || 'random',
        rated: form.elements.rated.checked,
        xot: form.elements.xot.checked,
      });
      dialog.close();
      trackSent(challenge);
    } catch (problem) {
      error.textContent = `Not sent: ${sentence(problem.message)}`;
    } finally {
      sendButton.disabled = false;
    }
  });
  return dialog;
}

/**
 * Draws the profile's Challenge for `profile` as `who` (whoAmI's answer) sees it; `own`: the
 * visitor's own profile, where there is none.
 */
export function renderChallenge(profile, who, own) {
  const area = document.getElementById('challenge-area');
  if (!area || own || profile.label === 'closed') return;
  if (!who.named) {
    // Only someone sent here to challenge hears how to.
    if (location.hash !== HASH) return;
    const how = who.account
      ? 'Choose your public name to challenge players.'
      : el('span', {}, el('a', { href: signInUrl() }, 'Sign in'), ` to challenge ${profile.name}.`);
    area.replaceChildren(el('p', { class: 'muted', id: 'challenge-sign-in' }, how));
    area.hidden = false;
    return;
  }
  const button = el('button', { type: 'button', class: 'primary', id: 'challenge-player', 'aria-haspopup': 'dialog' },
    `Challenge ${profile.name}`);
  const dialog = challengeDialog(profile.name, button);
  const open = () => {
    if (dialog.open) return;
    dialog.querySelector('#challenge-error').textContent = '';
    dialog.showModal();
    dialog.querySelector('#challenge-control').focus();
  };
  button.addEventListener('click', open);
  area.replaceChildren(button, dialog);
  area.hidden = false;
  if (location.hash === HASH) open();
  addEventListener('hashchange', () => {
    if (location.hash === HASH) open();
  });
}
