//! The engine's answers as the protocol's types, and back: byte offsets and UTF-16 positions,
//! diagnostics, completions, edits, locations. Pure functions, no state.

use lsp_types as lsp;
use serde_json::Value;
use skillkit::syntax::text::{LineIndex, Span};
use skillkit::syntax::uri::file_uri;
use skillkit::workspace::CompletionKind;
use std::collections::HashMap;
use std::path::Path;

pub(crate) fn to_value<T: serde::Serialize>(v: T) -> Value {
    serde_json::to_value(v).unwrap_or(Value::Null)
}

pub(crate) fn edit(uri: &lsp::Uri, edits: Vec<lsp::TextEdit>) -> lsp::WorkspaceEdit {
    #[allow(clippy::mutable_key_type)] // `Uri` caches its parts; the protocol's type is keyed by it.
    let changes = HashMap::from([(uri.clone(), edits)]);
    lsp::WorkspaceEdit { changes: Some(changes), ..Default::default() }
}

/// One edit replacing the whole text.
pub(crate) fn whole(text: &str, lines: &LineIndex, new_text: String) -> lsp::TextEdit {
    lsp::TextEdit { range: range(text, lines, Span::new(0, text.len())), new_text }
}

pub(crate) fn location(path: &Path) -> Option<lsp::Location> {
    Some(lsp::Location { uri: file_uri(path).parse().ok()?, range: lsp::Range::default() })
}

pub(crate) fn completion(text: &str, lines: &LineIndex, c: skillkit::workspace::Completion) -> lsp::CompletionItem {
    let kind = match c.kind {
        CompletionKind::Key => lsp::CompletionItemKind::PROPERTY,
        CompletionKind::Value => lsp::CompletionItemKind::ENUM_MEMBER,
        CompletionKind::File => lsp::CompletionItemKind::FILE,
        CompletionKind::Folder => lsp::CompletionItemKind::FOLDER,
    };
    let documentation =
        (!c.documentation.is_empty()).then_some(lsp::Documentation::MarkupContent(lsp::MarkupContent {
            kind: lsp::MarkupKind::Markdown,
            value: c.documentation,
        }));
    lsp::CompletionItem {
        label: c.label,
        kind: Some(kind),
        detail: Some(c.detail),
        documentation,
        text_edit: Some(lsp::CompletionTextEdit::Edit(lsp::TextEdit {
            range: range(text, lines, c.span),
            new_text: c.insert,
        })),
        ..Default::default()
    }
}

/// The engine's diagnostic as the protocol's: 0-based lines and UTF-16 columns.
pub(crate) fn diagnostic(d: &skillkit::Diagnostic) -> lsp::Diagnostic {
    let position = |p: &skillkit::Position| lsp::Position {
        line: p.line.saturating_sub(1) as u32,
        character: p.column_utf16.saturating_sub(1) as u32,
    };
    let severity = match d.severity {
        skillkit::Severity::Error => lsp::DiagnosticSeverity::ERROR,
        skillkit::Severity::Warning => lsp::DiagnosticSeverity::WARNING,
        skillkit::Severity::Info => lsp::DiagnosticSeverity::INFORMATION,
    };
    lsp::Diagnostic {
        range: lsp::Range { start: position(&d.start), end: position(&d.end) },
        severity: Some(severity),
        code: Some(lsp::NumberOrString::String(d.code.to_string())),
        source: Some("skillkit".into()),
        message: match &d.help {
            Some(help) => format!("{}\n{help}", d.message),
            None => d.message.clone(),
        },
        ..Default::default()
    }
}

/// A byte span of `text` as a protocol range, through the text's line index (built once per
/// version of the text, not per range).
pub(crate) fn range(text: &str, lines: &LineIndex, span: Span) -> lsp::Range {
    let position = |offset: usize| {
        let p = lines.position(text, offset);
        lsp::Position { line: (p.line - 1) as u32, character: (p.column_utf16 - 1) as u32 }
    };
    lsp::Range { start: position(span.start), end: position(span.end) }
}

/// Applies one change: the whole text, or a range (0-based line, UTF-16 column) replaced.
pub(crate) fn apply(text: &mut String, change: lsp::TextDocumentContentChangeEvent) {
    match change.range {
        None => *text = change.text,
        Some(range) => {
            let start = offset(text, range.start);
            let end = offset(text, range.end).max(start);
            text.replace_range(start..end, &change.text);
        }
    }
}

/// The byte offset of a protocol position in `text`, clamped to the line's end and the text's.
pub(crate) fn offset(text: &str, p: lsp::Position) -> usize {
    let mut line_start = 0;
    for _ in 0..p.line {
        match memchr_newline(&text[line_start..]) {
            Some(i) => line_start += i + 1,
            None => return text.len(),
        }
    }
    let line_end = memchr_newline(&text[line_start..]).map_or(text.len(), |i| line_start + i);
    let mut units = 0u32;
    for (i, c) in text[line_start..line_end].char_indices() {
        if units >= p.character {
            return line_start + i;
        }
        units += c.len_utf16() as u32;
    }
    line_end
}

fn memchr_newline(s: &str) -> Option<usize> {
    s.bytes().position(|b| b == b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillkit::syntax::uri::file_path;
    use std::path::PathBuf;

    #[test]
    fn positions_count_utf16_units_and_clamp() {
        let text = "ab\né😀x\nlast";
        let at = |line, character| offset(text, lsp::Position { line, character });
        assert_eq!(at(1, 0), 3);
        assert_eq!(at(1, 1), 5);
        assert_eq!(at(1, 3), 9);
        assert_eq!(at(1, 99), 10);
        assert_eq!(at(9, 0), text.len());
        let mut t = text.to_string();
        let r =
            lsp::Range { start: lsp::Position { line: 1, character: 1 }, end: lsp::Position { line: 1, character: 3 } };
        apply(&mut t, lsp::TextDocumentContentChangeEvent { range: Some(r), range_length: None, text: "-".into() });
        assert_eq!(t, "ab\né-x\nlast");
        assert_eq!(range(text, &LineIndex::new(text), Span::new(5, 9)), r);
        assert_eq!(file_uri(Path::new("/a b/é/SKILL.md")), "file:///a%20b/%C3%A9/SKILL.md");
        assert_eq!(file_path(&file_uri(Path::new("/a b/é/SKILL.md"))), Some(PathBuf::from("/a b/é/SKILL.md")));
    }
}
