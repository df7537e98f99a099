//! What the service's unit tests share.

use std::time::Duration;

/// Waits (a bounded number of short sleeps) until `condition` holds.
///
/// # Panics
/// When it never does, after about 20 s.
pub async fn until(mut condition: impl FnMut() -> bool) {
    for _ in 0..4_000 {
        if condition() {
            return;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    panic!("the condition never held");
}
