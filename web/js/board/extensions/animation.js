// The flip animation: the discs a move turns over flip one ring at a time, outward from the
// placed disc. Skipped when the player asks the system for reduced motion.
import { distance } from '../model.js';

export const FLIP_STEP_MS = 70;

const reducedMotion = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches === true;

/** Starts the flip of each square in `flips` (indices), delayed by its distance from `origin`. */
export function animateFlips(squares, flips, origin) {
  if (reducedMotion()) return;
  for (const index of flips) {
    const square = squares[index];
    square.classList.remove('flipping');
    square.style.setProperty('--flip-delay', `${(distance(index, origin) - 1) * FLIP_STEP_MS}ms`);
  }
  if (flips.length) void squares[flips[0]].offsetWidth; // restart a flip still running
  for (const index of flips) squares[index].classList.add('flipping');
}

/** Ends a square's flip once its animation is over, so the next flip can start afresh. */
export function endFlipOnAnimationEnd(root) {
  root.addEventListener('animationend', (event) => {
    const square = event.target.closest?.('.square');
    if (square && event.animationName === 'flip') square.classList.remove('flipping');
  });
}
