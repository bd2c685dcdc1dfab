//! The quick fixes an editor offers where the cursor is, the preferred one first. Every edge
//! that offers fixes (the language server's code actions, the app's `Ctrl+.` menu) asks here, so
//! they agree on the order.
//!
//! Several diagnostics often sit on one span, each with its own fix: `name: claude-api Helper`
//! in the folder `claude-api` is both a bad name (fix: "Rename to `claude-api-helper`") and a
//! folder mismatch (fix: "Set `name` to `claude-api`"). The first would leave a new folder
//! mismatch; the second clears both. So each fix is tried: the text is linted again with it
//! applied, and the fixes are ranked by what they leave behind. The preferred fix adds no error,
//! clears the most diagnostics at the cursor, adds the fewest findings of any kind, and is safe
//! rather than unsafe; ties keep the errors first, then the order of the file.

use crate::lint::diagnostic::{apply_fixes, Applicability, Diagnostic, Severity};
use crate::syntax::text::{LineIndex, Span};
use std::cmp::Reverse;
use std::collections::HashMap;

/// The byte offset of a 1-based line and 1-based UTF-16 column in `text` (what JavaScript and
/// CodeMirror count), clamped to the line's end and the text's.
pub fn offset_at(text: &str, line: usize, column_utf16: usize) -> usize {
    let index = LineIndex::new(text);
    if line == 0 || line > index.line_count(text).max(1) {
        return if line == 0 { 0 } else { text.len() };
    }
    let span = index.line_span(text, line - 1);
    let mut units = 1;
    for (i, c) in span.slice(text).char_indices() {
        if units >= column_utf16 {
            return span.start + i;
        }
        units += c.len_utf16();
    }
    span.end
}

/// How applying one fix leaves the text, for ranking.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Rank {
    /// Errors the fix brings that were not there (counted per rule code).
    new_errors: usize,
    /// Diagnostics at the cursor it clears (more is better).
    cleared: Reverse<usize>,
    /// Findings of any severity it brings.
    new_findings: usize,
    /// Safe before unsafe.
    unsafe_fix: bool,
    /// The diagnostic's own severity: errors' fixes first.
    severity: Severity,
}

fn counts<'a>(ds: impl IntoIterator<Item = &'a Diagnostic>) -> HashMap<&'static str, usize> {
    let mut m = HashMap::new();
    for d in ds {
        *m.entry(d.code).or_insert(0) += 1;
    }
    m
}

/// What `before` had more of than `after`, or `after` more of than `before`, per code.
fn excess(more: &HashMap<&'static str, usize>, than: &HashMap<&'static str, usize>) -> usize {
    more.iter().map(|(code, n)| n.saturating_sub(than.get(code).copied().unwrap_or(0))).sum()
}

/// The diagnostics of `diagnostics` (the findings of `text`) whose fix an editor offers at `at`
/// (the cursor, or a selection, as a byte span of `text`), as indices into `diagnostics`, the
/// preferred fix first (see the module's documentation). Those touching `at` are offered; when
/// none touches it, those on its lines. A fix shown only as a suggestion is not offered, and a fix
/// that makes the same edits as one already offered is offered once. `relint` lints a text as
/// `diagnostics` were linted (same file, same profile).
pub fn fixes_at(
    text: &str,
    diagnostics: &[Diagnostic],
    at: Span,
    mut relint: impl FnMut(&str) -> Vec<Diagnostic>,
) -> Vec<usize> {
    let touches = |d: &Diagnostic, s: Span| d.span.start <= s.end && s.start <= d.span.end;
    let fixable = |d: &Diagnostic| {
        d.fix.as_ref().is_some_and(|f| f.applicability != Applicability::DisplayOnly && !f.edits.is_empty())
    };
    let mut region = at;
    if !diagnostics.iter().any(|d| fixable(d) && touches(d, at)) {
        let index = LineIndex::new(text);
        let first = index.line_span(text, index.line_of(at.start.min(text.len())));
        let last = index.line_span(text, index.line_of(at.end.min(text.len())));
        region = first.cover(last);
    }
    let mut offered: Vec<usize> = vec![];
    for (i, d) in diagnostics.iter().enumerate() {
        if !fixable(d) || !touches(d, region) {
            continue;
        }
        if offered.iter().any(|&j| diagnostics[j].fix.as_ref().map(|f| &f.edits) == d.fix.as_ref().map(|f| &f.edits)) {
            continue;
        }
        offered.push(i);
    }
    if offered.len() < 2 {
        return offered;
    }
    let before = counts(diagnostics);
    let errors_before = counts(diagnostics.iter().filter(|d| d.severity == Severity::Error));
    let here = counts(diagnostics.iter().filter(|d| touches(d, region)));
    let mut ranked: Vec<(Rank, usize)> = offered
        .into_iter()
        .map(|i| {
            let d = &diagnostics[i];
            let fix = d.fix.as_ref().expect("offered fixes exist");
            let after = relint(&apply_fixes(text, [fix]));
            let now = counts(&after);
            let errors_now = counts(after.iter().filter(|d| d.severity == Severity::Error));
            let cleared = here
                .iter()
                .map(|(code, n)| {
                    let gone =
                        before.get(code).copied().unwrap_or(0).saturating_sub(now.get(code).copied().unwrap_or(0));
                    gone.min(*n)
                })
                .sum();
            let rank = Rank {
                new_errors: excess(&errors_now, &errors_before),
                cleared: Reverse(cleared),
                new_findings: excess(&now, &before),
                unsafe_fix: fix.applicability != Applicability::Safe,
                severity: d.severity,
            };
            (rank, i)
        })
        .collect();
    // Stable: equal ranks keep the order of the file.
    ranked.sort_by_key(|(rank, _)| *rank);
    ranked.into_iter().map(|(_, i)| i).collect()
}
