// The game page's model: a pure reducer of the server's messages. `reduce(model, msg, now)`
// returns the next model and never touches the page; renderers draw it. `now` is the page's
// clock (performance.now()) when the message arrived, so that clocks count down to the
// server's deadline.
import { ServerMsg, Seat, Side, Status, other } from '../protocol.js';
import { countDiscs } from '../board/model.js';
import { controlName, pluralDiscs, sentence } from '../text.js';
import { formatChange, formatRating, spokenChange } from '../account.js';
import { SIDE_NAME } from '../notation/words.js';

/**
 * @typedef {object} Model
 * @property {object|null} game the server's view of the game (the snapshot, kept current)
 * @property {Map<number, {board: string, lastMove: object|null}>} positions by plies played
 * @property {number|null} viewing a ply count while looking back; null for the live position
 * @property {object|null} ratingChanges {black, white} once a ranked game is rated
 * @property {object|null} ratings the ratings shown by the names ({pool, black, white}, each
 *   {rating, provisional} or null), from GET /api/games/{id}
 * @property {number} clocksAt `now` when the clocks were last set
 * @property {string} announcement what the status line says
 * @property {string} pass who passed on the last change ('' for nobody)
 * @property {string} error the last refusal, in a sentence
 * @property {{black: boolean, white: boolean}} away sides announced as disconnected
 * @property {boolean} animate whether the last change is a move to animate
 * @property {boolean} missing the game does not exist
 */

/** @returns {Model} */
export const initialModel = () => ({
  game: null, positions: new Map(), viewing: null, ratingChanges: null, ratings: null, clocksAt: 0,
  announcement: '', pass: '', error: '', away: { black: false, white: false }, animate: false, missing: false,
});

const isSide = (seat) => seat === Side.BLACK || seat === Side.WHITE;

/** The next model after the server's message `msg`. */
export function reduce(model, msg, now) {
  const game = model.game;
  const next = { ...model, animate: false };
  switch (msg.type) {
    case ServerMsg.SNAPSHOT: {
      const fresh = { ...msg, moves: [...msg.moves], rematch: cloneRematch(msg.rematch) };
      next.game = fresh;
      if (msg.rating_changes) next.ratingChanges = msg.rating_changes;
      next.clocksAt = now;
      next.pass = '';
      next.error = '';
      next.positions = new Map([[fresh.moves.length, { board: fresh.board, lastMove: fresh.last_move, openingName: fresh.opening_name }]]);
      next.viewing = null;
      next.away = { black: false, white: false };
      if (fresh.status !== Status.LIVE) next.announcement = joinWords(resultSentence(next), ratingSentence(next));
      return next;
    }
    case ServerMsg.MOVED: {
      if (!game) return model;
      const changed = { ...game, ...pick(msg, ['board', 'to_move', 'legal', 'counts', 'clocks', 'last_move', 'opening_name']) };
      changed.moves = [...game.moves, ...msg.plies];
      changed.draw_offer = null;
      next.game = changed;
      next.clocksAt = now;
      next.positions = new Map(model.positions);
      for (const ply of msg.plies) next.positions.set(ply.number, { board: changed.board, lastMove: changed.last_move, openingName: changed.opening_name });
      next.animate = true;
      next.error = '';
      const words = [];
      next.pass = '';
      for (const ply of msg.plies) {
        if (ply.move === 'pass') {
          next.pass = `${SIDE_NAME[ply.color]} has no legal move and passes.`;
          words.push(next.pass);
        } else {
          const flips = msg.last_move && msg.last_move.square === ply.move ? msg.last_move.flips.length : 0;
          words.push(`${SIDE_NAME[ply.color]} played ${ply.move}, flipping ${pluralDiscs(flips)}.`);
        }
      }
      if (changed.to_move) words.push(`${SIDE_NAME[changed.to_move]} to move.`);
      next.announcement = words.join(' ');
      return next;
    }
    case ServerMsg.UNDONE: {
      if (!game) return model;
      const changed = { ...game, ...pick(msg, ['board', 'to_move', 'legal', 'counts', 'last_move', 'opening_name']) };
      changed.moves = game.moves.slice(0, msg.ply_count);
      next.game = changed;
      next.pass = '';
      next.error = '';
      next.positions = new Map([...model.positions].filter(([count]) => count <= msg.ply_count));
      next.positions.set(msg.ply_count, { board: changed.board, lastMove: changed.last_move, openingName: changed.opening_name });
      if (model.viewing !== null && model.viewing >= msg.ply_count) next.viewing = null;
      next.announcement = `Move taken back. ${SIDE_NAME[changed.to_move]} to move.`;
      return next;
    }
    case ServerMsg.DRAW_OFFERED:
      if (!game) return model;
      next.game = { ...game, draw_offer: msg.by };
      next.error = '';
      next.announcement = game.you === msg.by ? 'You offered a draw.' : `${SIDE_NAME[msg.by]} offers a draw.`;
      return next;
    case ServerMsg.DRAW_DECLINED:
      if (!game) return model;
      next.game = { ...game, draw_offer: null };
      next.announcement = game.you === msg.by ? 'You declined the draw.' : `${SIDE_NAME[msg.by]} declined the draw.`;
      return next;
    case ServerMsg.ENDED: {
      if (!game) return model;
      // The clocks stop where they were, so the page keeps its shape.
      const clocks = game.clocks ? { ...game.clocks, ...frozenClocks(game.clocks, now - model.clocksAt), running: null } : null;
      next.game = {
        ...game, status: msg.status, result: msg.result, counts: msg.counts, to_move: null, legal: [], clocks, draw_offer: null,
      };
      next.clocksAt = now;
      next.pass = '';
      next.error = '';
      next.announcement = resultSentence(next);
      return next;
    }
    case ServerMsg.REMATCH_ASKED:
      if (!game) return model;
      next.game = { ...game, rematch: addSide(game.rematch, 'asked', msg.by) };
      return next;
    case ServerMsg.LEFT:
      if (!game) return model;
      next.game = { ...game, rematch: addSide(game.rematch, 'left', msg.by) };
      return next;
    case ServerMsg.PRESENCE: {
      if (!game) return model;
      next.game = { ...game, presence: { black: msg.black, white: msg.white } };
      const opponent = isSide(game.you) ? other(game.you) : null;
      if (!opponent || game.status !== Status.LIVE) return next;
      // "Back" only after "disconnected": joining at the start is not coming back.
      if (!msg[opponent] && !model.away[opponent]) {
        next.away = { ...model.away, [opponent]: true };
        next.announcement = `${playerName(game, opponent)} has disconnected; their clock keeps running.`;
      } else if (msg[opponent] && model.away[opponent]) {
        next.away = { ...model.away, [opponent]: false };
        next.announcement = `${playerName(game, opponent)} is back.`;
      }
      return next;
    }
    case ServerMsg.RATING_CHANGED:
      next.ratingChanges = { black: msg.black, white: msg.white };
      if (!game) return next;
      next.announcement = joinWords(resultSentence(next), ratingSentence(next));
      return next;
    case ServerMsg.ERROR:
      if (msg.code === 'game_not_found') {
        next.missing = true;
        next.error = 'This game does not exist.';
      } else {
        next.error = sentence(msg.message) || 'The server refused that.';
      }
      return next;
    default:
      return model;
  }
}

