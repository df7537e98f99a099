// Words shared by the pages.

/** The server's sentence for people, capitalised and ending in a full stop. */
export function sentence(text) {
  const trimmed = String(text || '').trim();
  if (!trimmed) return '';
  const capital = trimmed[0].toUpperCase() + trimmed.slice(1);
  return /[.!?]$/.test(capital) ? capital : `${capital}.`;
}

export const pluralDiscs = (n) => `${n} disc${n === 1 ? '' : 's'}`;
