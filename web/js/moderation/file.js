// A player's file: who they are, the sanctions in force and the actions (each asking a reason
// and confirmed), their statistics beside their band, how their rated games ended, the
// opponents they play often (lopsided pairs marked), the reports on them, their names and
// every sanction they had, each in force with Lift. After an action the file is read again.
import * as api from '../api.js';
import { profileUrl } from '../account.js';
import { el } from '../element.js';
import { sanctionName, timeElement } from '../safety/words.js';
import { fileLink, integer } from './format.js';
import { askReason } from './reason-dialog.js';
import { liftSanction } from './lift.js';
import { reportItem } from './reports.js';
import { statisticsParts } from './statistics.js';

const $ = (id) => document.getElementById(id);

/** What putting each sanction does, to confirm it; and the words of its button. */
const SANCTIONS = Object.freeze([
  {
    kind: 'engine',
    button: 'Sanction for engine assistance',
    title: (name) => `Sanction ${name} for engine assistance?`,
    about: 'Their profile is labelled, they leave the leaderboards and cannot play ranked games, and the opponents '
      + 'who lost rating points to them in the last 30 days get them back. Their open reports close as acted on.',
    done: (name) => `${name} is sanctioned for engine assistance.`,
  },
  {
    kind: 'name',
    button: 'Reset name',
    title: (name) => `Reset ${name}'s public name?`,
    about: 'The name is taken away and they are signed out: they choose another one. Their past games show '
      + '“Renamed player”. Their open reports close as acted on.',
    done: (name) => `${name}'s public name is reset.`,
  },
  {
    kind: 'closed',
    button: 'Close account',
    title: (name) => `Close ${name}'s account?`,
    about: 'They are signed out and cannot sign in again; their profile says the account is closed and their games '
      + 'show “Closed account”. Their open reports close as acted on.',
    done: (name) => `${name}'s account is closed.`,
  },
]);

let player = null; // the file shown

const shownName = (file) => file.public_name || file.name || 'This player';

function section(id, heading, ...children) {
  return el('section', { class: 'card', 'aria-labelledby': `${id}-heading`, id },
    el('h3', { id: `${id}-heading` }, heading), ...children);
}

function actionButton(label, id, onClick) {
  const button = el('button', { type: 'button', class: 'danger', id }, label);
  button.addEventListener('click', onClick);
  return button;
}

/** The actions still open: a sanction not in force, dismissing open reports. */
function actions(file, active) {
  const name = shownName(file);
  const buttons = [];
  if (file.account) {
    for (const sanction of SANCTIONS) {
      if (active.some((row) => row.kind === sanction.kind)) continue;
      buttons.push(actionButton(sanction.button, `action-${sanction.kind}`, () => askReason({
        title: sanction.title(name),
        about: sanction.about,
        confirm: sanction.button,
        run: async (reason) => {
          await api.sanction(file.id, sanction.kind, reason);
          return () => reload(sanction.done(name));
        },
      })));
    }
  }
  const open = (file.reports || []).filter((report) => report.status === 'open').length;
  if (open) {
    buttons.push(actionButton('Dismiss reports', 'action-dismiss', () => askReason({
      title: `Dismiss the open reports on ${name}?`,
      about: `The ${open} open report${open === 1 ? '' : 's'} close with no sanction; the reporters see them as closed.`,
      confirm: 'Dismiss reports',
      run: async (reason) => {
        const { dismissed } = await api.dismissReports(file.id, reason);
        return () => reload(`${integer(dismissed)} report${dismissed === 1 ? '' : 's'} dismissed.`);
      },
    })));
  }
  const row = el('div', { class: 'row file-actions', id: 'file-actions' }, buttons);
  if (!file.account) {
    row.prepend(el('p', { class: 'muted' }, 'A guest: there is no account to sanction.'));
  }
  return row;
}

function sanctionItem(sanction, file) {
  const name = shownName(file);
  const item = el('li', { 'data-sanction': sanction.id, 'data-kind': sanction.kind, 'data-active': String(!sanction.lifted_at) },
    el('p', {}, el('strong', {}, sanctionName(sanction.kind)), ' · ', timeElement(sanction.created_at, true), ' · by ',
      fileLink(sanction.created_by, 'a moderator'),
      sanction.lifted_at ? [' · lifted ', timeElement(sanction.lifted_at, true)] : [' · ', el('span', { class: 'status-chip', 'data-status': 'active' }, 'In force')]),
    el('blockquote', { class: 'report-details' }, sanction.reason));
  if (sanction.previous_name) item.append(el('p', { class: 'muted' }, `The name before the reset: ${sanction.previous_name}`));
  if (!sanction.lifted_at) {
    const lift = el('button', { type: 'button', class: 'lift-button' }, 'Lift');
    lift.setAttribute('aria-label', `Lift: ${sanctionName(sanction.kind)}`);
    lift.addEventListener('click', () => liftSanction(sanction, name, () => reload(`Lifted: ${sanctionName(sanction.kind)} (${name}).`)));
    item.append(lift);
  }
  return item;
}

