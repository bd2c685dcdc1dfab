//! Diagnostics as data: what a rule found, where, why it matters and how to fix it. Rendering
//! (terminal, JSON, SARIF, editor squiggles) is the job of the edges.

use crate::syntax::text::{Position, Span};
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    Error,
    Warning,
    Info,
}

impl Severity {
    pub fn as_str(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Info => "info",
        }
    }
}

/// How sure a fix is to keep the author's meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum Applicability {
    /// Keeps meaning; may be applied without review.
    Safe,
    /// Probably what the author wants, but changes meaning; apply after review.
    Unsafe,
    /// Shown as a suggestion only; never applied automatically.
    DisplayOnly,
}

/// Replace the bytes of `span` with `replacement`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Edit {
    pub span: Span,
    pub replacement: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Fix {
    /// What applying the fix does, e.g. "Quote the value".
    pub message: String,
    pub applicability: Applicability,
    /// Non-overlapping edits, sorted by position.
    pub edits: Vec<Edit>,
}

/// A secondary location that explains the primary one.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Label {
    pub span: Span,
    pub message: String,
    pub start: Position,
    pub end: Position,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Diagnostic {
    /// Stable rule code, e.g. `SK201`.
    pub code: &'static str,
    /// Kebab-case rule name, e.g. `name-missing`.
    pub rule: &'static str,
    pub severity: Severity,
    pub message: String,
    /// Primary byte span in the file's text.
    pub span: Span,
    pub start: Position,
    pub end: Position,
    pub labels: Vec<Label>,
    pub help: Option<String>,
    /// Path of the rule's documentation inside the repository.
    pub docs: String,
    pub fix: Option<Fix>,
}

/// Apply the edits of `fixes` to `text`. Overlapping edits after the first are skipped, as an
/// editor would; returns the new text.
pub fn apply_fixes<'a>(text: &str, fixes: impl IntoIterator<Item = &'a Fix>) -> String {
    let mut edits: Vec<&Edit> = fixes.into_iter().flat_map(|f| f.edits.iter()).collect();
    edits.sort_by_key(|e| (e.span.start, e.span.end));
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for e in edits {
        if e.span.start < at {
            continue;
        }
        debug_assert!(text.is_char_boundary(e.span.start) && text.is_char_boundary(e.span.end));
        out.push_str(&text[at..e.span.start]);
        out.push_str(&e.replacement);
        at = e.span.end;
    }
    out.push_str(&text[at..]);
    out
}

/// The furthest byte `diagnostics` (with their labels) point at: what a report of them needs of
/// the text ([`crate::skill::Skill::keep_through`]).
pub fn reach(diagnostics: &[Diagnostic]) -> usize {
    diagnostics
        .iter()
        .flat_map(|d| std::iter::once(d.span.end).chain(d.labels.iter().map(|l| l.span.end)))
        .max()
        .unwrap_or(0)
}
