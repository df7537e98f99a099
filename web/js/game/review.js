// The engine's review of a finished game on the game page: it asks the server for the
// analysis (and asks again every second while the engine works, not while the page is
// hidden), and draws it: the status and progress, the graph, a mark on every move in the move
// list, the words and the best move for the ply shown, its best line on the board, and each
// player's summary in the result panel. The page's model is read, never changed: picking a ply
// goes through the page's own `pick`, as the move list does.
import * as api from '../api.js';
import { Status } from '../protocol.js';
import { playerName } from './model.js';
import { EvalGraph } from './graph.js';
import { addressOf } from '../notation/address.js';
import { afterWords } from '../notation/numbering.js';
import {
  errorStatus, exactFrom, graphPoints, lineStep, moveMarks, reviewStatus, selectedPly, shouldPoll, summaryLines,
} from './review-model.js';

const $ = (id) => document.getElementById(id);
const POLL_MS = 1000;

export class Review {
  /**
   * @param {{gameId: string, board: import('../board/Board.js').Board, moves: HTMLElement,
   *   pick: (count: number) => void, redraw: () => void, evalBar?: import('../board/eval-bar.js').EvalBar}} page
   * `pick(count)` shows the position after `count` plies as the move list does; `redraw()`
   * draws the page again.
   */
  constructor({ gameId, board, moves, pick, redraw, evalBar = null }) {
    this.gameId = gameId;
    this.board = board;
    this.moves = moves;
    this.pick = pick;
    this.redraw = redraw;
    this.evalBar = evalBar;
    this.model = null;
    this.body = null;
    this.status = null; // what reviewStatus / errorStatus said last
    this.started = false;
    this.sawLive = false;
    this.timer = null;
    this.loading = false;
    this.line = null; // {count, step} while the best line is shown
    this.derived = { marks: new Map(), points: [] };
    this.graph = new EvalGraph($('review-graph'), {
      onPick: (count) => this.pick(count),
    });
    // "Analyse this position": the analysis board with the game's moves up to the ply shown.
    this.analyse = document.createElement('a');
    this.analyse.className = 'button';
    this.analyse.id = 'review-analyse';
    this.analyse.href = '/analysis';
    this.analyse.textContent = 'Analyse this position';
    const analyseRow = document.createElement('div');
    analyseRow.className = 'row review-analyse-row';
    analyseRow.append(this.analyse);
    $('review-line-row').after(analyseRow);
    $('review-request').addEventListener('click', () => this.request());
    $('review-line').addEventListener('click', () => this.showLine(0, true));
    $('review-line-back').addEventListener('click', () => this.showLine(this.line ? this.line.step - 1 : 0));
    $('review-line-next').addEventListener('click', () => this.showLine(this.line ? this.line.step + 1 : 0));
    $('review-line-exit').addEventListener('click', () => this.closeLine(true));
    $('result-see-review').addEventListener('click', () => {
      $('review').scrollIntoView({ block: 'start' });
      $('review-title').focus({ preventScroll: true });
    });
    document.addEventListener('visibilitychange', () => {
      if (document.hidden) this.stopPolling();
      else if (shouldPoll(this.body)) this.load();
    });
    window.addEventListener('pagehide', () => this.stopPolling());
  }

