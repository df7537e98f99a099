// The review's evaluation graph, drawn by hand in SVG: Black's value after every ply (above
// zero Black is ahead, below it White), mistakes and blunders marked, the ply shown on the
// board highlighted. A click, tap or drag picks the nearest ply; the graph is a slider for
// assistive technology (the page's ← → Home End step it) and has a table of every value.
import { exactFrom, graphLimit, graphRows, nearestPly, pointWords } from './review-model.js';

const SVG = 'http://www.w3.org/2000/svg';
const MARGIN = Object.freeze({ top: 8, right: 10, bottom: 22, left: 50 });
const MARKED = new Set(['mistake', 'blunder']);

function svg(tag, attributes = {}, text = '') {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text) node.textContent = text;
  return node;
}

const r = (value) => Math.round(value * 100) / 100;

export class EvalGraph {
  /**
   * @param {HTMLElement} container where the graph goes (its height comes from the stylesheet)
   * @param {{onPick: (ply: number) => void, idPrefix?: string}} options
   */
  constructor(container, { onPick, idPrefix = 'review-graph' }) {
    this.onPick = onPick;
    this.idPrefix = idPrefix;
    this.points = [];
    this.body = null;
    this.current = 0;
    this.width = 0;
    this.frame = document.createElement('div');
    this.frame.className = 'graph-frame';
    this.empty = document.createElement('p');
    this.empty.className = 'graph-empty muted';
    this.empty.textContent = 'The graph of the game appears here once the review is done.';
    this.frame.append(this.empty);
    // A table is as wide as its cells whatever its width says: it is hidden inside a box.
    const hidden = document.createElement('div');
    hidden.className = 'visually-hidden';
    this.table = document.createElement('table');
    this.table.id = `${idPrefix}-table`;
    hidden.append(this.table);
    container.append(this.frame, hidden);

    let dragging = false;
    const pick = (event) => {
      if (!this.points.length) return;
      const box = this.frame.getBoundingClientRect();
      const plot = box.width - MARGIN.left - MARGIN.right;
      const ply = nearestPly(this.points, (event.clientX - box.left - MARGIN.left) / plot);
      if (ply !== null && ply !== this.current) this.onPick(ply);
    };
    this.frame.addEventListener('pointerdown', (event) => {
      if (!this.points.length || event.button > 0) return;
      dragging = true;
      this.frame.setPointerCapture?.(event.pointerId);
      pick(event);
    });
    this.frame.addEventListener('pointermove', (event) => { if (dragging) pick(event); });
    for (const name of ['pointerup', 'pointercancel', 'lostpointercapture']) {
      this.frame.addEventListener(name, () => { dragging = false; });
    }
    if (typeof ResizeObserver === 'function') {
      new ResizeObserver(() => {
        if (this.points.length && Math.round(this.frame.clientWidth) !== this.width) this.draw();
      }).observe(this.frame);
    }
  }

  /** Shows the points of a done review (graphPoints) and its body (for the table); an empty
   *  list shows the note that the graph comes later. */
  setPoints(points, body) {
    this.points = points;
    this.body = body;
    if (!points.length) {
      this.frame.replaceChildren(this.empty);
      for (const name of ['role', 'tabindex', 'aria-label', 'aria-valuemin', 'aria-valuemax', 'aria-valuenow', 'aria-valuetext', 'aria-describedby']) {
        this.frame.removeAttribute(name);
      }
      this.table.replaceChildren();
      return;
    }
    const f = this.frame;
    f.setAttribute('role', 'slider');
    f.tabIndex = 0;
    f.setAttribute('aria-label', 'Evaluation graph: the move shown on the board');
    f.setAttribute('aria-valuemin', '0');
    f.setAttribute('aria-valuemax', String(points[points.length - 1].ply));
    f.setAttribute('aria-describedby', this.table.id);
    this.fillTable();
    this.draw();
  }

  /** Highlights ply `ply` (the one shown on the board). */
  select(ply) {
    this.current = ply;
    if (!this.points.length) return;
    const last = this.points[this.points.length - 1].ply;
    const shown = Math.max(0, Math.min(last, ply));
    this.frame.setAttribute('aria-valuenow', String(shown));
    this.frame.setAttribute('aria-valuetext', pointWords(this.points, shown));
    if (!this.cursor) return;
    const point = this.points.find((item) => item.ply === shown) || this.points[0];
    const x = r(this.x(shown));
    this.cursor.line.setAttribute('x1', x);
    this.cursor.line.setAttribute('x2', x);
    this.cursor.dot.setAttribute('cx', x);
    this.cursor.dot.setAttribute('cy', r(this.y(point.value)));
  }

