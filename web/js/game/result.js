// The result under the board at the end: what happened to the viewer, the score, why, the
// rating change, and the way on (a rematch, a new game, the review). It covers nothing, so it
// stays while the player looks back through the game.
import { Mode, Seat, Side, Status } from '../protocol.js';
import { formatChange, formatRating, profileUrl } from '../account.js';
import { SIDE_NAME } from '../notation/words.js';
import { isPlayer, playerName, reasonText, resultTitle, scoreText } from './model.js';

const $ = (id) => document.getElementById(id);
const isSide = (seat) => seat === Side.BLACK || seat === Side.WHITE;

/** Draws the result bar, shown once the game is over. */
export function renderResult(model) {
  const { game } = model;
  const over = game.status !== Status.LIVE && Boolean(game.result);
  $('result').hidden = !over;
  if (!over) return;
  $('result-title').textContent = resultTitle(model);
  $('result-score').textContent = scoreText(game.counts);
  $('result-reason').textContent = reasonText(model);
  renderRating(model);
  const rematch = $('rematch');
  const { asked, left, game_id: next } = game.rematch;
  const status = $('rematch-status');
  if (next) {
    // Agreed already (this page was opened again later): the rematch is one link away.
    rematch.hidden = true;
    const link = document.createElement('a');
    link.id = 'rematch-link';
    link.href = `/game/${encodeURIComponent(next)}`;
    link.textContent = 'Go to the rematch';
    status.replaceChildren('The rematch has started. ', link);
    return;
  }
  rematch.hidden = !isPlayer(game) || left.length > 0 || (game.you !== Seat.BOTH && asked.includes(game.you));
  // A ranked game's rematch is a quick game: the button says it will not be rated.
  rematch.textContent = game.mode === Mode.RANKED ? 'Rematch (not rated)' : 'Rematch';
  let text = '';
  if (left.length) text = 'Your opponent left: no rematch in this game.';
  else if (game.you !== Seat.BOTH && asked.includes(game.you)) text = 'Rematch asked. Waiting for your opponent…';
  else if (asked.length && isPlayer(game)) text = `${playerName(game, asked[0])} wants a rematch.`;
  status.textContent = text;
}

/** The result panel's rating lines: a player sees their own, anyone else both. */
function renderRating(model) {
  const { game, ratingChanges } = model;
  const box = $('result-rating');
  box.replaceChildren();
  if (!ratingChanges) return;
  const player = isSide(game.you);
  for (const side of player ? [game.you] : [Side.BLACK, Side.WHITE]) {
    const change = ratingChanges[side];
    if (!change) continue;
    const line = document.createElement('span');
    line.className = 'rating-line';
    line.dataset.side = side;
    if (player) {
      line.append('Your rating: ');
    } else {
      const name = game.players[side] && !game.players[side].computer ? game.players[side].name : null;
      if (name) {
        const link = document.createElement('a');
        link.href = profileUrl(name);
        link.textContent = name;
        line.append(link, ` (${SIDE_NAME[side]}): `);
      } else {
        line.append(`${SIDE_NAME[side]}: `);
      }
    }
    const value = document.createElement('span');
    value.className = change.change > 0 ? 'change-up' : change.change < 0 ? 'change-down' : '';
    value.textContent = formatChange(change.change);
    line.append(value, ` · ${formatRating(change.after, change.provisional)}`);
    line.title = `Before: ${formatRating(change.before, false)}`;
    box.append(line);
  }
}
