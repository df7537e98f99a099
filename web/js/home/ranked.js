// Ranked: for signed-in accounts with a public name. Everyone else is told what is missing,
// with the way to get it (sign in, or choose a name), or that sign-in is not set up here.
import { Queue } from '../protocol.js';
import { formatRating, profileUrl, signInUrl, welcomeUrl } from '../account.js';
import { $ } from './dom.js';
import { seekerCard, syncButtons } from './search.js';

let allowed = false;
let lastWho = { google: false, account: null };

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
  if (account && account.name) {
    line.replaceChildren('Signed in as ');
    const link = document.createElement('a');
    link.href = profileUrl(account.name);
    link.textContent = account.name;
    line.append(link, ` · rating ${formatRating(account.rating, account.provisional)}`);
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
  line.dataset.state = account ? (account.name ? 'named' : 'unnamed') : (google ? 'guest' : 'unavailable');
  syncButtons();
}

export function initRanked() {
  seekerCard({
    queue: Queue.RANKED,
    prefix: 'ranked',
    label: 'Ranked game',
    allowed: () => allowed,
    onError(msg) {
      // The session changed since the page was drawn (signed out in another tab, say).
      if (msg.code === 'account_required' || msg.code === 'name_required') {
        renderRanked({ google: lastWho.google, account: msg.code === 'name_required' ? { name: null } : null });
      }
    },
  });
}
