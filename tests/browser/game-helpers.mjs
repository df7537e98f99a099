// Reading the game page as a player sees it, and measuring how it behaves.

/** The move list as it reads on screen, each move with its number: "1. d3 2. c5 3. f6 pass". */
export const movesAsShown = (page) => page.evaluate(() => [...document.querySelectorAll('#moves li')].map((item) => {
  const number = item.querySelector('.move-no')?.textContent;
  const move = [...item.querySelector('.move').childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
    .map((node) => node.textContent).join('').trim();
  return number ? `${number} ${move}` : move;
}).join(' '));

/** Waits (up to 10 s) until the move list reads `text`. */
export async function waitForMoves(page, text) {
  const deadline = Date.now() + 10000;
  let shown = await movesAsShown(page);
  while (shown !== text) {
    if (Date.now() > deadline) throw new Error(`the move list reads "${shown}", not "${text}"`);
    await new Promise((resolve) => setTimeout(resolve, 50));
    shown = await movesAsShown(page);
  }
}

/** Starts summing the page's layout shifts that no input caused (Cumulative Layout Shift). */
export async function watchLayoutShift(page) {
  await page.evaluate(() => {
    window.layoutShift = { total: 0, sources: [] };
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        if (entry.hadRecentInput) continue;
        window.layoutShift.total += entry.value;
        for (const source of entry.sources || []) {
          const node = source.node;
          const name = node && node.nodeType === 1 ? `${node.tagName.toLowerCase()}#${node.id}.${[...node.classList].join('.')}` : String(node && node.nodeName);
          const was = source.previousRect;
          const now = source.currentRect;
          window.layoutShift.sources.push(`${name} ${entry.value.toFixed(4)} (${Math.round(was.y)}→${Math.round(now.y)}, h ${Math.round(was.height)}→${Math.round(now.height)})`);
        }
      }
    }).observe({ type: 'layout-shift', buffered: true });
  });
}

/** The layout shift summed since `watchLayoutShift`, and what moved. */
export const layoutShift = (page) => page.evaluate(() => window.layoutShift);

/** The squares of `#board` that something else covers: at each square's centre and near its
 *  four corners, the element on top must be the board's own. The board is scrolled into view
 *  first; returns `{checked, covered}` where `covered` names each square and what is over it. */
export const coveredSquares = (page) => page.evaluate(() => {
  const board = document.querySelector('#board');
  board.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  const covered = [];
  let checked = 0;
  for (const square of board.querySelectorAll('[data-square]')) {
    const rect = square.getBoundingClientRect();
    checked += 1;
    for (const [fx, fy] of [[0.5, 0.5], [0.15, 0.15], [0.85, 0.15], [0.15, 0.85], [0.85, 0.85]]) {
      const top = document.elementFromPoint(rect.left + rect.width * fx, rect.top + rect.height * fy);
      if (top && board.contains(top)) continue;
      const name = top ? `${top.tagName.toLowerCase()}#${top.id}.${[...top.classList].join('.')}` : 'outside the window';
      covered.push(`${square.dataset.square} under ${name}`);
      break;
    }
  }
  return { checked, covered };
});

/** Fails unless all 64 squares of the board can be seen, nothing over any of them. */
export async function assertBoardUncovered(page, when) {
  const { checked, covered } = await coveredSquares(page);
  if (checked !== 64 || covered.length) {
    throw new Error(`${when}: ${checked} squares checked; covered: ${covered.join(', ') || 'none'}`);
  }
}
