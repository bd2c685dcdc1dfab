//! Running the rules over a skill: the one entry point the CLI, the app and tests call.
//!
//! A file gets at most [`MAX_DIAGNOSTICS`] diagnostics; the rest are counted in one note
//! (`too-many-findings`, SK009), so that a generated or hostile file costs every command and the
//! editor a bounded amount of time, memory and output.

use crate::agent::{Agent, Level};
use crate::diagnostic::{Diagnostic, Severity};
use crate::rules::too_many_findings::TooManyFindings;
use crate::rules::{Context, RULES};
use crate::skill::Skill;
use crate::text::Span;

/// The most diagnostics one file gets; see `too-many-findings` (SK009).
pub const MAX_DIAGNOSTICS: usize = 1_000;

/// Lint `skill` under `agent`'s profile. Diagnostics come sorted by position, with line and
/// column filled in. Over [`MAX_DIAGNOSTICS`], the most severe are kept (errors, then warnings,
/// then notes, each from the top of the file) and one note at the end counts the others.
pub fn lint(skill: &Skill, agent: &Agent) -> Vec<Diagnostic> {
    let mut out = Vec::new();
    let mut reported = [0usize; 3];
    for rule in RULES {
        let mut cx = Context { skill, agent, rule: rule.meta(), out: std::mem::take(&mut out), reported };
        rule.check(&mut cx);
        out = cx.out;
        reported = cx.reported;
    }
    keep_most_severe(&mut out, MAX_DIAGNOSTICS);
    let mut dropped = reported;
    for d in &out {
        dropped[d.severity as usize] -= 1;
    }
    // Positions only for what is kept: each costs a walk along its line.
    for d in &mut out {
        d.start = skill.lines.position(&skill.text, d.span.start);
        d.end = skill.lines.position(&skill.text, d.span.end);
        for l in &mut d.labels {
            l.start = skill.lines.position(&skill.text, l.span.start);
            l.end = skill.lines.position(&skill.text, l.span.end);
        }
    }
    out.sort_by(|a, b| (a.span.start, a.severity, a.code).cmp(&(b.span.start, b.severity, b.code)));
    if let Some(note) = too_many_findings(skill, agent, dropped) {
        out.push(note);
    }
    out
}

/// Keep the `cap` diagnostics that come first by severity, then position, then code (ties in
/// the order they were reported). Rules report into a list that [`Context`] trims with this
/// whenever it reaches twice the cap, so memory stays bounded whatever a file holds; trimming
/// early keeps exactly what trimming once at the end would.
pub(crate) fn keep_most_severe(out: &mut Vec<Diagnostic>, cap: usize) {
    if out.len() > cap {
        out.sort_by(|a, b| (a.severity, a.span.start, a.code).cmp(&(b.severity, b.span.start, b.code)));
        out.truncate(cap);
    }
}

/// The note counting the diagnostics left out (`dropped`, by severity), if any were.
fn too_many_findings(skill: &Skill, agent: &Agent, dropped: [usize; 3]) -> Option<Diagnostic> {
    let total: usize = dropped.iter().sum();
    let meta = &TooManyFindings::META;
    let severity = match agent.level(meta) {
        _ if total == 0 => return None,
        Level::Off => return None,
        Level::Default => meta.severity,
        Level::Set(s) => s,
    };
    let kinds: Vec<String> = [(Severity::Error, "error"), (Severity::Warning, "warning"), (Severity::Info, "note")]
        .into_iter()
        .map(|(s, name)| (dropped[s as usize], name))
        .filter(|&(n, _)| n > 0)
        .map(|(n, name)| format!("{n} {name}{}", if n == 1 { "" } else { "s" }))
        .collect();
    let end = Span::empty(skill.text.len());
    let at = skill.lines.position(&skill.text, end.start);
    Some(Diagnostic {
        code: meta.code,
        rule: meta.name,
        severity,
        message: format!(
            "{total} more finding{} in this file {} not listed ({}): fix the ones listed first",
            if total == 1 { "" } else { "s" },
            if total == 1 { "is" } else { "are" },
            kinds.join(", ")
        ),
        span: end,
        start: at,
        end: at,
        labels: vec![],
        help: Some(format!("at most {MAX_DIAGNOSTICS} findings are listed per file")),
        docs: meta.docs_path(),
        fix: None,
    })
}

/// A skill is valid when no diagnostic is an error.
pub fn is_valid(diagnostics: &[Diagnostic]) -> bool {
    !diagnostics.iter().any(|d| d.severity == Severity::Error)
}
