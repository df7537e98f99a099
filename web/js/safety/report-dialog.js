// The report dialog, on the game page and on a profile: whom (a seat to choose when watching a
// game), what is wrong (one of four reasons), details (up to 500 characters, needed for
// "Something else"), then Send or Cancel. The server files the report and says why when it
// does not; the dialog only checks what it can say at once.
import * as api from '../api.js';
import { el } from '../element.js';
import { sentence } from '../text.js';
import { REPORT_REASONS } from './words.js';

export const MAX_DETAILS = 500;

let dialog = null;
let current = null; // {targets, onSent} of the dialog open now

/** The dialog, made on first use and kept in the page's main. */
function build() {
  const details = el('textarea', {
    id: 'report-details', name: 'details', maxlength: MAX_DETAILS, rows: 4,
    'aria-describedby': 'report-count report-details-hint',
  });
  const form = el('form', { id: 'report-form', novalidate: true },
    el('h2', { id: 'report-title' }, 'Report a player'),
    el('fieldset', { id: 'report-who', class: 'choice-list' }, el('legend', {}, 'Which player?')),
    el('fieldset', { id: 'report-why', class: 'choice-list' },
      el('legend', {}, 'What is wrong?'),
      REPORT_REASONS.map((reason) => el('label', {},
        el('input', { type: 'radio', name: 'reason', value: reason.key }),
        el('span', {}, el('span', { class: 'choice-name' }, reason.name), ' ',
          el('span', { class: 'choice-about' }, reason.about))))),
    el('div', { class: 'field' },
      el('label', { for: 'report-details' }, 'Details'),
      details,
      el('p', { id: 'report-details-hint', class: 'muted small' }, 'What happened, and when. Needed for “Something else”.'),
      el('p', { id: 'report-count', class: 'muted small counter' })),
    el('p', { id: 'report-error', class: 'error', role: 'alert' }),
    el('div', { class: 'row' },
      el('button', { type: 'submit', class: 'primary', id: 'report-send' }, 'Send report'),
      el('button', { type: 'button', id: 'report-cancel' }, 'Cancel')));
  dialog = el('dialog', { id: 'report-dialog', class: 'form-dialog', 'aria-labelledby': 'report-title' }, form);
  (document.querySelector('main') || document.body).append(dialog);

  details.addEventListener('input', count);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    send();
  });
  dialog.querySelector('#report-cancel').addEventListener('click', () => dialog.close());
  dialog.addEventListener('close', () => { current = null; });
}

const $ = (id) => dialog.querySelector(`#${id}`);

function count() {
  const used = [...$('report-details').value].length;
  $('report-count').textContent = `${used} / ${MAX_DETAILS} characters`;
}

function showError(text, focus = null) {
  $('report-error').textContent = text;
  if (focus) focus.focus();
}

/**
 * Opens the dialog about one of `targets` (`[{name, target}]`: the name shown, and the body's
 * `{name}` or `{game, color}`); with several, the reporter chooses which. `onSent(report)`
 * runs once the server has the report.
 */
export function openReport({ targets, onSent = () => {} }) {
  if (!dialog) build();
  current = { targets, onSent };
  const single = targets.length === 1;
  $('report-title').textContent = single ? `Report ${targets[0].name}` : 'Report a player';
  const who = $('report-who');
  who.hidden = single;
  who.replaceChildren(el('legend', {}, 'Which player?'), ...targets.map((entry, index) => el('label', {},
    el('input', { type: 'radio', name: 'who', value: String(index), checked: index === 0 }),
    el('span', {}, entry.label || entry.name))));
  $('report-form').reset();
  if (!single) who.querySelector('input').checked = true;
  count();
  showError('');
  $('report-send').disabled = false;
  dialog.showModal();
  (single ? $('report-why') : who).querySelector('input').focus();
}

async function send() {
  if (!current) return;
  const form = $('report-form');
  const reason = form.querySelector('input[name="reason"]:checked');
  const details = $('report-details').value.trim();
  if (!reason) {
    showError('Choose what is wrong.', $('report-why').querySelector('input'));
    return;
  }
  if (reason.value === 'other' && !details) {
    showError('Say what happened in the details.', $('report-details'));
    return;
  }
  const chosen = form.querySelector('input[name="who"]:checked');
  const entry = current.targets[chosen && current.targets.length > 1 ? Number(chosen.value) : 0];
  const { onSent } = current;
  $('report-send').disabled = true;
  showError('');
  try {
    const filed = await api.report(entry.target, reason.value, details);
    dialog.close();
    onSent({ ...filed, name: filed.name || entry.name });
  } catch (error) {
    $('report-send').disabled = false;
    showError(`Not sent: ${sentence(error.message)}`);
  }
}
