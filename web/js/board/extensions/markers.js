// Markers drawn over the squares: legal-move dots, the last move's ring, the preview of a
// move (a faint disc and its would-flip squares) and the page's own marks (the engine's best
// move, or every move's value on the analysis board, exact ones marked). Each is a class on the square, derived from the board's state alone.

/** The marker classes of square `index`, each with whether it is on. */
export function markers(state, index) {
  const legal = state.legal.has(index);
  const preview = state.previewed;
  return {
    legal,
    dot: legal && state.dots,
    last: index === state.last,
    preview: index === preview,
    'would-flip': preview !== null && state.legal.get(preview).includes(index),
    'page-mark': state.marks.has(index),
    'mark-value': state.marks.has(index) && state.marks.get(index).kind === 'value',
    'mark-exact': state.marks.has(index) && state.marks.get(index).exact === true,
  };
}

/** The text of the page's mark on square `index` ('' for none). */
export const markText = (state, index) => (state.marks.has(index) ? state.marks.get(index).text : '');

/** Sets the preview's flip count on the board element, for styles and tests. */
export function markPreviewCount(root, state) {
  if (state.previewed === null) delete root.dataset.previewFlips;
  else root.dataset.previewFlips = String(state.legal.get(state.previewed).length);
}
