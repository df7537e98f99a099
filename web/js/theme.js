// The colours of every page: the system's light or dark, or one chosen by hand (the select in
// the site footer) and remembered in this browser. The stylesheet gives every colour as
// `light-dark(light, dark)`; the root's `data-theme` fixes which one applies.
const KEY = 'outflank.theme';
const THEMES = Object.freeze(['system', 'light', 'dark']);

/** The theme chosen in this browser: 'system' unless 'light' or 'dark' was. */
export function chosenTheme() {
  try {
    const theme = localStorage.getItem(KEY);
    return THEMES.includes(theme) ? theme : 'system';
  } catch {
    return 'system';
  }
}

/** Shows the page in `theme`. */
export function applyTheme(theme) {
  const root = document.documentElement;
  if (theme === 'light' || theme === 'dark') root.dataset.theme = theme;
  else delete root.dataset.theme;
}

/** Makes the page's theme choosers choose, remember and show the theme. */
function wireChoosers() {
  for (const select of document.querySelectorAll('select[data-theme-choice]')) {
    select.value = chosenTheme();
    select.addEventListener('change', () => {
      const theme = THEMES.includes(select.value) ? select.value : 'system';
      try { localStorage.setItem(KEY, theme); } catch { /* private mode: this page only */ }
      applyTheme(theme);
    });
  }
}

applyTheme(chosenTheme());
wireChoosers();