/** Looks at the position after `count` plies (null, or the live count: the live position). */
export function view(model, count) {
  if (!model.game) return model;
  const viewing = count === null || count === model.game.moves.length || !model.positions.has(count) ? null : count;
  return { ...model, viewing, animate: false };
}

/** Adds the positions of the stored game (`GET /api/games/{id}`) that this page has not seen. */
export function withStored(model, stored) {
  const next = { ...model, animate: false, positions: new Map(model.positions) };
  if (stored.rating_changes) next.ratingChanges = stored.rating_changes;
  if (stored.ratings) next.ratings = stored.ratings;
  if (stored.start) next.start = stored.start; // the start position (the analysis board's link needs it)
  if (!model.game) return next;
  for (const position of stored.positions || []) {
    if (position.ply <= model.game.moves.length && !next.positions.has(position.ply)) {
      next.positions.set(position.ply, { board: position.board, lastMove: position.last_move, openingName: position.opening_name ?? null });
    }
  }
  return next;
}

/** A refusal made by the page itself (not connected, a typo in a move). */
export const withError = (model, error) => ({ ...model, error, animate: false });

// --- what the model says ----------------------------------------------------------------

/** A player's name; on one device the two sides are one person's, so they go by colour. */
const MODE_STAKES = Object.freeze({
  ranked: 'Ranked', quick: 'Quick game', friend: 'With a friend', computer: 'Against the computer',
  same_device: 'On this device',
});

/** What kind of game this is and how it is timed: "Ranked · 3+2", "With a friend · 2 days a
 *  move", "Against the computer · no clock · XOT opening". */
export function stakesLine(game) {
  const mode = MODE_STAKES[game.mode] || 'Game';
  const xot = game.opening ? ' · XOT opening' : '';
  return `${mode} · ${game.control ? controlName(game.control) : 'no clock'}${xot}`;
}

/** The rating shown by `side`'s name: the rating the game is played at ("1,512", "1,214?"
 *  while provisional) and, once a rated game is rated, its change ("1,512 +12"); '' for the
 *  computer and guests. */
export function ratingText(model, side) {
  const shown = model.ratings && model.ratings[side];
  const change = model.ratingChanges && model.ratingChanges[side];
  if (!shown && !change) return '';
  const before = shown ? formatRating(shown.rating, shown.provisional) : formatRating(Math.round(change.before), false);
  return change ? `${before} ${formatChange(change.change)}` : before;
}