  /** Draws the review for the page's model; starts it once the game is finished. */
  render(model) {
    this.model = model;
    const { game } = model;
    if (game.status === Status.LIVE) this.sawLive = true;
    const reviewable = game.status === Status.FINISHED && game.moves.length > 0;
    $('review').hidden = !reviewable;
    $('result-see-review').hidden = !reviewable;
    if (!reviewable) {
      this.board.setMarks([]);
      this.evalBar?.clear();
      return;
    }
    if (!this.started && !this.sawLive) {
      // A replay: the review goes first beside the board (under it on a phone), before the
      // first drawing, so nothing moves. A game seen ending here keeps it last, where its
      // coming moves nothing either.
      const side = $('review').closest('.side-area');
      side?.prepend($('review'));
    }
    if (!this.started) {
      // The server queues a game's analysis before it tells of the end, so a game seen ending
      // here is asked about at once, like a replay.
      this.started = true;
      this.load();
    }
    const count = model.viewing === null ? game.moves.length : model.viewing;
    if (this.line && this.line.count !== count) this.line = null;
    const moves = game.moves.slice(0, count).map((ply) => ply.move);
    const address = addressOf({ start: model.start, line: moves, ply: moves.length });
    if (this.analyse.getAttribute('href') !== address) this.analyse.href = address;
    this.renderStatus();
    this.renderSummary(game);
    markMoveList(this.moves, this.derived.marks);
    const strip = document.getElementById('move-strip');
    if (strip) markMoveList(strip, this.derived.marks);
    this.graph.select(count);
    this.renderEvalBar(count);
    this.renderPly(count);
  }

  // --- talking to the server ------------------------------------------------------------

  async load() {
    if (this.loading) return;
    this.stopPolling();
    this.loading = true;
    try {
      this.take(await api.analysis(this.gameId));
    } catch (error) {
      this.fail(error);
    } finally {
      this.loading = false;
    }
  }

  async request() {
    const button = $('review-request');
    button.disabled = true;
    this.stopPolling();
    try {
      this.take(await api.requestAnalysis(this.gameId));
    } catch (error) {
      this.fail(error);
    } finally {
      button.disabled = false;
    }
  }

  take(body) {
    const before = this.status && this.status.kind;
    this.body = body;
    this.status = reviewStatus(body);
    this.derived = { marks: moveMarks(body), points: graphPoints(body) };
    this.graph.setPoints(this.derived.points, body);
    const exact = exactFrom(body);
    $('review-exact').textContent = exact === null ? ''
      : exact === 0 ? 'The engine solved the whole game: every value is exact.'
        : `From the dashed line (after ${afterWords(body.plies, exact)}) the engine solved the game: those values are exact.`;
    if (before !== this.status.kind) this.announce();
    if (shouldPoll(body) && !document.hidden) this.timer = setTimeout(() => this.load(), POLL_MS);
    this.refresh();
  }

  fail(error) {
    this.status = errorStatus(error);
    this.announce();
    this.refresh();
  }

  stopPolling() {
    clearTimeout(this.timer);
    this.timer = null;
  }

  refresh() {
    if (this.model) this.redraw();
  }

  announce() {
    const words = {
      done: 'The engine\'s review of this game is ready.',
      failed: this.status.text,
      waiting: 'The engine is reviewing this game.',
      none: '',
    }[this.status.kind];
    $('review-announce').textContent = words || '';
  }

  // --- drawing --------------------------------------------------------------------------

  renderStatus() {
    const status = this.status || { kind: 'waiting', text: 'Loading the review…', action: null, progress: null };
    const card = $('review');
    card.dataset.state = status.kind;
    $('review-status').textContent = status.text;
    const bar = $('review-progress');
    bar.hidden = status.kind !== 'waiting';
    if (status.progress) {
      bar.max = status.progress.total;
      bar.value = status.progress.done;
    } else {
      bar.removeAttribute('value'); // indeterminate
    }
    const request = $('review-request');
    request.hidden = !status.action;
    request.textContent = status.action || 'Review this game';
  }

  renderSummary(game) {
    const box = $('review-summary');
    const lines = summaryLines(this.body, { black: playerName(game, 'black'), white: playerName(game, 'white') });
    const key = lines.length ? lines.map((line) => line.text).join('|') : `status:${this.status ? this.status.kind : ''}`;
    if (box.dataset.key === key) return;
    box.dataset.key = key;
    box.replaceChildren();
    if (lines.length) {
      for (const line of lines) {
        const item = document.createElement('p');
        item.dataset.side = line.side;
        item.textContent = line.text;
        box.append(item);
      }
      return;
    }
    const note = document.createElement('p');
    note.className = 'muted';
    const kind = this.status ? this.status.kind : 'waiting';
    note.textContent = kind === 'waiting' ? 'The engine is reviewing this game…'
      : kind === 'none' ? 'This game has not been reviewed yet.'
        : 'No review of this game.';
    box.append(note);
  }

