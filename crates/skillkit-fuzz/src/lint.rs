//! The lint target: the input as a `SKILL.md`, parsed and linted under every agent profile.
//!
//! Invariants, for every diagnostic and label: the span lies within the text on character
//! boundaries; its start and end positions (1-based line, column in characters, column in UTF-16
//! code units) equal those computed here from the text alone ([`Lines`], written independently
//! of the engine's `LineIndex`). For every fix: its edits lie within the text on character
//! boundaries, are sorted and do not overlap, and applying them gives UTF-8. Applying all safe
//! fixes and linting the result does not panic, and that second lint keeps the same invariants.

use crate::{violation, Options, Outcome};
use skillkit::lint::diagnostic::apply_fixes;
use skillkit::{Applicability, Diagnostic, Fix, Position, Skill, Span};
use std::path::PathBuf;
use std::time::Instant;

/// Runs the target on `data`.
pub fn run(data: &[u8], options: &Options) -> Outcome {
    let mut outcome = Outcome::default();
    let dir = folder_for(data);
    // Reading from disk decodes bytes (bad UTF-8 located, NUL bytes stop parsing); text with
    // NUL bytes is still parsed as the editor would hand it over, so both paths are fuzzed.
    let mut skills = vec![];
    let start = Instant::now();
    skills.push((Skill::from_bytes(dir.clone(), "SKILL.md", data.to_vec()), start.elapsed()));
    if data.contains(&0) {
        let start = Instant::now();
        skills.push((Skill::parse(dir, "SKILL.md", String::from_utf8_lossy(data).into_owned()), start.elapsed()));
    }
    for (skill, parse_time) in &skills {
        let lines = Lines::new(&skill.text);
        for agent in &options.agents {
            let start = Instant::now();
            let diags = skillkit::lint(skill, agent);
            outcome.time(*parse_time + start.elapsed());
            let cx = Cx { text: &skill.text, lines: &lines, agent: agent.id, pass: "lint" };
            check_diagnostics(&cx, &diags);
            for d in &diags {
                outcome.feature((agent.id, d.code, d.severity));
                if let Some(f) = &d.fix {
                    outcome.feature((d.code, "fix", f.applicability == Applicability::Safe, f.edits.len().min(4)));
                }
            }
            outcome.feature(("count", diags.len().min(32)));

            let safe: Vec<&Fix> = diags
                .iter()
                .filter_map(|d| d.fix.as_ref())
                .filter(|f| f.applicability == Applicability::Safe)
                .collect();
            if safe.is_empty() {
                continue;
            }
            let fixed = apply_fixes(&skill.text, safe);
            let start = Instant::now();
            let again = Skill::parse(skill.dir.clone(), &skill.file_name, fixed);
            let diags = skillkit::lint(&again, agent);
            outcome.time(start.elapsed());
            let lines = Lines::new(&again.text);
            let cx = Cx { text: &again.text, lines: &lines, agent: agent.id, pass: "lint after safe fixes" };
            check_diagnostics(&cx, &diags);
            for d in &diags {
                outcome.feature(("after-fix", d.code));
            }
        }
    }
    outcome
}

/// A folder name for the skill: the `name:` line's value when it could be a folder name (so that
/// most inputs are not all about `name-folder-mismatch`), else `fuzz-skill`. The folder does not
/// exist: rules that need the skill's files stay silent, as for text linted in memory.
fn folder_for(data: &[u8]) -> PathBuf {
    let text = String::from_utf8_lossy(&data[..data.len().min(4096)]);
    let name = text
        .lines()
        .find_map(|l| l.strip_prefix("name:"))
        .map(|v| v.trim().trim_matches(['"', '\'']))
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-'))
        .unwrap_or("fuzz-skill");
    PathBuf::from("/nonexistent-skillkit-fuzz").join(name)
}

/// Line starts of a text, kept here rather than taken from the engine so that the positions the
/// engine reports are checked against an independent computation. A line ends after `\n`; the
/// `\r` of a `\r\n` belongs to the line ending, not to a column.
pub struct Lines {
    starts: Vec<usize>,
}

impl Lines {
    pub fn new(text: &str) -> Lines {
        let mut starts = vec![0];
        for (i, b) in text.bytes().enumerate() {
            if b == b'\n' {
                starts.push(i + 1);
            }
        }
        Lines { starts }
    }

    /// The position of byte `offset` (a character boundary within `text`).
    pub fn position(&self, text: &str, offset: usize) -> Position {
        let line = self.starts.partition_point(|&s| s <= offset) - 1;
        let mut before = &text[self.starts[line]..offset];
        if text[offset..].starts_with('\n') {
            before = before.strip_suffix('\r').unwrap_or(before);
        }
        Position { line: line + 1, column: before.chars().count() + 1, column_utf16: before.encode_utf16().count() + 1 }
    }
}

