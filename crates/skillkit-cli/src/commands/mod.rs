//! One file per command: each turns its arguments into engine calls and renders the answers
//! (through [`crate::render`]). [`crate::run`] dispatches to them.

pub(crate) mod agents;
pub(crate) mod check;
pub(crate) mod completions;
pub mod eval;
pub mod eval_input;
pub mod eval_optimize;
pub(crate) mod explain;
pub(crate) mod man;
pub(crate) mod matrix;
pub mod pack;
pub(crate) mod preview;
pub(crate) mod prompt;
pub(crate) mod rules;
pub(crate) mod schema;
pub(crate) mod simulate;
pub(crate) mod tree;
