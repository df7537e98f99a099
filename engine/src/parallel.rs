//! A list of independent jobs shared among threads, for the analyses that value many
//! positions: each job runs once, and the results come back in the list's order, so they are
//! the same whatever the number of threads.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;

/// Runs `work` on every item of `items`, on `threads` threads (the calling thread alone when
/// `threads` is 0 or 1), and returns the results in the items' order.
///
/// Items are started in the list's order. Once a result satisfies `stop`, no further item is
/// started: the items left out get `None`, and every item before the first that stopped has
/// been run. `finished` is called on the calling thread each time an item is done, with the
/// number done so far.
pub(crate) fn run_each<T, R>(
    items: &[T],
    threads: usize,
    work: impl Fn(&T) -> R + Sync,
    stop: impl Fn(&R) -> bool + Sync,
    finished: &mut dyn FnMut(usize),
) -> Vec<Option<R>>
where
    T: Sync,
    R: Send,
{
    let mut results: Vec<Option<R>> = items.iter().map(|_| None).collect();
    let threads = threads.clamp(1, items.len().max(1));
    if threads == 1 {
        for (done, (item, slot)) in items.iter().zip(&mut results).enumerate() {
            let result = work(item);
            let stopped = stop(&result);
            *slot = Some(result);
            finished(done + 1);
            if stopped {
                break;
            }
        }
        return results;
    }
    let next = AtomicUsize::new(0);
    let stopped = AtomicBool::new(false);
    let (sender, receiver) = mpsc::channel();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            let sender = sender.clone();
            let (next, stopped, work, stop) = (&next, &stopped, &work, &stop);
            scope.spawn(move || {
                while !stopped.load(Ordering::Acquire) {
                    let index = next.fetch_add(1, Ordering::AcqRel);
                    let Some(item) = items.get(index) else { break };
                    let result = work(item);
                    if stop(&result) {
                        stopped.store(true, Ordering::Release);
                    }
                    if sender.send((index, result)).is_err() {
                        break;
                    }
                }
            });
        }
        drop(sender);
        for (done, (index, result)) in receiver.iter().enumerate() {
            results[index] = Some(result);
            finished(done + 1);
        }
    });
    results
}

#[cfg(test)]
mod tests {
    use super::*;

    fn squares(threads: usize) -> Vec<Option<u64>> {
        let items: Vec<u64> = (0..100).collect();
        run_each(&items, threads, |&n| n * n, |_| false, &mut |_| {})
    }

    #[test]
    fn results_come_back_in_the_items_order_whatever_the_threads() {
        let expected: Vec<Option<u64>> = (0..100).map(|n| Some(n * n)).collect();
        assert_eq!(squares(1), expected);
        assert_eq!(squares(3), expected);
        assert_eq!(squares(0), expected);
    }

    #[test]
    fn finished_counts_every_item_once() {
        let items = [1, 2, 3, 4, 5, 6, 7];
        let mut counts = Vec::new();
        run_each(&items, 4, |&n| n, |_| false, &mut |done| counts.push(done));
        assert_eq!(counts, [1, 2, 3, 4, 5, 6, 7]);
    }

    #[test]
    fn on_one_thread_nothing_after_a_stop_is_run() {
        let items: Vec<u32> = (0..10).collect();
        let results = run_each(&items, 1, |&n| n, |&n| n == 3, &mut |_| {});
        assert_eq!(
            results,
            [Some(0), Some(1), Some(2), Some(3), None, None, None, None, None, None]
        );
    }

    #[test]
    fn on_several_threads_everything_before_a_stop_is_run() {
        let items: Vec<u32> = (0..200).collect();
        let results = run_each(&items, 3, |&n| n, |&n| n == 50, &mut |_| {});
        let expected: Vec<Option<u32>> = (0..=50).map(Some).collect();
        assert_eq!(results[..=50], expected);
    }

    #[test]
    fn no_items_give_no_results() {
        let items: [u8; 0] = [];
        assert!(run_each(&items, 4, |&n| n, |_| false, &mut |_| {}).is_empty());
    }
}