export const playerName = (game, side) => (game.mode === 'same_device' ? SIDE_NAME[side] : game.players[side].name);

/** The board shown: the live one, or the one looked back at, with its disc counts. */
export function shownPosition(model) {
  const { game } = model;
  if (model.viewing !== null && model.positions.has(model.viewing)) {
    const seen = model.positions.get(model.viewing);
    return {
      board: seen.board, lastMove: seen.lastMove, counts: countDiscs(seen.board), openingName: seen.openingName ?? null, live: false,
    };
  }
  return { board: game.board, lastMove: game.last_move, counts: game.counts, openingName: game.opening_name ?? null, live: true };
}

/** Whether the viewer plays in this game (one side, or both on one device). */
export const isPlayer = (game) => Boolean(game) && game.you !== Seat.SPECTATOR;

/** Whether the viewer may move now. */
export const canPlay = (game) =>
  Boolean(game) && game.status === Status.LIVE && (game.you === Seat.BOTH || game.you === game.to_move);

/** When the side to move of a live daily game must have moved, in milliseconds on the page's
 *  clock (`now`'s), or null for other games. */
export function dailyDeadline(model, now) {
  const game = model.game;
  if (!game || game.status !== Status.LIVE || !/^\d+d$/.test(game.control || '')) return null;
  const running = game.clocks && game.clocks.running;
  if (!running) return null;
  return now + clockLeft(model, running, now);
}

/** The milliseconds left on `side`'s clock at `now`, or null for an untimed game. */
export function clockLeft(model, side, now) {
  const clocks = model.game && model.game.clocks;
  if (!clocks) return null;
  let ms = clocks[`${side}_ms`];
  if (clocks.running === side) ms -= now - model.clocksAt;
  return Math.max(0, ms);
}

/** The headline of the result, for the viewer: "You won", "You lost", "Black wins", "Draw". */
export function resultTitle(model) {
  const { game } = model;
  const { winner } = game.result;
  if (game.status === Status.ABORTED || winner === null) return 'Game aborted';
  if (winner === 'draw') return 'Draw';
  if (isSide(game.you)) return game.you === winner ? 'You won' : 'You lost';
  return `${SIDE_NAME[winner]} wins`;
}

/** Why the game ended, in a sentence. */
export function reasonText(model) {
  const { game } = model;
  const { winner, reason } = game.result;
  const loser = winner && winner !== 'draw' ? other(winner) : null;
  const who = (side) => (game.you === side ? 'You' : `${SIDE_NAME[side]}`);
  switch (reason) {
    case 'resignation': return `${who(loser)} resigned.`;
    case 'timeout': return `${who(loser)} ran out of time.`;
    case 'agreed_draw': return 'Draw agreed.';
    case 'aborted': return 'A side never made its first move in time; the game does not count.';
    default: return game.counts && game.counts.empty === 0
      ? 'The board is full.'
      : 'No legal moves were left for either side.';
  }
}

export const scoreText = (counts) => `Black ${counts.black} · White ${counts.white} · ${counts.empty} empty`;

export function resultSentence(model) {
  const { game } = model;
  if (!game || !game.result) return '';
  return `Game over. ${resultTitle(model)}: ${scoreText(game.counts)}. ${reasonText(model)}`;
}

/** The rating change in words: the viewer's own, or both sides' for others. */
export function ratingSentence(model) {
  const { game, ratingChanges } = model;
  if (!ratingChanges || !game) return '';
  if (isSide(game.you)) {
    const mine = ratingChanges[game.you];
    return mine ? `Your rating: ${format(mine)}.` : '';
  }
  return [Side.BLACK, Side.WHITE]
    .filter((side) => ratingChanges[side])
    .map((side) => `${playerName(game, side)}'s rating: ${format(ratingChanges[side])}.`)
    .join(' ');
}

const format = (change) =>
  `${spokenChange(change.change)} to ${formatRating(change.after, false)}${change.provisional ? ' (provisional)' : ''}`;

// --- small helpers ----------------------------------------------------------------------

const joinWords = (...parts) => parts.filter(Boolean).join(' ');

function pick(msg, fields) {
  const out = {};
  for (const field of fields) if (field in msg) out[field] = msg[field];
  return out;
}

function frozenClocks(clocks, elapsed) {
  if (!clocks.running) return {};
  const key = `${clocks.running}_ms`;
  return { [key]: Math.max(0, clocks[key] - elapsed) };
}

const cloneRematch = (rematch) => ({
  asked: [...((rematch && rematch.asked) || [])],
  left: [...((rematch && rematch.left) || [])],
  game_id: (rematch && rematch.game_id) || null,
});

function addSide(rematch, list, side) {
  const copy = cloneRematch(rematch);
  if (!copy[list].includes(side)) copy[list].push(side);
  return copy;
}