  fillTable() {
    const caption = document.createElement('caption');
    caption.textContent = 'The engine\'s value after each move, from the start: who is ahead, by how many discs at the end with best play.';
    const head = document.createElement('tr');
    for (const label of ['Move', 'Played', 'Value', 'Judgement']) {
      const cell = document.createElement('th');
      cell.scope = 'col';
      cell.textContent = label;
      head.append(cell);
    }
    const rows = graphRows(this.body).map((row) => {
      const line = document.createElement('tr');
      line.dataset.ply = String(row.ply);
      for (const text of [row.number, row.move, row.value, row.judgement]) {
        const cell = document.createElement('td');
        cell.textContent = text;
        line.append(cell);
      }
      return line;
    });
    const thead = document.createElement('thead');
    thead.append(head);
    const tbody = document.createElement('tbody');
    tbody.append(...rows);
    this.table.replaceChildren(caption, thead, tbody);
  }

  draw() {
    const points = this.points;
    const width = Math.max(200, Math.round(this.frame.clientWidth) || 600);
    const height = Math.max(100, Math.round(this.frame.clientHeight) || 160);
    this.width = Math.round(this.frame.clientWidth);
    const limit = graphLimit(points);
    const last = Math.max(1, points[points.length - 1].ply);
    const plotWidth = width - MARGIN.left - MARGIN.right;
    const plotHeight = height - MARGIN.top - MARGIN.bottom;
    this.x = (ply) => MARGIN.left + (ply / last) * plotWidth;
    this.y = (value) => MARGIN.top + (1 - (Math.max(-limit, Math.min(limit, value)) + limit) / (2 * limit)) * plotHeight;
    const zero = r(this.y(0));
    const root = svg('svg', { class: 'graph', viewBox: `0 0 ${width} ${height}`, width, height, 'aria-hidden': 'true', focusable: 'false' });

    // The plot: Black's side above zero, White's below, each filled where its side is ahead.
    const above = `${this.idPrefix}-above`;
    const below = `${this.idPrefix}-below`;
    const defs = svg('defs');
    const clip = (id, y, h) => {
      const path = svg('clipPath', { id });
      path.append(svg('rect', { x: MARGIN.left, y, width: plotWidth, height: Math.max(0, h) }));
      return path;
    };
    defs.append(clip(above, MARGIN.top, zero - MARGIN.top), clip(below, zero, MARGIN.top + plotHeight - zero));
    root.append(defs);
    root.append(svg('rect', { class: 'plot', x: MARGIN.left, y: MARGIN.top, width: plotWidth, height: plotHeight, rx: 3 }));
    const outline = points.map((point) => `${r(this.x(point.ply))},${r(this.y(point.value))}`);
    const area = `${r(this.x(0))},${zero} ${outline.join(' ')} ${r(this.x(points[points.length - 1].ply))},${zero}`;
    root.append(svg('polygon', { class: 'area-black', points: area, 'clip-path': `url(#${above})` }));
    root.append(svg('polygon', { class: 'area-white', points: area, 'clip-path': `url(#${below})` }));
    root.append(svg('polyline', { class: 'line', points: outline.join(' ') }));

    // The scale: zero and the limit each way, the plies along the bottom.
    const scale = svg('g', { class: 'scale' });
    scale.append(svg('line', { class: 'zero', x1: MARGIN.left, x2: MARGIN.left + plotWidth, y1: zero, y2: zero }));
    for (const [value, label] of [[limit, `B +${limit}`], [0, '0'], [-limit, `W +${limit}`]]) {
      scale.append(svg('text', { x: MARGIN.left - 6, y: r(this.y(value) + 4), 'text-anchor': 'end' }, label));
    }
    const step = last <= 20 ? 5 : plotWidth < 320 ? 20 : 10;
    for (let ply = 0; ply <= last; ply += step) {
      scale.append(svg('text', { x: r(this.x(ply)), y: height - 6, 'text-anchor': 'middle' }, String(ply)));
    }
    root.append(scale);

    // From the dashed line on the engine solved the game: its values are exact.
    const exact = exactFrom(this.body);
    if (exact !== null) {
      const x = r(this.x(exact));
      root.append(svg('line', { class: 'exact-line', x1: x, x2: x, y1: MARGIN.top, y2: MARGIN.top + plotHeight }));
    }

    // Mistakes and blunders, and the ply shown.
    const marks = svg('g', { class: 'marks' });
    for (const point of points) {
      if (!MARKED.has(point.cls)) continue;
      marks.append(svg('circle', {
        class: `marker ${point.cls}`, cx: r(this.x(point.ply)), cy: r(this.y(point.value)), r: point.cls === 'blunder' ? 5 : 4,
      }));
    }
    root.append(marks);
    const cursor = svg('g', { class: 'cursor' });
    const line = svg('line', { y1: MARGIN.top, y2: MARGIN.top + plotHeight });
    const dot = svg('circle', { r: 5 });
    cursor.append(line, dot);
    root.append(cursor);
    this.cursor = { line, dot };
    this.frame.replaceChildren(root);
    this.select(this.current);
  }
}
