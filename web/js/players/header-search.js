// "Find a player" in the site header: a field whose suggestions come as the visitor types
// (the players whose public name starts with what is typed, each with an online dot and their
// ratings in the pools they played most), following the ARIA combobox pattern: the arrow keys
// move through the suggestions (the focus stays in the field), Enter or a click opens the
// profile of the one chosen, Escape closes the list, then empties the field. Enter without a
// suggestion chosen opens the profile of the name typed when the server found it, or the only
// player found; otherwise the leaderboard's "Find a player" with every match (or, when nobody
// is found, nothing: the list says so). On narrow screens
// the field folds into a button that opens it under the header (Escape or leaving it closes
// it, the focus back on the button).
import { profileUrl } from '../account.js';
import { el } from '../element.js';
import { onlineDot, playerLookup, ratingsText } from './lookup.js';

const SVG = 'http://www.w3.org/2000/svg';
const MOST = 8; // suggestions shown
const NARROW = '(max-width: 40rem)'; // as in style.css: the field is a button there

let wrapper = null;
let toggle = null;
let box = null;
let input = null;
let popup = null;
let listbox = null;
let emptyLine = null;
let statusLine = null;
let found = []; // the players suggested, in order
let active = -1; // the suggestion chosen with the arrow keys, or -1
let lookup = null;

/** A magnifying glass, for the eye only. */
function glass() {
  const svg = document.createElementNS(SVG, 'svg');
  for (const [name, value] of Object.entries({
    viewBox: '0 0 24 24', width: '20', height: '20', 'aria-hidden': 'true', focusable: 'false', class: 'site-search-icon',
  })) svg.setAttribute(name, value);
  const path = document.createElementNS(SVG, 'path');
  path.setAttribute('d', 'M10.5 4a6.5 6.5 0 1 0 0 13a6.5 6.5 0 0 0 0-13zm4.7 11.2L20 20');
  svg.append(path);
  return svg;
}

const narrow = () => matchMedia(NARROW).matches;

const optionId = (index) => `site-search-option-${index}`;

function say(text) {
  statusLine.textContent = text;
}

/** One suggestion: the name, the dot, the ratings (the dot's and the commas' words are for
 *  screen readers, which read the option as one line). */
function option(player, index) {
  const ratings = ratingsText(player.ratings, { limit: 3 });
  const node = el('li', {
    role: 'option', id: optionId(index), class: 'site-search-option', 'aria-selected': 'false', 'data-name': player.name,
  },
  el('span', { class: 'site-search-name' }, player.name),
  onlineDot(player.online),
  ratings ? [el('span', { class: 'visually-hidden' }, ', '), el('span', { class: 'site-search-ratings' }, ratings)] : null);
  // A press keeps the focus in the field; the click then opens the profile.
  node.addEventListener('pointerdown', (event) => event.preventDefault());
  node.addEventListener('click', () => go(player.name));
  return node;
}

function setActive(index) {
  active = index;
  for (const [i, node] of [...listbox.children].entries()) node.setAttribute('aria-selected', String(i === index));
  if (index < 0) {
    input.removeAttribute('aria-activedescendant');
    return;
  }
  input.setAttribute('aria-activedescendant', optionId(index));
  listbox.children[index].scrollIntoView({ block: 'nearest' });
}

const listOpen = () => !popup.hidden && found.length > 0;

function closeList() {
  popup.hidden = true;
  input.setAttribute('aria-expanded', 'false');
  setActive(-1);
}

function openList() {
  if (!found.length && emptyLine.hidden) return;
  popup.hidden = false;
  input.setAttribute('aria-expanded', String(found.length > 0));
}

function show(players, q) {
  found = players.slice(0, MOST);
  listbox.replaceChildren(...found.map(option));
  listbox.hidden = found.length === 0;
  emptyLine.textContent = found.length ? '' : `Nobody’s name starts with “${q}”.`;
  emptyLine.hidden = found.length > 0;
  setActive(-1);
  if (document.activeElement !== input) return;
  openList();
  say(found.length
    ? `${found.length} player${found.length === 1 ? '' : 's'} found: the arrow keys go through them.`
    : emptyLine.textContent);
}

function clear() {
  found = [];
  listbox.replaceChildren();
  emptyLine.hidden = true;
  closeList();
  say('');
}

/** Opens the profile of the player called `name`. */
function go(name) {
  closeList();
  location.assign(profileUrl(name));
}

/** Enter without a suggestion chosen: the name typed, the only player found, or every match
 *  (when nobody is found, the list says so and the page stays). */
