//! How many sockets this node holds open: the "players online" count.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// Counts open sockets; each holds an [`OnlineGuard`] while it is open.
#[derive(Clone, Debug, Default)]
pub struct Online(Arc<AtomicUsize>);

impl Online {
    /// Counts one more socket until the guard is dropped.
    pub fn enter(&self) -> OnlineGuard {
        self.0.fetch_add(1, Ordering::Relaxed);
        OnlineGuard(Arc::clone(&self.0))
    }

    /// Sockets open now.
    pub fn count(&self) -> usize {
        self.0.load(Ordering::Relaxed)
    }
}

/// One open socket; dropping it counts it out.
#[derive(Debug)]
pub struct OnlineGuard(Arc<AtomicUsize>);

impl Drop for OnlineGuard {
    fn drop(&mut self) {
        self.0.fetch_sub(1, Ordering::Relaxed);
    }
}
