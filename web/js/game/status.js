// The words around the board: the turn line, the notes under the board (a pass, looking
// back, a draw offer) and the position as text. Each reads the model and nothing else.
import { Seat, Status } from '../protocol.js';
import { SIDE_NAME } from '../notation/words.js';
import { afterWords } from '../notation/numbering.js';
import { isPlayer, playerName } from './model.js';

const $ = (id) => document.getElementById(id);

export function renderTurn(model) {
  const { game } = model;
  const turn = $('turn');
  const side = game.to_move;
  if (game.status !== Status.LIVE || !side) turn.textContent = game.you === Seat.SPECTATOR ? 'Game over · you are watching' : 'Game over';
  else if (game.you === Seat.BOTH) turn.textContent = `${SIDE_NAME[side]} to move`;
  else if (game.you === side) turn.textContent = `Your move (${SIDE_NAME[side]})`;
  else if (game.players[side].computer) turn.textContent = 'The computer is thinking…';
  else if (game.you === Seat.SPECTATOR) turn.textContent = `${playerName(game, side)} (${SIDE_NAME[side]}) to move · you are watching`;
  else turn.textContent = `Waiting for ${playerName(game, side)} (${SIDE_NAME[side]})`;
}

/** The pass, looking-back and draw-offer notes, in their kept places under the board. */
export function renderOverlays(model) {
  const { game } = model;
  const pass = $('pass-banner');
  pass.hidden = !model.pass || model.viewing !== null || game.status !== Status.LIVE;
  pass.textContent = model.pass;

  const note = $('viewing');
  note.hidden = model.viewing === null;
  note.textContent = model.viewing === null ? '' : `Looking back: the position after ${afterWords(game.moves, model.viewing)}. Press Live position (or End) to return.`;

  const banner = $('draw-banner');
  const offer = game.draw_offer;
  banner.hidden = !offer || game.status !== Status.LIVE;
  if (!banner.hidden) {
    const mine = game.you === offer;
    $('draw-text').textContent = mine ? 'You offered a draw. Waiting for the answer.' : `${playerName(game, offer)} offers a draw.`;
    $('draw-answer').hidden = mine || !isPlayer(game);
  }
}

/** The position shown, as text for screen readers and anyone who wants it. */
export function renderDescription(model, shown) {
  const squares = { X: [], O: [] };
  for (let index = 0; index < 64; index += 1) {
    const code = shown.board[index];
    if (code in squares) squares[code].push(`${'abcdefgh'[index % 8]}${Math.floor(index / 8) + 1}`);
  }
  const { game } = model;
  const turn = !shown.live ? `After ${afterWords(game.moves, model.viewing)}. ` : game.status === Status.LIVE ? `${SIDE_NAME[game.to_move]} to move. ` : 'The game is over. ';
  $('description').textContent = `${turn}Black (${squares.X.length}): ${squares.X.join(', ') || 'none'}. `
    + `White (${squares.O.length}): ${squares.O.join(', ') || 'none'}. ${shown.counts.empty} empty squares.`;
}
