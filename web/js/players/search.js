// "Find a player": the start of a public name, typed or sent, lists the accounts the server
// finds (look-alikes folded there), each linking to its profile with whether it is online and
// its rating in each pool it has played; for a signed-in player with a public name, a Challenge
// link too, to the profile's challenge form.
import * as api from '../api.js';
import { el } from '../element.js';
import { formatRating, profileUrl, whoAmI } from '../account.js';

const WAIT_MS = 250;

/** Whether the visitor may challenge the player called `name`: signed in, named, and not them. */
async function challenger() {
  const who = await whoAmI();
  const mine = who.named ? who.account.name.toLowerCase() : null;
  return (name) => mine !== null && String(name).toLowerCase() !== mine;
}

function result(player, mayChallenge) {
  const ratings = Object.entries(player.ratings)
    .map(([pool, standing]) => `${pool} ${formatRating(standing.rating, standing.provisional)}`)
    .join(' · ');
  return el('li', {},
    el('a', { href: profileUrl(player.name) }, player.name),
    player.online ? el('span', { class: 'online-badge' }, ' online') : null,
    ratings ? el('span', { class: 'search-ratings' }, ` — ${ratings}`) : null,
    mayChallenge(player.name)
      ? el('a', { href: `${profileUrl(player.name)}#challenge`, class: 'search-challenge', 'aria-label': `Challenge ${player.name}` }, 'Challenge')
      : null);
}

/** Wires the form `form` (with an input named `q`) to the list `list` and the line `status`. */
export function playerSearch(form, list, status) {
  const input = form.elements.q;
  let timer = 0;
  let asked = 0;
  async function search() {
    const q = input.value.trim();
    const question = ++asked;
    if (!q) {
      list.replaceChildren();
      status.textContent = '';
      return;
    }
    try {
      const [{ players }, mayChallenge] = await Promise.all([api.findPlayers(q), challenger()]);
      if (question !== asked) return;
      list.replaceChildren(...players.map((player) => result(player, mayChallenge)));
      status.textContent = players.length ? '' : `Nobody’s name starts with “${q}”.`;
    } catch (error) {
      if (question === asked) status.textContent = error.message;
    }
  }
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    clearTimeout(timer);
    search();
  });
  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(search, WAIT_MS);
  });
}
