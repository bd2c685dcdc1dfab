//! Helpers for the engine's own tests.

use crate::agent::SPEC;
use crate::lint::lint;
use crate::skill::{FileProblem, Skill};

/// Rule codes reported for `text` in folder `dir_name` under the `spec` profile.
pub fn codes(dir_name: &str, text: &str) -> Vec<&'static str> {
    let skill = Skill::parse(format!("/skills/{dir_name}"), "SKILL.md", text.to_string());
    lint(&skill, &SPEC).into_iter().map(|d| d.code).collect()
}

/// Rule codes reported for a skill whose file could not be read.
pub fn codes_for_problem(problem: FileProblem) -> Vec<&'static str> {
    let skill = Skill::unreadable("/skills/a", "SKILL.md", problem);
    lint(&skill, &SPEC).into_iter().map(|d| d.code).collect()
}
