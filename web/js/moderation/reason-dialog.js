// Every action of the desk is confirmed in one dialog that asks for its reason: the question,
// what the action does, the reason (required, kept in the log), and a button that names the
// action. The action runs from the dialog, which says why when the server refuses it.
import { el } from '../element.js';
import { sentence } from '../text.js';

export const MAX_REASON = 500;

let dialog = null;
let current = null; // the open request: {run}

const $ = (id) => dialog.querySelector(`#${id}`);

function build() {
  const form = el('form', { id: 'reason-form', novalidate: true },
    el('h2', { id: 'reason-title' }),
    el('p', { id: 'reason-about' }),
    el('div', { class: 'field' },
      el('label', { for: 'reason-text' }, 'Reason'),
      el('textarea', { id: 'reason-text', maxlength: MAX_REASON, rows: 3, required: true, 'aria-describedby': 'reason-hint' }),
      el('p', { id: 'reason-hint', class: 'muted small' }, 'Required. Kept in the log for the other moderators.')),
    el('p', { id: 'reason-error', class: 'error', role: 'alert' }),
    el('div', { class: 'row' },
      el('button', { type: 'submit', class: 'danger', id: 'reason-confirm' }),
      el('button', { type: 'button', id: 'reason-cancel' }, 'Cancel')));
  dialog = el('dialog', { id: 'reason-dialog', class: 'form-dialog', 'aria-labelledby': 'reason-title', 'aria-describedby': 'reason-about' }, form);
  (document.querySelector('main') || document.body).append(dialog);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    confirm();
  });
  $('reason-cancel').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => { current = null; });
}

async function confirm() {
  if (!current) return;
  const reason = $('reason-text').value.trim();
  if (!reason) {
    $('reason-error').textContent = 'Give a reason: the log keeps it for the other moderators.';
    $('reason-text').focus();
    return;
  }
  const { run } = current;
  const button = $('reason-confirm');
  button.disabled = true;
  $('reason-error').textContent = '';
  try {
    const then = await run(reason);
    dialog.close();
    // What comes after (drawing the page again, moving the focus) once the page is usable.
    if (typeof then === 'function') then();
  } catch (error) {
    $('reason-error').textContent = `Not done: ${sentence(error.message)}`;
  } finally {
    button.disabled = false;
  }
}

/**
 * Asks to confirm an action with its reason: `title` (the question), `about` (what it does),
 * `confirm` (the button's words); `run(reason)` does it, and a failure stays in the dialog.
 * A function `run` resolves to is called once the dialog is closed.
 */
export function askReason({ title, about, confirm: words, run }) {
  if (!dialog) build();
  current = { run };
  $('reason-title').textContent = title;
  $('reason-about').textContent = about;
  $('reason-confirm').textContent = words;
  $('reason-text').value = '';
  $('reason-error').textContent = '';
  dialog.showModal();
  $('reason-text').focus();
}