async function goTyped() {
  const q = input.value.trim();
  if (!q) return;
  const players = await lookup.now(q);
  if (!players || !players.length) return;
  const exact = players.find((player) => player.name.toLowerCase() === q.toLowerCase());
  if (exact) go(exact.name);
  else if (players.length === 1) go(players[0].name);
  else location.assign(`/leaderboard?${new URLSearchParams({ q })}`);
}

/** Narrow screens: the field under the header, open or folded into its button. */
function setUnfolded(open, { focus = false } = {}) {
  wrapper.dataset.open = String(open);
  toggle.setAttribute('aria-expanded', String(open));
  if (open) input.focus();
  else {
    closeList();
    if (focus) toggle.focus();
  }
}

function onKey(event) {
  switch (event.key) {
    case 'ArrowDown':
    case 'ArrowUp': {
      if (!found.length) return;
      event.preventDefault();
      const down = event.key === 'ArrowDown';
      if (!listOpen()) {
        openList();
        setActive(down ? 0 : found.length - 1);
        return;
      }
      const next = down ? active + 1 : active - 1;
      setActive(next >= found.length ? 0 : next < 0 ? found.length - 1 : next);
      return;
    }
    case 'Enter':
      event.preventDefault();
      if (listOpen() && active >= 0) go(found[active].name);
      else goTyped();
      return;
    case 'Escape':
      if (!popup.hidden) {
        event.preventDefault();
        closeList();
      } else if (narrow() && wrapper.dataset.open === 'true') {
        event.preventDefault();
        setUnfolded(false, { focus: true });
      } else if (input.value) {
        event.preventDefault();
        input.value = '';
        clear();
      }
      return;
    default:
  }
}

function build() {
  toggle = el('button', {
    type: 'button', class: 'site-search-toggle', id: 'site-search-toggle', 'aria-expanded': 'false', 'aria-controls': 'site-search-box',
  }, glass(), el('span', { class: 'visually-hidden' }, 'Find a player'));
  input = el('input', {
    type: 'text', id: 'site-search-input', class: 'site-search-input', name: 'q', role: 'combobox',
    'aria-autocomplete': 'list', 'aria-expanded': 'false', 'aria-controls': 'site-search-list',
    placeholder: 'Find a player', autocomplete: 'off', autocapitalize: 'none', spellcheck: 'false', maxlength: '20', enterkeyhint: 'search',
  });
  listbox = el('ul', { role: 'listbox', id: 'site-search-list', class: 'site-search-list', 'aria-label': 'Players found', hidden: true });
  emptyLine = el('p', { class: 'site-search-empty muted', hidden: true });
  popup = el('div', { class: 'site-search-popup', id: 'site-search-popup', hidden: true }, listbox, emptyLine);
  statusLine = el('p', { class: 'visually-hidden', role: 'status', id: 'site-search-status' });
  box = el('div', { class: 'site-search-box', id: 'site-search-box', role: 'search', 'aria-label': 'Find a player' },
    el('label', { for: 'site-search-input', class: 'visually-hidden' }, 'Find a player by the start of their public name'),
    el('span', { class: 'site-search-field' }, glass(), input), popup, statusLine);
  wrapper = el('div', { class: 'site-search', id: 'site-search', 'data-open': 'false' }, toggle, box);

  lookup = playerLookup({
    onAnswer: show,
    onClear: clear,
    onError(error) {
      found = [];
      listbox.replaceChildren();
      emptyLine.textContent = error.message;
      emptyLine.hidden = false;
      openList();
    },
  });
  input.addEventListener('input', () => {
    setActive(-1);
    if (!input.value.trim()) {
      lookup.cancel();
      clear();
    } else lookup.soon(input.value);
  });
  input.addEventListener('keydown', onKey);
  input.addEventListener('focus', () => {
    if (found.length || !emptyLine.hidden) openList();
  });
  toggle.addEventListener('click', () => setUnfolded(wrapper.dataset.open !== 'true'));
  // Leaving the search (the focus or a press elsewhere) closes its list, and on a narrow
  // screen folds it.
  const leave = (event) => {
    if (wrapper.contains(event.target)) return;
    closeList();
    if (wrapper.dataset.open === 'true') setUnfolded(false);
  };
  document.addEventListener('pointerdown', leave);
  document.addEventListener('focusin', leave);
}

/** The header's search, made once and kept across redraws of the header. */
export function headerSearch() {
  if (!wrapper) build();
  return wrapper;
}
