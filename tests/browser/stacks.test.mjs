// How a hung server's threads are reported (helpers.mjs): gdb's backtraces grouped by stack.
// Plain Node, no browser.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { distinctStacks } from './helpers.mjs';

test('threads waiting in the same place read as one stack', () => {
  const gdb = '[New LWP 2]\n\nThread 3 (Thread 0x7f01 (LWP 3) "worker"):\n'
    + '#0  0x00007f in epoll_wait (epfd=4) at epoll.c:30\n'
    + '#1  0x000055 in mio::poll::Poll::poll::h0123456789abcdef () at src/poll.rs:435\n\n'
    + 'Thread 2 (Thread 0x7f02 (LWP 2) "accept"):\n'
    + '#0  0x00007e in epoll_wait (epfd=9) at epoll.c:30\n'
    + '#1  0x000056 in mio::poll::Poll::poll::hfedcba9876543210 () at src/poll.rs:435\n\n'
    + 'Thread 1 (Thread 0x7f03 (LWP 1) "main"):\n'
    + '#0  futex_wait () at futex.rs:73\n';
  assert.equal(
    distinctStacks(gdb),
    '2 distinct thread stacks:\n'
      + '\n2 thread(s): worker, accept\n  epoll_wait at epoll.c:30\n  mio::poll::Poll::poll at src/poll.rs:435\n'
      + '\n1 thread(s): main\n  futex_wait at futex.rs:73\n',
  );
});
