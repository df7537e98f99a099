// The transcript card of a finished game: its score sheet (each square with the number of the
// move that placed its disc), printed with the page's print button or saved as a PNG picture.
import { Mode, Status } from '../protocol.js';
import { transcriptCells, transcriptSvg } from '../notation/transcript.js';
import { playerName, scoreText } from './model.js';

const $ = (id) => document.getElementById(id);
let drawn = '';
let picture = '';

/** Shows the transcript once the game is over and its start is known (`model.start`). */
export function renderTranscript(model) {
  const { game } = model;
  const card = $('transcript');
  const shown = game.status !== Status.LIVE && game.moves.length > 0 && typeof model.start === 'string';
  card.hidden = !shown;
  if (!shown) return;
  const start = model.start.replace(/\s+/g, '').slice(0, 64);
  // On one device the sides go by colour alone.
  const title = game.mode === Mode.SAME_DEVICE ? 'Black vs White'
    : `${playerName(game, 'black')} (Black) vs ${playerName(game, 'white')} (White)`;
  const subtitle = game.result ? scoreText(game.counts) : '';
  const key = JSON.stringify([start, game.moves.map((ply) => ply.move), title, subtitle]);
  if (key === drawn) return;
  drawn = key;
  picture = transcriptSvg(transcriptCells(start, game.moves), { title, subtitle });
  const figure = $('transcript-figure');
  figure.innerHTML = picture;
  figure.setAttribute('aria-label', `Transcript: ${title}. Each square shows the number of the move that placed its disc.`);
}

/** The transcript as a PNG file, drawn at twice its size for print-sharp sharing. */
async function download() {
  const status = $('transcript-status');
  try {
    const image = new Image();
    image.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(picture)}`;
    await image.decode();
    const canvas = document.createElement('canvas');
    canvas.width = image.naturalWidth * 2;
    canvas.height = image.naturalHeight * 2;
    canvas.getContext('2d').drawImage(image, 0, 0, canvas.width, canvas.height);
    const blob = await new Promise((resolve) => { canvas.toBlob(resolve, 'image/png'); });
    if (!blob) throw new Error('no image');
    const link = document.createElement('a');
    link.href = URL.createObjectURL(blob);
    link.download = 'reversi-transcript.png';
    link.click();
    setTimeout(() => URL.revokeObjectURL(link.href), 10000);
    status.textContent = 'Transcript saved as reversi-transcript.png.';
  } catch {
    status.textContent = 'The browser could not make the picture. Print the transcript instead.';
  }
}

$('transcript-print').addEventListener('click', () => {
  document.body.classList.add('printing-transcript');
  window.print();
});
window.addEventListener('afterprint', () => document.body.classList.remove('printing-transcript'));
$('transcript-download').addEventListener('click', download);
