// Copying a link: the Clipboard API, or, where it is missing or refused, the older copy
// command on the selected text.

/** Selects the text of `node`, for the player to copy themselves if need be. */
export function selectContents(node) {
  const range = document.createRange();
  range.selectNodeContents(node);
  getSelection().removeAllRanges();
  getSelection().addRange(range);
}

/** Copies `text`, or, where the Clipboard API is missing or refused, selects `node` for the
 *  older copy command. True when either worked. */
export async function copyText(text, node) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    selectContents(node);
    try {
      return document.execCommand('copy');
    } catch {
      return false;
    }
  }
}
