// Blocks: a Block / Unblock button (on a profile, and by a finished game's opponent) and the
// signed-in account's list, which the lobby uses to leave out the names it hides.
import * as api from '../api.js';
import { el } from '../element.js';
import { sentence } from '../text.js';

/** The account's blocks, `[{id, name, since}]`; none when they cannot be read. */
export async function myBlocks() {
  try {
    const answer = await api.blocks();
    return Array.isArray(answer.blocks) ? answer.blocks : [];
  } catch {
    return [];
  }
}

/** Whether two shown names are one (names are unique whatever their case). */
export const sameName = (a, b) => String(a).toLowerCase() === String(b).toLowerCase();

/**
 * A button that blocks `name` (`target`: the body naming them, `{name}` or `{game, color}`)
 * and, once blocked, lifts the block. `blockedId`: their id when blocked already. What
 * happened is said in `status` (a live region).
 */
export function blockButton({ name, target, blockedId = null, status, onChange = () => {} }) {
  const button = el('button', { type: 'button', class: 'block-button' });
  let blocked = blockedId;
  const draw = () => {
    button.textContent = blocked ? `Unblock ${name}` : `Block ${name}`;
    button.dataset.blocked = String(Boolean(blocked));
  };
  draw();
  button.addEventListener('click', async () => {
    button.disabled = true;
    try {
      if (blocked) {
        await api.unblock(blocked);
        blocked = null;
        status.textContent = `You unblocked ${name}.`;
      } else {
        const added = await api.block(target);
        blocked = added.id;
        status.textContent = `You blocked ${name}: you will not be paired with them, and the lobby no longer shows them to you.`;
      }
      draw();
      onChange(blocked);
    } catch (error) {
      status.textContent = sentence(error.message);
    } finally {
      button.disabled = false;
    }
  });
  return button;
}
