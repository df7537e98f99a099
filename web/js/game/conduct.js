// Report and Block on the game page, in a card of their own at the end of the controls (never
// near the board): a signed-in player reports their opponent, and once the game is over may
// block them; a signed-in spectator chooses which player to report. Nobody reports the
// computer or themselves, and a guest is told to sign in.
import { signInUrl, whoAmI } from '../account.js';
import { el } from '../element.js';
import { Mode, Side, Status } from '../protocol.js';
import { SIDE_NAME } from '../notation/words.js';
import { blockButton, myBlocks, sameName } from '../safety/blocks.js';
import { openReport } from '../safety/report-dialog.js';

const $ = (id) => document.getElementById(id);

let latest = null; // the model last drawn
let drawn = ''; // what the card shows, so that a new model with the same people redraws nothing

/** The seats of people other than the viewer. */
function others(game) {
  if (game.mode === Mode.SAME_DEVICE) return [];
  return [Side.BLACK, Side.WHITE].filter((side) => side !== game.you
    && game.players[side] && !game.players[side].computer);
}

function draw(who) {
  const { game } = latest;
  const sides = others(game);
  const player = game.you === Side.BLACK || game.you === Side.WHITE;
  const over = game.status !== Status.LIVE;
  const key = [who.account ? 'account' : who.google ? 'guest' : 'none', game.you, over,
    ...sides.map((side) => `${side}:${game.players[side].name}`)].join('|');
  if (key === drawn) return;
  drawn = key;
  const card = $('conduct');
  const actions = $('conduct-actions');
  if (!sides.length || (!who.account && !who.google)) {
    card.hidden = true;
    return;
  }
  if (!who.account) {
    $('conduct-title').textContent = 'Report a player';
    actions.replaceChildren(el('p', { class: 'muted', id: 'conduct-sign-in' },
      el('a', { href: signInUrl() }, 'Sign in'), ' to report a player who broke the rules.'));
    card.hidden = false;
    return;
  }
  const status = $('conduct-status');
  const targets = sides.map((side) => ({
    name: game.players[side].name,
    label: `${game.players[side].name} (${SIDE_NAME[side]})`,
    target: { game: game.game_id, color: side },
  }));
  const report = el('button', { type: 'button', id: 'report-player' },
    targets.length === 1 ? `Report ${targets[0].name}` : 'Report a player');
  report.addEventListener('click', () => openReport({
    targets,
    onSent: (filed) => { status.textContent = `Report received: a moderator will look at what ${filed.name} did.`; },
  }));
  actions.replaceChildren(report);
  // Blocking an opponent, once the game is over.
  const blockable = player && over && targets.length === 1;
  $('conduct-title').textContent = blockable ? 'Report or block' : 'Report a player';
  card.hidden = false;
  if (blockable) {
    const [opponent] = targets;
    const mine = drawn;
    myBlocks().then((blocks) => {
      if (drawn !== mine) return; // drawn again meanwhile
      const blocked = blocks.find((entry) => sameName(entry.name, opponent.name));
      const button = blockButton({ name: opponent.name, target: opponent.target, blockedId: blocked ? blocked.id : null, status });
      button.id = 'block-player';
      actions.append(button);
    });
  }
}

/** Draws the card for `model` once the page knows who the visitor is. */
export function renderConduct(model) {
  latest = model;
  whoAmI().then(draw);
}
