//! Running the rules over a skill: the one entry point the CLI, the app and tests call.

use crate::agent::Agent;
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::{Context, RULES};
use crate::skill::Skill;

/// Lint `skill` under `agent`'s profile. Diagnostics come sorted by position, with line and
/// column filled in.
pub fn lint(skill: &Skill, agent: &Agent) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    for rule in RULES {
        let mut cx = Context { skill, agent, rule: rule.meta(), out: std::mem::take(&mut out) };
        rule.check(&mut cx);
        out = cx.out;
    }
    for d in &mut out {
        d.start = skill.lines.position(&skill.text, d.span.start);
        d.end = skill.lines.position(&skill.text, d.span.end);
        for l in &mut d.labels {
            l.start = skill.lines.position(&skill.text, l.span.start);
            l.end = skill.lines.position(&skill.text, l.span.end);
        }
    }
    out.sort_by(|a, b| (a.span.start, a.severity, a.code).cmp(&(b.span.start, b.severity, b.code)));
    out
}

/// A skill is valid when no diagnostic is an error.
pub fn is_valid(diagnostics: &[Diagnostic]) -> bool {
    !diagnostics.iter().any(|d| d.severity == Severity::Error)
}
