//! A mutex's guard, whether or not a thread panicked while holding it (the data the API keeps
//! under its locks stays valid through a panic: whole values are replaced, never half-written).

use std::sync::{Mutex, MutexGuard};

pub(crate) fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}
