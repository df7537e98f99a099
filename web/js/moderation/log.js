// The log: everything moderators did, newest first, a page at a time (Load more asks for the
// entries before the last shown). A sanction still in force has Undo, which lifts it: the log
// never loses an entry, so a sanction is in force until a later entry lifts it, and every
// later entry is on the pages already shown.
import * as api from '../api.js';
import { el } from '../element.js';
import { timeElement } from '../safety/words.js';
import { fileLink } from './format.js';
import { liftSanction } from './lift.js';

const $ = (id) => document.getElementById(id);
const PAGE = 100;

let entries = [];

/** `engine:<id>` → {kind: 'engine', id}. */
function subjectOf(entry) {
  const [kind, id] = String(entry.subject || '').split(':');
  return { kind, id: id || null };
}

const SANCTIONED = Object.freeze({
  engine: (who, target) => [who, ' sanctioned ', target, ' for engine assistance'],
  name: (who, target) => [who, ' reset the public name of ', target],
  closed: (who, target) => [who, ' closed the account of ', target],
});

const LIFTED = Object.freeze({
  engine: (who, target) => [who, ' lifted the engine-assistance sanction on ', target],
  name: (who, target) => [who, ' undid the reset of the name of ', target],
  closed: (who, target) => [who, ' reopened the account of ', target],
});

/** What an entry says happened, with the target's file linked. */
function sentence(entry) {
  const who = entry.moderator ? (entry.moderator_name || 'A moderator') : 'The server\'s command line';
  const target = entry.target ? fileLink(entry.target, entry.target_name) : 'someone';
  const { kind } = subjectOf(entry);
  switch (entry.action) {
    case 'sanction': return (SANCTIONED[kind] || ((a, b) => [a, ' sanctioned ', b]))(who, target);
    case 'sanction_lifted': return (LIFTED[kind] || ((a, b) => [a, ' lifted a sanction on ', b]))(who, target);
    case 'reports_dismissed': return [who, ' dismissed the reports on ', target];
    case 'moderator_added': return [target, ' became a moderator', entry.moderator ? [' (added by ', who, ')'] : ''];
    case 'moderator_removed': return [target, ' stopped being a moderator', entry.moderator ? [' (removed by ', who, ')'] : ''];
    default: return [who, ` ${String(entry.action).replace(/_/g, ' ')} `, target];
  }
}

/** The ids of the sanctions lifted in the entries shown. */
function liftedIds() {
  return new Set(entries.filter((entry) => entry.action === 'sanction_lifted').map((entry) => subjectOf(entry).id));
}

function entryItem(entry, lifted) {
  const item = el('li', { class: 'log-entry', 'data-action': entry.action, 'data-entry': entry.id },
    el('p', { class: 'log-line' }, timeElement(entry.at, true), ' · ', sentence(entry)));
  if (entry.reason) item.append(el('blockquote', { class: 'report-details' }, entry.reason));
  const { kind, id } = subjectOf(entry);
  if (entry.action === 'sanction' && id && !lifted.has(id)) {
    const undo = el('button', { type: 'button', class: 'undo-button' }, 'Undo');
    undo.setAttribute('aria-label', `Undo: lift this sanction on ${entry.target_name || 'the player'}`);
    undo.addEventListener('click', () => liftSanction({ id, kind }, entry.target_name || 'the player', () => reload('The sanction is lifted.')));
    item.append(undo);
  }
  return item;
}

function draw() {
  const lifted = liftedIds();
  $('log-list').replaceChildren(...entries.map((entry) => entryItem(entry, lifted)));
  $('log-empty').hidden = entries.length > 0;
}

/** Reads a page: the newest, or the one before the last entry shown (`more`). */
async function load(more) {
  const before = more && entries.length ? entries[entries.length - 1].at : null;
  const page = (await api.modLog(before)).entries || [];
  entries = more ? [...entries, ...page] : page;
  draw();
  $('log-more').hidden = page.length < PAGE;
}

/** After an Undo: the newest page again (the lifting is now its first entry). */
async function reload(text) {
  try {
    await load(false);
    $('log-status').textContent = text;
  } catch (error) {
    $('log-status').textContent = `${text} The log could not be read again: ${error.message}`;
  }
  $('log-heading').focus();
}

export async function showLog() {
  $('log-more').addEventListener('click', async (event) => {
    const button = event.currentTarget;
    button.disabled = true;
    const shown = entries.length;
    try {
      await load(true);
      $('log-status').textContent = `${entries.length - shown} more entries.`;
      // The focus goes to the first new entry's line, or stays on the button.
      const first = $('log-list').children[shown];
      if (first) {
        first.tabIndex = -1;
        first.focus();
      }
    } catch (error) {
      $('log-status').textContent = `No more entries loaded: ${error.message}`;
    } finally {
      button.disabled = false;
    }
  });
  await load(false);
  $('log-view').hidden = false;
}
