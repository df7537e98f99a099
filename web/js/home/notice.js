// After signing in went wrong (`?sign_in_error=`) or the account was deleted: a banner,
// shown once (the address loses the parameter so that a reload does not repeat it).
import { $ } from './dom.js';

const NOTICES = Object.freeze({
  cancelled: 'Sign-in was cancelled. You can still play every way except Ranked without an account.',
  failed: 'Signing in with Google did not work. Please try again.',
  unavailable: 'Sign-in with Google is unavailable right now. Please try again later.',
  closed: 'This account was closed by a moderator for breaking the site\'s rules. You can still play as a guest.',
});

function showNotice() {
  const params = new URLSearchParams(location.search);
  let text = '';
  if (params.has('sign_in_error')) {
    text = NOTICES[params.get('sign_in_error')] || NOTICES.failed;
  } else if (params.has('account_deleted')) {
    text = 'Your account has been deleted. Your games remain, shown as “Deleted player”.';
  }
  if (!text) return;
  const notice = $('notice');
  notice.dataset.kind = params.has('sign_in_error') ? 'error' : 'info';
  $('notice-text').textContent = text;
  notice.hidden = false;
  params.delete('sign_in_error');
  params.delete('account_deleted');
  const query = params.toString();
  history.replaceState(null, '', `${location.pathname}${query ? `?${query}` : ''}${location.hash}`);
}

export function initNotice() {
  $('notice-close').addEventListener('click', () => {
    $('notice').hidden = true;
    $('quick-game').focus();
  });
  showNotice();
}
