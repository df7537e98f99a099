// Small helpers shared by the home page's modules.

export const $ = (id) => document.getElementById(id);

/** The server's sentence for people, capitalised and ending in a full stop. */
export function sentence(text) {
  const trimmed = String(text || '').trim();
  if (!trimmed) return '';
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?…]$/.test(capital) ? capital : `${capital}.`;
}

const pageError = $('home-error');

/** Says what went wrong under the ways to play (or clears it with ''). */
export function showPageError(message) {
  pageError.textContent = message;
}

/** Runs `action` with `button` disabled; a failure is shown under the ways to play. */
export async function busy(button, action) {
  button.disabled = true;
  showPageError('');
  try {
    await action();
  } catch (error) {
    showPageError(sentence(error.message));
  } finally {
    button.disabled = false;
  }
}