/// What the checks of one lint pass need.
struct Cx<'a> {
    text: &'a str,
    lines: &'a Lines,
    agent: &'a str,
    pass: &'a str,
}

fn check_span(cx: &Cx, span: Span, what: &str, code: &str) {
    let (text, agent, pass) = (cx.text, cx.agent, cx.pass);
    if span.start > span.end || span.end > text.len() {
        violation(
            "span-out-of-bounds",
            format!("{pass}: {code} under {agent}: {what} {span:?} in a text of {} bytes", text.len()),
        );
    }
    if !text.is_char_boundary(span.start) || !text.is_char_boundary(span.end) {
        violation(
            "span-not-on-char-boundary",
            format!("{pass}: {code} under {agent}: {what} {span:?} splits a character"),
        );
    }
}

fn check_position(cx: &Cx, offset: usize, got: Position, what: &str, code: &str) {
    let text = cx.text;
    let want = cx.lines.position(text, offset);
    if got != want {
        violation(
            "position-disagrees-with-span",
            format!(
                "{}: {code} under {}: {what} at byte {offset} is reported at {got:?}, the text puts it at {want:?} \
                 (line {:?})",
                cx.pass,
                cx.agent,
                text.split('\n').nth(want.line - 1).unwrap_or("").chars().take(80).collect::<String>()
            ),
        );
    }
}

fn check_diagnostics(cx: &Cx, diags: &[Diagnostic]) {
    for d in diags {
        let code = d.code;
        check_span(cx, d.span, "span", code);
        check_position(cx, d.span.start, d.start, "start", code);
        check_position(cx, d.span.end, d.end, "end", code);
        for l in &d.labels {
            check_span(cx, l.span, "label span", code);
            check_position(cx, l.span.start, l.start, "label start", code);
            check_position(cx, l.span.end, l.end, "label end", code);
        }
        if let Some(fix) = &d.fix {
            check_fix(cx, fix, code);
        }
    }
}

fn check_fix(cx: &Cx, fix: &Fix, code: &str) {
    let (text, agent, pass) = (cx.text, cx.agent, cx.pass);
    let mut at = 0;
    let mut out = Vec::with_capacity(text.len());
    for e in &fix.edits {
        check_span(cx, e.span, "fix edit", code);
        if e.span.start < at {
            violation(
                "fix-edits-overlap-or-unsorted",
                format!("{pass}: {code} under {agent}: edit {:?} starts before the previous edit ends ({at})", e.span),
            );
        }
        out.extend_from_slice(&text.as_bytes()[at..e.span.start]);
        out.extend_from_slice(e.replacement.as_bytes());
        at = e.span.end;
    }
    out.extend_from_slice(&text.as_bytes()[at..]);
    if let Err(e) = String::from_utf8(out) {
        violation("fix-gives-invalid-utf8", format!("{pass}: {code} under {agent}: {e}"));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_count_characters_and_utf16_units_and_skip_the_cr_of_crlf() {
        let text = "a\r\né😀x\n";
        let lines = Lines::new(text);
        assert_eq!(lines.position(text, 0), Position { line: 1, column: 1, column_utf16: 1 });
        assert_eq!(lines.position(text, 1), Position { line: 1, column: 2, column_utf16: 2 });
        assert_eq!(lines.position(text, 2), Position { line: 1, column: 2, column_utf16: 2 });
        let x = text.find('x').unwrap();
        assert_eq!(lines.position(text, x), Position { line: 2, column: 3, column_utf16: 4 });
        assert_eq!(lines.position(text, text.len()), Position { line: 3, column: 1, column_utf16: 1 });
    }

    #[test]
    fn a_fix_that_splits_a_character_is_reported() {
        let text = "é";
        let fix = Fix {
            message: "m".into(),
            applicability: Applicability::Safe,
            edits: vec![skillkit::Edit { span: Span::new(1, 2), replacement: String::new() }],
        };
        let lines = Lines::new(text);
        let cx = Cx { text, lines: &lines, agent: "spec", pass: "lint" };
        let r = std::panic::catch_unwind(|| check_fix(&cx, &fix, "SK000"));
        assert!(r.is_err());
    }

    #[test]
    fn the_folder_is_named_after_a_plain_name_line() {
        assert!(folder_for(b"---\nname: pdf-tools\n").ends_with("pdf-tools"));
        assert!(folder_for(b"---\nname: ../x\n").ends_with("fuzz-skill"));
    }

    #[test]
    fn well_formed_skills_pass() {
        let opts = Options::default();
        run(b"---\nname: fuzz-skill\ndescription: Does things.\n---\nBody\n", &opts);
        run("\u{feff}---\r\nname: Bad_Name \r\ndescription: x\r\n---   \r\n# T\r\n".as_bytes(), &opts);
    }
}
