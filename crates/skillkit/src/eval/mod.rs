//! Trigger evals (`skillkit eval`, the app's Evals pane): does a skill activate when it should,
//! and only then? Each case's query goes to a real model through a [`crate::model::Provider`]
//! exactly as the chosen agent would send it: the agent's skills text where the agent puts it
//! and its skill tools with their schemas, both built by the same code as `skillkit prompt`.
//! The agent's [`crate::agent::Activation`] says which skill a reply activates; [`Report`] adds
//! the runs up into trigger rates, per-skill precision and recall, and confusions.

pub mod confusion;
pub mod draft;
pub mod optimize;
pub mod report;
pub mod run;
pub mod suite;

pub use confusion::Confusion;
pub use report::{CaseReport, Report, RunResult, SkillReport, Summary};
pub use run::{activated, compare, request, run, run_library, with_text, Comparison, EvalError, Options, Variant};
pub use suite::{Case, Suite, DEFAULT_PATH, NONE};
