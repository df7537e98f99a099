// A finished game's transcript (web/js/notation/transcript.js) as a specification: which
// square holds which move's number, and the picture made of it. Plain Node, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { transcriptCells, transcriptSvg } from '../../web/js/notation/transcript.js';

const START = `${'-'.repeat(27)}OX------XO${'-'.repeat(27)}`;
const plies = (text) => text.split(' ').map((move, index) => ({ color: index % 2 ? 'white' : 'black', move }));

test('each square holds the number of the move that placed its disc, the start\'s discs none', () => {
  const cells = transcriptCells(START, plies('f5 d6 c3'));
  const at = (square) => cells['abcdefgh'.indexOf(square[0]) + (Number(square[1]) - 1) * 8];
  assert.deepEqual(at('f5'), { disc: null, number: 1, color: 'black' });
  assert.deepEqual(at('d6'), { disc: null, number: 2, color: 'white' });
  assert.deepEqual(at('c3'), { disc: null, number: 3, color: 'black' });
  assert.deepEqual(at('d4'), { disc: 'white', number: null, color: null });
  assert.deepEqual(at('e4'), { disc: 'black', number: null, color: null });
  assert.deepEqual(at('a1'), { disc: null, number: null, color: null });
});

test('a pass places no disc and takes no number', () => {
  const cells = transcriptCells(START, [{ color: 'black', move: 'f5' }, { color: 'white', move: 'pass' }, { color: 'black', move: 'f4' }]);
  assert.deepEqual(cells.filter((cell) => cell.number !== null).map((cell) => cell.number).sort(), [1, 2]);
});

test('the picture names the players and shows every number once', () => {
  const svg = transcriptSvg(transcriptCells(START, plies('f5 d6 c3')), { title: 'Ann <A> (Black) vs Ben (White)', subtitle: 'Black 3 · White 3' });
  assert.match(svg, /^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
  assert.match(svg, /Ann &lt;A&gt; \(Black\) vs Ben \(White\)/);
  const texts = (label) => svg.split(`>${label}</text>`).length - 1;
  // 1 to 3 are a rank's label and a move's number; 4 only a rank's label.
  assert.deepEqual(['1', '2', '3', '4'].map(texts), [2, 2, 2, 1]);
});
