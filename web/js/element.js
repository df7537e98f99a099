// Building the page from script: an element with its attributes and children in one call.

/**
 * `<tag>` with `attributes` (`class`, `id`, `aria-*`…; a `false`, `null` or `undefined` value
 * leaves the attribute out, `true` sets it empty) and `children` (nodes, or text, in arrays as
 * deep as convenient; `null` and `false` are skipped).
 */
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === false || value === null || value === undefined) continue;
    node.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children.flat(Infinity)) {
    if (child === null || child === false || child === undefined) continue;
    node.append(child);
  }
  return node;
}
