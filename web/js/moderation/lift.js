// Lifting a sanction, from a player's file or the log's Undo: confirmed with a reason, saying
// what lifting undoes.
import * as api from '../api.js';
import { sanctionName } from '../safety/words.js';
import { askReason } from './reason-dialog.js';

/** What lifting each sanction undoes. */
const LIFTING = Object.freeze({
  engine: 'The label goes, they may play ranked games again, and the rating points given back to their opponents are taken back.',
  name: 'Their old name comes back if nobody took it and they chose none since; their games show it again.',
  closed: 'They can sign in again, and their games show their name again.',
});

/** The question, by kind. */
const TITLES = Object.freeze({
  engine: (name) => `Lift the engine-assistance sanction on ${name}?`,
  name: (name) => `Undo the reset of ${name}'s name?`,
  closed: (name) => `Reopen ${name}'s account?`,
});

/** Lifts sanction `sanction`, confirmed with a reason; `then` runs once it is lifted. */
export function liftSanction(sanction, name, then) {
  askReason({
    title: (TITLES[sanction.kind] || ((who) => `Lift the ${sanctionName(sanction.kind)} sanction on ${who}?`))(name),
    about: LIFTING[sanction.kind] || '',
    confirm: 'Lift the sanction',
    run: async (reason) => {
      await api.liftSanction(sanction.id, reason);
      return then;
    },
  });
}
