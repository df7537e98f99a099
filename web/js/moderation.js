// /mod: the moderator's desk, for moderators only (everyone else is told so). Three views, each
// its own address: the queue (/mod), a player's file (/mod?player=<id>) and the log
// (/mod?view=log). The server checks the role on every request; this page only asks first.
import { whoAmI } from './account.js';
import { renderHeader } from './header.js';
import { rememberModerator } from './safety/moderator.js';
import * as api from './api.js';
import { showFile } from './moderation/file.js';
import { showLog } from './moderation/log.js';
import { showQueue } from './moderation/queue.js';

const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);

function refuse(error) {
  $('desk-status').textContent = '';
  $('refused-text').textContent = error.status === 401
    ? 'Only moderators can see this page. Sign in with your moderator\'s account first.'
    : 'Only moderators can see this page.';
  $('refused').hidden = false;
  document.title = 'Moderators only — Outflank';
}

/** Marks the view's tab current (none for a player's file). */
function markTab(view) {
  for (const [id, name] of [['tab-queue', 'queue'], ['tab-log', 'log']]) {
    if (name === view) $(id).setAttribute('aria-current', 'page');
    else $(id).removeAttribute('aria-current');
  }
}

async function open() {
  const { me, account } = await whoAmI();
  // Without an account the server's answer is known: no need to ask it for a 401.
  if (!account) {
    refuse({ status: 401 });
    return;
  }
  let answer;
  try {
    answer = await api.modMe();
  } catch (error) {
    if (error.status === 401) {
      rememberModerator(me.id, false);
      refuse(error);
      return;
    }
    throw error;
  }
  if (answer.moderator !== true) {
    rememberModerator(me.id, false);
    refuse({ status: 403 });
    return;
  }
  // The header learns it here too: a new moderator's link shows from this page on.
  rememberModerator(me.id, true);
  renderHeader();
  $('desk').hidden = false;
  $('desk-status').textContent = 'Loading…';
  const player = params.get('player');
  if (player) {
    markTab(null);
    await showFile(player);
  } else if (params.get('view') === 'log') {
    markTab('log');
    document.title = 'Log — Moderation — Outflank';
    await showLog();
  } else {
    markTab('queue');
    await showQueue();
  }
  $('desk-status').textContent = '';
}

open().catch((error) => {
  $('desk-status').textContent = '';
  $('desk-error').textContent = error.status === 404
    ? 'There is no such player.'
    : `The desk could not be loaded: ${error.message}`;
});
