// The queue: the players with open reports, the one reported longest ago first, each with
// their reports and a link to their file, where the moderator acts.
import * as api from '../api.js';
import { el } from '../element.js';
import { timeElement } from '../safety/words.js';
import { fileUrl } from './format.js';
import { reportItem } from './reports.js';

const $ = (id) => document.getElementById(id);

function playerItem(player) {
  const reports = player.reports || [];
  const heading = el('h3', { class: 'queue-name' },
    el('a', { href: fileUrl(player.id) }, player.name, el('span', { class: 'visually-hidden' }, ': open the file')));
  const meta = el('p', { class: 'muted queue-meta' },
    `${reports.length} open report${reports.length === 1 ? '' : 's'} · the oldest `, timeElement(player.oldest_at, true));
  return el('li', { class: 'card queue-player', 'data-player': player.id },
    heading, meta, el('ul', { class: 'report-list' }, reports.map((report) => reportItem(report))));
}

export async function showQueue() {
  const { players = [] } = await api.modQueue();
  $('queue-list').replaceChildren(...players.map(playerItem));
  $('queue-empty').hidden = players.length > 0;
  $('queue-view').hidden = false;
}
