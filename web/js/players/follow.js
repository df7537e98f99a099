// A profile's followers and following (counted on every profile), and Follow: for a signed-in
// player with a public name on someone else's profile, a toggle button ("Follow", pressed:
// "Following") next to Challenge. Following someone brings a notification when they start a
// game, and lists them on the home page. The counts are asked again after each change, so
// they are the server's.
import * as api from '../api.js';
import { el } from '../element.js';
import { sentence } from '../text.js';

const $ = (id) => document.getElementById(id);
const number = new Intl.NumberFormat('en');

/** The profile's two counts. */
export function showFollowCounts(profile) {
  const followers = Number(profile.followers) || 0;
  const following = Number(profile.following) || 0;
  $('stat-followers').textContent = number.format(followers);
  $('stat-following').textContent = number.format(following);
}

function followButton(profile) {
  const { name } = profile;
  let pressed = profile.you_follow === true;
  const button = el('button', { type: 'button', id: 'follow-player', class: 'follow-button', 'aria-describedby': 'follow-about' });
  const about = el('span', { class: 'visually-hidden', id: 'follow-about' }, `Hear when ${name} starts a game.`);
  const status = el('p', { id: 'follow-status', class: 'follow-status', role: 'status' });
  const error = el('p', { id: 'follow-error', class: 'error', role: 'alert' });

  function draw() {
    button.setAttribute('aria-pressed', String(pressed));
    button.textContent = pressed ? 'Following' : 'Follow';
    button.title = pressed ? `You follow ${name}: press to stop` : `Follow ${name}: hear when they start a game`;
  }

  button.addEventListener('click', async () => {
    button.disabled = true;
    error.textContent = '';
    status.textContent = '';
    try {
      if (pressed) {
        try {
          await api.unfollow(name);
        } catch (problem) {
          // Not followed any more (from another page): what was asked is so.
          if (problem.code !== 'player_not_found' || problem.status !== 404) throw problem;
        }
        pressed = false;
        status.textContent = `You no longer follow ${name}.`;
      } else {
        await api.follow(name);
        pressed = true;
        status.textContent = `You follow ${name}: you hear when they start a game.`;
      }
      draw();
      try {
        showFollowCounts(await api.player(name));
      } catch { /* the counts stay as they were */ }
    } catch (problem) {
      error.textContent = `${pressed ? 'Still following' : 'Not followed'}: ${sentence(problem.message)}`;
    } finally {
      button.disabled = false;
    }
  });
  draw();
  return [button, about, status, error];
}

/**
 * Draws the counts, and Follow for `who` (whoAmI's answer) when it is someone else's profile
 * (`own` false) that they may follow: not a closed account, unless they follow it already.
 */
export function renderFollow(profile, who, own) {
  showFollowCounts(profile);
  const area = $('follow-area');
  if (!area || own || !who.named || typeof profile.you_follow !== 'boolean') return;
  if (profile.label === 'closed' && !profile.you_follow) return;
  area.replaceChildren(...followButton(profile));
  area.hidden = false;
}