  /** The eval bar beside the board: the review's value of the position shown, once done. */
  renderEvalBar(count) {
    if (!this.evalBar) return;
    const point = this.status && this.status.kind === 'done' ? this.derived.points.find((item) => item.ply === count) : null;
    if (!point) {
      this.evalBar.clear();
      return;
    }
    const ply = count > 0 ? (this.body.plies || []).find((item) => item.ply === count) : null;
    this.evalBar.show(point.value, Boolean(ply && ply.exact));
  }

  renderPly(count) {
    const done = this.status && this.status.kind === 'done';
    const shown = done ? selectedPly(this.body, count) : null;
    $('review-ply').hidden = !done;
    $('review-line-row').hidden = !done;
    if (!done) {
      this.board.setMarks([]);
      return;
    }
    $('review-ply-title').textContent = shown.title;
    $('review-words').textContent = shown.words;
    const step = this.line ? lineStep(this.body, this.line.count, this.line.step) : null;
    if (!step) this.line = null;
    const inLine = Boolean(step);
    $('review-line').hidden = inLine;
    $('review-line').disabled = !shown.line;
    for (const id of ['review-line-back', 'review-line-next', 'review-line-exit']) $(id).hidden = !inLine;
    $('review').classList.toggle('showing-line', inLine);
    if (inLine) {
      $('review-line-back').disabled = step.step === 0;
      $('review-line-next').disabled = step.step === step.length - 1;
      $('review-next').textContent = step.text;
      // The note under the board says that this is the line, not the game.
      const note = $('viewing');
      note.hidden = false;
      note.textContent = `The best line: ${step.move}, step ${step.step + 1} of ${step.length}. Back to the game returns.`;
      this.board.setMarks([]);
      this.board.setPosition(step.board, { lastMove: step.move === 'pass' ? null : { square: step.move, flips: [] } });
      return;
    }
    $('review-next').textContent = shown.next;
    this.board.setMarks(shown.marks);
  }

  // --- the best line --------------------------------------------------------------------

  showLine(step, focus = false) {
    if (!this.model || !this.body) return;
    const { game } = this.model;
    const count = this.model.viewing === null ? game.moves.length : this.model.viewing;
    if (!lineStep(this.body, count, step)) return;
    this.line = { count, step };
    this.refresh();
    if (focus) $('review-line-next').disabled ? $('review-line-exit').focus() : $('review-line-next').focus();
  }

  closeLine(focus = false) {
    this.line = null;
    this.refresh();
    if (focus) $('review-line').focus();
  }
}

/** Marks each move of the list with its class: a small mark (?!, ?, ??) and the class in
 *  words for screen readers. Idempotent: it touches only the moves whose mark changed. */
export function markMoveList(list, marks) {
  for (const item of list.querySelectorAll('li[data-ply]')) {
    const target = item.querySelector('.move');
    if (!target) continue;
    const mark = marks.get(Number(item.dataset.ply)) || null;
    const key = mark ? mark.cls : '';
    if ((target.dataset.review || '') === key) continue;
    for (const old of target.querySelectorAll('.review-mark, .review-words')) old.remove();
    if (mark) {
      target.dataset.review = key;
      if (mark.mark) {
        const shown = document.createElement('span');
        shown.className = `review-mark mark-${mark.cls}`;
        shown.setAttribute('aria-hidden', 'true');
        shown.textContent = mark.mark;
        target.append(shown);
      }
      const words = document.createElement('span');
      words.className = 'review-words visually-hidden';
      words.textContent = `, ${mark.label}`;
      target.append(words);
    } else {
      delete target.dataset.review;
    }
  }
}
