//! Running the rules over a skill: the one entry point the CLI, the app and tests call.
//!
//! A file gets at most [`MAX_DIAGNOSTICS`] diagnostics; the rest are counted in one note
//! (`too-many-findings`, SK009), so that a generated or hostile file costs every command and the
//! editor a bounded amount of time, memory and output.

pub mod diagnostic;
pub mod profile;
pub mod quick_fix;
pub mod rules;

use crate::lint::diagnostic::{Diagnostic, Severity};
use crate::lint::profile::{Level, LintProfile};
use crate::lint::rules::file::too_many_findings::TooManyFindings;
use crate::lint::rules::{Context, RULES};
use crate::skill::Skill;
use crate::syntax::text::{floor_char_boundary, Position, Span};
use std::collections::HashMap;

use crate::lint::rules::keep_most_severe;
pub use crate::lint::rules::MAX_DIAGNOSTICS;

/// Lint `skill` under `agent`'s profile. Diagnostics come sorted by position, with line and
/// column filled in. Over [`MAX_DIAGNOSTICS`], the most severe are kept (errors, then warnings,
/// then notes, each from the top of the file) and one note at the end counts the others.
pub fn lint<P: AsRef<LintProfile> + ?Sized>(skill: &Skill, agent: &P) -> Vec<Diagnostic> {
    let profile = agent.as_ref();
    let mut out = Vec::new();
    let mut reported = [0usize; 3];
    for rule in RULES {
        let mut cx = Context { skill, profile, rule: rule.meta(), out: std::mem::take(&mut out), reported };
        rule.check(&mut cx);
        out = cx.out;
        reported = cx.reported;
    }
    keep_most_severe(&mut out, MAX_DIAGNOSTICS);
    let mut dropped = reported;
    for d in &out {
        dropped[d.severity as usize] -= 1;
    }
    fill_positions(skill, &mut out);
    out.sort_by(|a, b| (a.span.start, a.severity, a.code).cmp(&(b.span.start, b.severity, b.code)));
    if let Some(note) = too_many_findings(skill, profile, dropped) {
        out.push(note);
    }
    out
}

/// Line and columns of every span's ends, for the diagnostics kept only. A column counts the
/// characters from the start of its line, so the offsets are visited in order and each line's
/// characters counted once (a thousand findings on one 9 MB line would otherwise count it a
/// thousand times). The same values as [`crate::syntax::text::LineIndex::position`].
fn fill_positions(skill: &Skill, out: &mut [Diagnostic]) {
    let text = skill.text.as_str();
    let mut offsets: Vec<usize> = Vec::with_capacity(out.len() * 2);
    for d in out.iter() {
        offsets.extend([d.span.start, d.span.end]);
        offsets.extend(d.labels.iter().flat_map(|l| [l.span.start, l.span.end]));
    }
    offsets.sort_unstable();
    offsets.dedup();
    let mut positions: HashMap<usize, Position> = HashMap::with_capacity(offsets.len());
    // Where the counting stands: an offset, its line, and the characters and UTF-16 units from
    // the line's start to it.
    let (mut at, mut line, mut chars, mut units) = (0usize, usize::MAX, 0usize, 0usize);
    for &offset in &offsets {
        let o = floor_char_boundary(text, offset.min(text.len()));
        let l = skill.lines.line_of(o);
        if l != line || o < at {
            (at, line, chars, units) = (skill.lines.line_start(l), l, 0, 0);
        }
        for c in text[at..o].chars() {
            chars += 1;
            units += c.len_utf16();
        }
        at = o;
        // A `\r` before the line's `\n` is part of the line ending, not a column; a lone `\r` is.
        let cr = usize::from(
            o > skill.lines.line_start(l) && text.as_bytes()[o - 1] == b'\r' && text.as_bytes().get(o) == Some(&b'\n'),
        );
        positions.insert(offset, Position { line: l + 1, column: chars - cr + 1, column_utf16: units - cr + 1 });
    }
    for d in out.iter_mut() {
        d.start = positions[&d.span.start];
        d.end = positions[&d.span.end];
        for l in &mut d.labels {
            l.start = positions[&l.span.start];
            l.end = positions[&l.span.end];
        }
    }
}

/// The note counting the diagnostics left out (`dropped`, by severity), if any were.
fn too_many_findings(skill: &Skill, profile: &LintProfile, dropped: [usize; 3]) -> Option<Diagnostic> {
    let total: usize = dropped.iter().sum();
    let meta = &TooManyFindings::META;
    let severity = match profile.level(meta.name) {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::syntax::text::LineIndex;

    proptest::proptest! {
        #[test]
        fn positions_counted_in_one_walk_are_the_line_indexs(
            text in "(a|é|😀|\r|\n|\r\n| ){0,40}",
            offsets in proptest::collection::vec(0usize..200, 1..8),
        ) {
            let skill = Skill::parse("/skills/a", "SKILL.md", text.clone());
            let span = |i: usize| Span::new(offsets[i] % (text.len() + 1), offsets[(i + 1) % offsets.len()] % (text.len() + 1));
            let mut d: Vec<Diagnostic> = (0..offsets.len())
                .map(|i| Diagnostic {
                    code: "SK000",
                    rule: "test",
                    severity: Severity::Info,
                    message: String::new(),
                    span: span(i),
                    start: Position::default(),
                    end: Position::default(),
                    labels: vec![],
                    help: None,
                    docs: String::new(),
                    fix: None,
                })
                .collect();
            fill_positions(&skill, &mut d);
            let index = LineIndex::new(&text);
            for d in &d {
                proptest::prop_assert_eq!(d.start, index.position(&text, d.span.start));
                proptest::prop_assert_eq!(d.end, index.position(&text, d.span.end));
            }
        }
    }
}
