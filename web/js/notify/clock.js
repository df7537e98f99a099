// The server's time as this page reckons it: a computer's clock may be off by minutes, and a
// challenge waits only one. What the server pushes as it happens carries the server's time of
// it; the difference is kept, and every countdown and "ago" uses it.

const LATENCY_MS = 100; // a push takes about this long to arrive; the estimate is no finer
let skew = 0;

/** The server's time now, in ms. */
export const serverNow = () => Date.now() + skew;

/** Notes that something the server stamped `serverMs` was pushed and has just arrived. */
export function heardAt(serverMs) {
  if (!Number.isFinite(serverMs)) return;
  const difference = serverMs - Date.now();
  // Within the time a push takes, clocks agree: nothing to correct.
  skew = Math.abs(difference) < LATENCY_MS * 10 ? 0 : difference;
}
