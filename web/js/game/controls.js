// The controls of a player: moves, undo, draw and resign during the game, the way on after it,
// the typed move and the legal-move buttons; and the note for spectators and stand-ins. The card
// keeps its place and size whatever it shows.
import { Mode, Seat, Status } from '../protocol.js';
import { pluralDiscs } from '../text.js';
import { SIDE_NAME } from '../notation/words.js';
import { canPlay, isPlayer } from './model.js';

const $ = (id) => document.getElementById(id);
const TIMED = new Set([Mode.FRIEND, Mode.QUICK, Mode.RANKED]);

/** Draws the controls; `board` gets the legal moves when the viewer may move, `showLegal` says
 *  whether they are marked, and `play(square)` plays a legal-move button. */
export function renderControls(model, { board, showLegal, play }) {
  const { game } = model;
  const live = game.status === Status.LIVE;
  const player = isPlayer(game);
  const playable = canPlay(game) && model.viewing === null;
  board.showMoves(playable ? game.legal : [], { mover: game.to_move, dots: showLegal });

  // The controls card keeps its place and size; the live controls under the board give way
  // to the result at the end.
  $('actions').hidden = !player;
  $('live-actions').hidden = !live || !player;
  $('type-move').hidden = !live;
  $('legal-moves').hidden = !live || !showLegal;
  // Untimed games against the computer and on one device may take moves back.
  $('undo').hidden = !(live && !TIMED.has(game.mode) && !game.clocks);
  $('undo').disabled = !game.moves.length;
  $('offer-draw').hidden = !(live && TIMED.has(game.mode) && game.you !== Seat.BOTH);
  $('offer-draw').disabled = game.draw_offer !== null;
  $('resign').hidden = !live;
  $('resign').textContent = game.you === Seat.BOTH && game.to_move ? `Resign for ${SIDE_NAME[game.to_move]}` : 'Resign';
  $('move-input').setAttribute('aria-disabled', playable ? 'false' : 'true');
  $('type-move-play').setAttribute('aria-disabled', playable ? 'false' : 'true');
  renderLegalList(model, playable && showLegal, play);

  const note = $('role-note');
  // The matchmaker's computer stand-in is a computer game the server marks as one.
  const standIn = game.mode === Mode.COMPUTER && game.stand_in === true;
  if (game.you === Seat.SPECTATOR) {
    note.textContent = live
      ? 'You are watching this game. Moves appear as they are played.'
      : 'This game is over: step through its moves with the list or the arrow keys.';
  } else if (standIn) {
    note.textContent = 'Nobody else was free when you pressed Play, so the computer stands in at a level '
      + 'near your rating. This game is not rated.';
  } else {
    note.textContent = '';
  }
  note.hidden = !note.textContent;
  // Spectators of a live game are here to watch, not to import.
  $('import').hidden = game.you === Seat.SPECTATOR && live;
}

function renderLegalList(model, show, play) {
  const list = $('legal-list');
  const { game } = model;
  const key = show ? game.legal.map((move) => move.square).join(' ') : 'waiting';
  if (list.dataset.key === key) return;
  list.dataset.key = key;
  const hadFocus = list.contains(document.activeElement);
  list.replaceChildren();
  if (!show) {
    const wait = document.createElement('p');
    wait.className = 'muted';
    wait.textContent = 'Your legal moves appear here on your turn.';
    list.append(wait);
  }
  for (const move of show ? game.legal : []) {
    const button = document.createElement('button');
    button.type = 'button';
    button.dataset.square = move.square;
    button.textContent = move.square;
    button.title = `Flips ${pluralDiscs(move.flips.length)}`;
    button.addEventListener('click', () => play(move.square));
    list.append(button);
  }
  // The focus stays in the controls: on the first legal move, or on the move box.
  if (hadFocus) (list.querySelector('button') || $('move-input')).focus();
}
