// "Find a player": the start of a public name, typed or sent, lists the accounts the server
// finds (look-alikes folded there), each linking to its profile with whether it is online and
// its rating in each pool it has played; for a signed-in player with a public name, a Challenge
// link too, to the profile's challenge form. A name in the address (`?q=`, where the header's
// search sends a name that is not one of its suggestions) is looked up at once.
import { el } from '../element.js';
import { profileUrl, whoAmI } from '../account.js';
import { playerLookup, ratingsText } from './lookup.js';

/** Whether the visitor may challenge the player called `name`: signed in, named, and not them. */
async function challenger() {
  const who = await whoAmI();
  const mine = who.named ? who.account.name.toLowerCase() : null;
  return (name) => mine !== null && String(name).toLowerCase() !== mine;
}

function result(player, mayChallenge) {
  // Every pool played, by its key, as the server lists them.
  const ratings = ratingsText(player.ratings, { label: (pool) => pool, byGames: false });
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
  const lookup = playerLookup({
    async onAnswer(players, q) {
      const mayChallenge = await challenger();
      list.replaceChildren(...players.map((player) => result(player, mayChallenge)));
      status.textContent = players.length ? '' : `Nobody’s name starts with “${q}”.`;
    },
    onClear() {
      list.replaceChildren();
      status.textContent = '';
    },
    onError(error) {
      status.textContent = error.message;
    },
  });
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    lookup.now(input.value);
  });
  input.addEventListener('input', () => lookup.soon(input.value));
  const sent = new URLSearchParams(location.search).get('q');
  if (sent && sent.trim()) {
    input.value = sent.trim();
    lookup.now(input.value);
  }
}
