// Reading the game page as a player sees it, and measuring how it behaves.

/** The move list as it reads on screen: "1. d3 c5 2. f6 pass". */
export const movesAsShown = (page) => page.evaluate(() => [...document.querySelectorAll('#moves li')].map((item) => {
  const number = item.querySelector('.move-no')?.textContent;
  const move = [...item.querySelector('.move').childNodes].filter((node) => node.nodeType === Node.TEXT_NODE)
    .map((node) => node.textContent).join('');
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
