// The profile's trust and safety: what moderators found about the account (its label), Report
// and Block for a signed-in visitor (a sign-in hint for a guest), and on one's own profile the
// reports one sent, where each stands, and the players one blocked.
import * as api from '../api.js';
import { signInUrl } from '../account.js';
import { el } from '../element.js';
import { sentence } from '../text.js';
import { blockButton, myBlocks } from './blocks.js';
import { openReport } from './report-dialog.js';
import { reasonName, reportStatusName, timeElement } from './words.js';

const $ = (id) => document.getElementById(id);

const LABELS = Object.freeze({
  engine_assistance: 'This account was found to have used engine assistance. It is off the leaderboards and cannot play ranked games.',
  closed: 'This account is closed.',
});

/** The label a moderator's sanction put on the account, said above everything else. */
function renderLabel(profile) {
  const line = $('player-label');
  const text = LABELS[profile.label] || '';
  line.textContent = text;
  line.dataset.label = profile.label || '';
  line.hidden = !text;
}

/** Report and Block for a signed-in visitor; for a guest, how to get them. */
async function renderConduct(profile, who) {
  const card = $('conduct-card');
  const actions = $('conduct-actions');
  const status = $('conduct-status');
  if (!who.account) {
    if (!who.google) return;
    $('conduct-heading').textContent = 'Report a player';
    actions.replaceChildren(el('p', { class: 'muted', id: 'conduct-sign-in' },
      el('a', { href: signInUrl() }, 'Sign in'), ' to report or block this player.'));
    card.hidden = false;
    return;
  }
  const blocks = await myBlocks();
  const blocked = blocks.find((entry) => entry.id === profile.id);
  const report = el('button', { type: 'button', id: 'report-player' }, `Report ${profile.name}`);
  report.addEventListener('click', () => openReport({
    targets: [{ name: profile.name, target: { name: profile.name } }],
    onSent: () => {
      status.textContent = 'Report received. A moderator will look at it; your profile shows where it stands.';
    },
  }));
  const block = blockButton({ name: profile.name, target: { name: profile.name }, blockedId: blocked ? blocked.id : null, status });
  block.id = 'block-player';
  actions.replaceChildren(report, block);
  card.hidden = false;
}

function reportItem(report) {
  const name = report.name || 'A player';
  const about = el('span', { class: 'safety-meta' }, `${reasonName(report.reason)} · `, timeElement(report.created_at));
  if (report.game) about.append(' · ', el('a', { href: `/game/${encodeURIComponent(report.game)}` }, 'the game'));
  return el('li', { 'data-status': report.status },
    el('span', { class: 'safety-main' }, el('span', { class: 'safety-name' }, name), ' ', about),
    ' ',
    el('span', { class: 'status-chip', 'data-status': report.status }, reportStatusName(report.status)));
}

/** The reports this account sent, newest first. */
async function renderMyReports() {
  let reports = [];
  try {
    reports = (await api.myReports()).reports || [];
  } catch (error) {
    $('my-reports-empty').textContent = `Your reports could not be loaded: ${sentence(error.message)}`;
  }
  $('my-reports').replaceChildren(...reports.map(reportItem));
  $('my-reports-empty').hidden = reports.length > 0;
  $('my-reports-card').hidden = false;
}

function blockItem(entry) {
  const name = entry.name || 'A player';
  const button = el('button', { type: 'button' }, `Unblock ${name}`);
  const item = el('li', { 'data-player': entry.id },
    el('span', { class: 'safety-main' }, el('span', { class: 'safety-name' }, name), ' ',
      el('span', { class: 'safety-meta' }, 'since ', timeElement(entry.since))),
    ' ',
    button);
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await api.unblock(entry.id);
      const next = item.nextElementSibling || item.previousElementSibling;
      item.remove();
      $('my-blocks-status').textContent = `You unblocked ${name}.`;
      $('my-blocks-empty').hidden = $('my-blocks').children.length > 0;
      (next ? next.querySelector('button') : $('my-blocks-card').querySelector('h2')).focus();
    } catch (error) {
      button.disabled = false;
      $('my-blocks-status').textContent = sentence(error.message);
    }
  });
  return item;
}

/** The players this account blocked, each with Unblock. */
async function renderMyBlocks() {
  const blocks = await myBlocks();
  $('my-blocks').replaceChildren(...blocks.map(blockItem));
  $('my-blocks-empty').hidden = blocks.length > 0;
  $('my-blocks-card').querySelector('h2').tabIndex = -1;
  $('my-blocks-card').hidden = false;
}

/** Draws it all for `profile` as `who` (whoAmI's answer) sees it; `own`: the visitor's own. */
export function renderProfileSafety(profile, who, own) {
  renderLabel(profile);
  if (own) {
    renderMyReports();
    renderMyBlocks();
  } else {
    renderConduct(profile, who);
  }
}
