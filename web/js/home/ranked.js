// Ranked: for signed-in accounts with a public name. Everyone else is told what is missing,
// with the way to get it (sign in, or choose a name), or that sign-in is not set up here.
// A named account chooses the time controls (rating pools) to seek in, one or several; the
// choice is remembered in this browser. An account a moderator found using engine assistance
// is told that ranked games are closed to it.
import { POOLS, Queue } from '../protocol.js';
import { formatRating, profileUrl, signInUrl, welcomeUrl } from '../account.js';
import { rankedPools, setRankedPools } from '../prefs.js';
import { $ } from './dom.js';
import { seekerCard, syncButtons } from './search.js';

let allowed = false;
let closed = false; // a moderator closed ranked play to the account
let lastWho = { google: false, account: null };

/** The pools ticked, in the chooser's order. */
function chosenPools() {
  return [...$('ranked-pool-options').querySelectorAll('input:checked')].map((input) => input.value);
}

/** One checkbox per pool, with the account's rating there; ticked as last chosen (the default
 *  pool the first time). */
function renderPools(account) {
  const remembered = rankedPools();
  const ticked = new Set(remembered && remembered.length ? remembered : [POOLS[0].key]);
  const ratings = account.ratings || {};
  $('ranked-pool-options').replaceChildren(...POOLS.map((pool) => {
    const label = document.createElement('label');
    const input = document.createElement('input');
    input.type = 'checkbox';
    input.name = 'ranked-pool';
    input.value = pool.key;
    input.checked = ticked.has(pool.key);
    input.addEventListener('change', () => {
      setRankedPools(chosenPools());
      syncButtons();
    });
    const standing = ratings[pool.key];
    const text = document.createElement('span');
    text.append(pool.name);
    if (standing) {
      const rating = document.createElement('span');
      rating.className = 'pool-rating';
      rating.textContent = ` · ${formatRating(standing.rating, standing.provisional)}`;
      text.append(rating);
    }
    label.append(input, text);
    return label;
  }));
  $('ranked-pools').hidden = false;
}

export function renderRanked({ google, account }) {
  lastWho = { google, account };
  const line = $('ranked-account');
  const signIn = $('ranked-sign-in');
  const chooseName = $('ranked-choose-name');
  signIn.href = signInUrl('/');
  chooseName.href = welcomeUrl('/');
  signIn.hidden = true;
  chooseName.hidden = true;
  line.classList.remove('muted');
  $('ranked-pools').hidden = true;
  if (account && account.name && closed) {
    line.textContent = 'Ranked games are closed to your account: a moderator found engine assistance.';
    allowed = false;
  } else if (account && account.name) {
    line.replaceChildren('Signed in as ');
    const link = document.createElement('a');
    link.href = profileUrl(account.name);
    link.textContent = account.name;
    line.append(link);
    renderPools(account);
    allowed = true;
  } else if (account) {
    line.textContent = 'Choose your public name to play ranked.';
    chooseName.hidden = false;
    allowed = false;
  } else if (google) {
    line.textContent = 'Sign in with Google to play ranked.';
    signIn.hidden = false;
    allowed = false;
  } else {
    line.textContent = 'Sign-in is not set up on this server, so ranked games are not available here.';
    line.classList.add('muted');
    allowed = false;
  }
  line.dataset.state = account ? (account.name ? (closed ? 'closed' : 'named') : 'unnamed') : (google ? 'guest' : 'unavailable');
  syncButtons();
}

/** Ranked play is closed to the account (a sanction): the card says so, with no button. */
export function closeRanked() {
  closed = true;
  renderRanked(lastWho);
}

export function initRanked() {
  seekerCard({
    queue: Queue.RANKED,
    prefix: 'ranked',
    label: 'Ranked game',
    allowed: () => allowed && chosenPools().length > 0,
    pools: chosenPools,
    poolName: (key) => (POOLS.find((pool) => pool.key === key) || { name: key }).name,
    onError(msg) {
      // The session changed since the page was drawn (signed out in another tab, say).
      if (msg.code === 'account_required' || msg.code === 'name_required') {
        renderRanked({ google: lastWho.google, account: msg.code === 'name_required' ? { name: null } : null });
      }
      // A moderator closed ranked play to the account since the page was drawn: the
      // server's sentence stays under the card, which offers no search any more.
      if (msg.code === 'ranked_closed') closeRanked();
    },
  });
}
