//! No library code: the test lives in `tests/`.
