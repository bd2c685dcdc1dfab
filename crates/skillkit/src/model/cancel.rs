//! Cancelling a request from another thread.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// How long a wait sleeps between two looks at the token.
const SLICE: Duration = Duration::from_millis(20);

/// A cancellation token: clones share one flag. A provider looks at it before each attempt and
/// throughout a wait between retries, and then returns [`super::ProviderError::Cancelled`]; a
/// request already on the wire runs to its reply or its timeout (the blocking client cannot be
/// interrupted).
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token not cancelled yet.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Cancels every holder of this token (and its clones).
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// Sleeps for `total` in small slices; `false` as soon as the token is cancelled.
    pub(crate) fn sleep(&self, total: Duration) -> bool {
        let end = Instant::now() + total;
        loop {
            if self.is_cancelled() {
                return false;
            }
            let now = Instant::now();
            if now >= end {
                return true;
            }
            std::thread::sleep(SLICE.min(end - now));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_cancelled_sleep_returns_early() {
        let cancel = Cancel::new();
        let other = cancel.clone();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            other.cancel();
        });
        let start = Instant::now();
        assert!(!cancel.sleep(Duration::from_secs(30)));
        assert!(start.elapsed() < Duration::from_secs(10));
        t.join().ok();
        assert!(cancel.is_cancelled());
    }

    #[test]
    fn an_uncancelled_sleep_runs_out() {
        assert!(Cancel::new().sleep(Duration::from_millis(30)));
    }
}
