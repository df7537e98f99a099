// The account corner of the site header, on every page: the signed-in player's public name
// and rating (linking to their profile) and Sign out; "Choose your name" for an account
// without one; or Sign in when Google sign-in is configured. Nothing for guests otherwise:
// the home page explains, next to Ranked, why sign-in is missing. A moderator also has a link
// to the moderator's desk. A player with a public name also has the bell of their notifications,
// and hears of challenges on every page (notify/). Where there are accounts (sign-in is
// configured, or the visitor has one), the corner starts with "Find a player"
// (players/header-search.js). A page with a place for the players one follows (`#following`,
// the home page's) has it filled for a player with a public name (players/following.js).
import * as api from './api.js';
import './theme.js';
import { formatRating, profileUrl, signInUrl, welcomeUrl, whoAmI } from './account.js';
import { isModerator, knownModerator } from './safety/moderator.js';
import { notifications } from './notify/index.js';
import { headerSearch } from './players/header-search.js';

function element(tag, attributes = {}, text = '') {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  if (text) node.textContent = text;
  return node;
}

function signOutButton() {
  const button = element('button', { type: 'button', id: 'sign-out' }, 'Sign out');
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      await api.signOut();
      location.reload();
    } catch (error) {
      button.disabled = false;
      button.title = error.message;
      const line = document.getElementById('site-account-error');
      if (line) line.textContent = `Not signed out: ${error.message}`;
    }
  });
  return button;
}

const modLink = () => element('a', { href: '/mod', id: 'mod-link', class: 'account-link' }, 'Moderation');

/** Adds the desk's link before Sign out once the server says the account moderates. */
async function addModLink(area, playerId) {
  if (!(await isModerator(playerId)) || area.querySelector('#mod-link')) return;
  const signOut = area.querySelector('#sign-out');
  if (signOut) signOut.before(modLink());
}

/** Fills the page's place for the players `name` follows, if it has one, once. */
let followingShown = false;
function showFollowing(name) {
  const place = document.getElementById('following');
  if (!place || followingShown) return;
  followingShown = true;
  import('./players/following.js').then(({ renderFollowing }) => renderFollowing(place, name));
}

/** Draws the account corner; `fresh` asks the server again (after a rating changed, say). */
export async function renderHeader({ fresh = false } = {}) {
  const area = document.getElementById('site-account');
  if (!area) return;
  const { google, me, account } = await whoAmI({ fresh });
  const parts = [];
  if (account && account.name) {
    const link = element('a', { href: profileUrl(account.name), id: 'account-link', class: 'account-link' });
    // Words for screen readers around what is shown, so the link's name contains its text.
    link.append(element('span', { class: 'visually-hidden' }, 'Your profile: '));
    link.append(element('span', { class: 'account-name' }, account.name));
    // The rating (and its words) go on the narrowest screens, where the corner is full.
    const rating = element('span', { class: 'account-rating' }, formatRating(account.rating, account.provisional));
    const words = element('span', { class: 'account-rating-words' });
    words.append(element('span', { class: 'visually-hidden' }, ', rating'), ' ', rating);
    link.append(words);
    parts.push(notifications(account.name), link, signOutButton());
    showFollowing(account.name);
  } else if (account) {
    // On the welcome page itself the page is the way to choose it.
    if (location.pathname !== '/welcome') {
      parts.push(element('a', { href: welcomeUrl(), id: 'account-link', class: 'account-link' }, 'Choose your public name'));
    }
    parts.push(signOutButton());
  } else if (google) {
    parts.push(element('a', { href: signInUrl(), id: 'sign-in', class: 'button' }, 'Sign in'));
  }
  // A moderator's link, at once when this tab knows already.
  const moderator = account ? knownModerator(me.id) : false;
  if (moderator) parts.splice(parts.length - 1, 0, modLink());
  if (google || account) parts.unshift(headerSearch());
  parts.push(element('span', { id: 'site-account-error', class: 'error', role: 'alert' }));
  area.replaceChildren(...parts);
  area.dataset.state = account ? (account.name ? 'named' : 'unnamed') : 'guest';
  if (account && moderator === null) addModLink(area, me.id);
}

renderHeader();
