// /puzzles and /puzzles/{id}: positions from your own games where one move was clearly best,
// to be found again. The server judges every answer; the page only draws what it is sent.
import * as api from './api.js';
import { whoAmI } from './account.js';
import { Board } from './board/Board.js';
import { sentence } from './text.js';
import {
  analysisAddress, contextWords, countWords, itemWords, nextPuzzle, promptWords, puzzleIdFromPath,
  solutionMarks, solutionWords, updated, verdictMarks, verdictWords,
} from './puzzles/model.js';
import './header.js';

const $ = (id) => document.getElementById(id);
const board = new Board($('board'), { label: 'Puzzle board, a1 top left to h8 bottom right' });

let list = [];
let current = null;
let counts = null;
let answering = false;

function say(text) {
  $('puzzles-status').textContent = text;
}

function fail(error) {
  $('puzzles-error').textContent = sentence(error && error.message ? error.message : String(error));
}

function feedback(text, tone = '') {
  const node = $('feedback');
  node.textContent = text;
  node.className = `puzzle-feedback${tone ? ` ${tone}` : ''}`;
}

/** The list of your puzzles, the one shown marked. */
function renderList() {
  $('list-card').hidden = list.length === 0;
  $('counts').textContent = countWords(counts);
  const items = list.map((puzzle, index) => {
    const item = document.createElement('li');
    const button = document.createElement('button');
    button.type = 'button';
    const words = itemWords(puzzle);
    const title = document.createElement('span');
    title.textContent = `${index + 1}. ${words.title}`;
    const state = document.createElement('span');
    state.className = puzzle.solved ? 'solved-mark' : 'muted';
    state.textContent = words.state;
    button.append(title, state);
    button.setAttribute('aria-current', String(Boolean(current && current.id === puzzle.id)));
    button.addEventListener('click', () => show(puzzle));
    item.append(button);
    return item;
  });
  $('puzzle-list').replaceChildren(...items);
}

/** Puts `puzzle` on the board, ready for an answer. */
function show(puzzle, { focus = true } = {}) {
  current = puzzle;
  $('solver').hidden = false;
  $('prompt').textContent = promptWords(puzzle);
  $('context').textContent = contextWords(puzzle);
  $('game-link').href = `/replay/${encodeURIComponent(puzzle.game_id)}`;
  $('analyse-link').href = analysisAddress(puzzle);
  $('visitor-card').hidden = puzzle.mine;
  board.setPosition(puzzle.board);
  board.showMoves(puzzle.legal_moves, { mover: puzzle.side_to_move });
  board.setMarks([]);
  feedback(puzzle.solved ? 'You solved this one already; try it again if you like.' : '');
  $('show-solution').disabled = false;
  $('next-puzzle').hidden = !nextPuzzle(list, puzzle.id);
  const address = `/puzzles/${encodeURIComponent(puzzle.id)}`;
  if (location.pathname !== address) history.replaceState(null, '', address);
  renderList();
  if (focus) board.focus();
}

/** Sends an answer to the server and shows its verdict. */
async function answer(square) {
  if (!current || answering) return;
  answering = true;
  $('puzzles-error').textContent = '';
  try {
    const verdict = await api.answerPuzzle(current.id, square);
    board.setMarks(verdictMarks(verdict));
    feedback(verdictWords(verdict), verdict.correct ? 'right' : 'wrong');
    if (verdict.puzzle && verdict.puzzle.mine) {
      const before = list.find((item) => item.id === verdict.puzzle.id);
      if (before && !before.solved && verdict.puzzle.solved && counts) counts = { ...counts, solved: counts.solved + 1 };
      list = updated(list, verdict.puzzle);
      current = { ...current, ...verdict.puzzle };
      renderList();
    }
    $('next-puzzle').hidden = !nextPuzzle(list, current.id);
  } catch (error) {
    if (error.status === 401) feedback('Choose a nickname on the home page to answer puzzles.', 'wrong');
    else if (error.code === 'illegal_move' || error.code === 'bad_request') {
      // The server's sentence names the square as typed, in lower case: kept as it is.
      feedback(/[.!?]$/.test(error.message) ? error.message : `${error.message}.`, 'wrong');
    }
    else fail(error);
  } finally {
    answering = false;
  }
}

async function giveUp() {
  if (!current) return;
  try {
    const solution = await api.puzzleSolution(current.id);
    board.setMarks(solutionMarks(solution, current));
    feedback(solutionWords(solution, current));
    $('show-solution').disabled = true;
  } catch (error) {
    fail(error);
  }
}

board.onInput(({ square }) => answer(square));
$('type-answer').addEventListener('submit', (event) => {
  event.preventDefault();
  const typed = $('answer-input').value.trim().toLowerCase();
  if (!typed || !current) return;
  // The server listed the legal squares: anything else is answered here, without asking.
  if (current.legal_moves.some((move) => move.square === typed)) answer(typed);
  else feedback(`${typed} is not a legal move here; the legal moves are shown on the board.`, 'wrong');
  $('answer-input').select();
});
$('show-solution').addEventListener('click', giveUp);
$('next-puzzle').addEventListener('click', () => {
  const next = current && nextPuzzle(list, current.id);
  if (next) show(next);
});

function nothingYet(title, text) {
  $('no-puzzles-title').textContent = title;
  $('no-puzzles-text').textContent = text;
  $('no-puzzles').hidden = false;
}

async function start() {
  const wanted = puzzleIdFromPath(location.pathname);
  const { me } = await whoAmI();
  if (me) {
    try {
      const mine = await api.puzzles();
      list = mine.puzzles;
      counts = mine.counts;
    } catch (error) {
      fail(error);
    }
  }
  if (wanted) {
    try {
      show(list.find((puzzle) => puzzle.id === wanted) || await api.puzzle(wanted), { focus: false });
      say('');
    } catch (error) {
      say('');
      if (error.code === 'puzzle_not_found') nothingYet('No such puzzle', 'This puzzle does not exist. Your own puzzles are listed on this page.');
      else fail(error);
    }
    return;
  }
  say('');
  if (!me) {
    nothingYet('No puzzles yet', 'Puzzles come from the mistakes in your own games. Choose a nickname and play a game; once the engine has reviewed it, the positions where one move was clearly best appear here.');
    return;
  }
  const first = list.find((puzzle) => !puzzle.solved) || list[0];
  if (first) show(first, { focus: false });
  else nothingYet('No puzzles yet', 'Puzzles come from the mistakes in your own games. Play a game; once the engine has reviewed it, the positions where one move was clearly best appear here.');
}

start();