function endingsPart(endings) {
  const item = (label, value) => el('div', {}, el('dt', {}, label), el('dd', {}, integer(value)));
  return [
    el('p', { class: 'muted' }, `In the last ${integer(endings.period_days)} days.`),
    el('dl', { class: 'stat-list', id: 'file-endings' },
      item('Rated games', endings.rated_games),
      item('Early resignations', endings.early_resignations),
      item('Timeouts', endings.timeouts),
      item('Aborts', endings.aborts)),
  ];
}

function pairsPart(pairs) {
  if (!pairs.length) return [el('p', { class: 'muted' }, 'No opponent often enough to show (5 rated games or more in 30 days).')];
  const rows = pairs.map((pair) => el('tr', { class: pair.lopsided ? 'lopsided' : '' },
    el('td', {}, fileLink(pair.opponent, pair.name)),
    el('td', { class: 'num' }, integer(pair.games)),
    el('td', { class: 'num' }, `${integer(pair.wins)} / ${integer(pair.draws)} / ${integer(pair.losses)}`),
    el('td', {}, pair.lopsided ? el('strong', { class: 'lopsided-mark' }, 'Lopsided') : '')));
  return [el('div', { class: 'table-wrap' }, el('table', { class: 'data-table', id: 'file-pairs' },
    el('caption', {}, 'Rated games against one opponent in the last 30 days; lopsided: one side won 80% or more'),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, 'Opponent'), el('th', { scope: 'col', class: 'num' }, 'Games'),
      el('th', { scope: 'col', class: 'num' }, el('abbr', { title: 'Their wins / draws / losses' }, 'W / D / L')),
      el('th', { scope: 'col' }, 'Pattern'))),
    el('tbody', {}, rows)))];
}

function namesPart(names) {
  if (!names.length) return [el('p', { class: 'muted' }, 'No public name yet.')];
  return [el('ul', { class: 'plain-list', id: 'file-names' }, names.map((span) => el('li', {},
    el('strong', {}, span.name), ' · from ', timeElement(span.from), span.until ? [' to ', timeElement(span.until)] : ' to now')))];
}

function aboutLine(file) {
  const line = el('p', { class: 'muted', id: 'file-about' });
  if (file.account) {
    line.append('An account');
    if (file.public_name) line.append(' · profile: ', el('a', { href: profileUrl(file.public_name) }, file.public_name));
  } else {
    line.append('A guest');
  }
  line.append(' · first seen ', timeElement(file.created_at), ` · id ${file.id}`);
  return line;
}

function draw(file) {
  const name = shownName(file);
  document.title = `${name} — Moderation — Outflank`;
  const sanctions = file.sanctions || [];
  const active = sanctions.filter((sanction) => !sanction.lifted_at);
  const activeLine = el('p', { class: 'banner', id: 'file-active' },
    'In force: ', active.map((sanction, index) => [index ? '; ' : '', sanctionName(sanction.kind), ' since ', timeElement(sanction.created_at)]));
  activeLine.hidden = !active.length;
  const reports = file.reports || [];
  $('file-view').replaceChildren(
    el('p', {}, el('a', { href: '/mod' }, 'Back to the queue')),
    el('h2', { id: 'file-name', tabindex: '-1' }, name),
    aboutLine(file),
    activeLine,
    actions(file, active),
    el('p', { id: 'file-status', role: 'status' }),
    section('file-statistics', 'Statistics', ...statisticsParts(file.statistics)),
    section('file-endings-card', 'How their rated games ended', ...endingsPart(file.endings || {})),
    section('file-pairs-card', 'Opponents they play often', ...pairsPart(file.pairs || [])),
    section('file-reports', 'Reports',
      reports.length ? el('ul', { class: 'report-list' }, reports.map((report) => reportItem(report, { status: true })))
        : el('p', { class: 'muted' }, 'Nobody reported them.')),
    section('file-names-card', 'Names', ...namesPart(file.names || [])),
    section('file-sanctions', 'Sanctions',
      sanctions.length ? el('ul', { class: 'plain-list sanction-list' }, sanctions.map((sanction) => sanctionItem(sanction, file)))
        : el('p', { class: 'muted' }, 'None.')));
  $('file-view').hidden = false;
}

/** Reads the file again after an action, which `text` says happened. */
async function reload(text) {
  let said = text;
  try {
    draw(await api.modPlayer(player));
  } catch (error) {
    said = `${text} The file could not be read again: ${error.message}`;
  }
  $('file-name').focus();
  $('file-status').textContent = said;
}

/** Shows the file of player `id`. */
export async function showFile(id) {
  player = id;
  draw(await api.modPlayer(id));
}
