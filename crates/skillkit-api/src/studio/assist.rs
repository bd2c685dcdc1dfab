//! The editor's hover and completion: what the engine's [`Workspace`](skillkit::workspace::Workspace)
//! answers `skillkit lsp`'s hover and completion requests with, at a place of the editor's
//! unsaved text. Places are editor positions (1-based line, 1-based UTF-16 column), as
//! CodeMirror counts them and as the diagnostics carry them.

use crate::lock::lock;
use crate::prelude::*;
use crate::studio::editor::Edited;
use skillkit::syntax::text::LineIndex;
use skillkit::workspace::{Completion, CompletionKind};

/// A place in the editor's unsaved text of a skill file.
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AssistAt {
    pub path: String,
    pub text: String,
    pub agent: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based UTF-16 column.
    pub column_utf16: usize,
}

/// The hover's Markdown and the text it is about.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct HoverView {
    pub markdown: String,
    pub start: Position,
    pub end: Position,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Hovered {
    /// `null` where there is nothing to say (outside the frontmatter's keys and values).
    pub hover: Option<HoverView>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum CompletionItemKind {
    /// A frontmatter key.
    Key,
    /// One of a key's enumerated values.
    Value,
    /// A file of the skill folder.
    File,
    /// A folder of the skill folder.
    Folder,
}

/// One completion: `insert` replaces the text from `start` to `end` (what was typed so far).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct CompletionItem {
    pub label: String,
    pub kind: CompletionItemKind,
    /// "specification field", "claude-code extension", …
    pub detail: String,
    /// Markdown: what the key is and which agents read it (empty for files).
    pub documentation: String,
    pub insert: String,
    pub start: Position,
    pub end: Position,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Completions {
    pub items: Vec<CompletionItem>,
}

fn item(text: &str, lines: &LineIndex, c: Completion) -> CompletionItem {
    CompletionItem {
        kind: match c.kind {
            CompletionKind::Key => CompletionItemKind::Key,
            CompletionKind::Value => CompletionItemKind::Value,
            CompletionKind::File => CompletionItemKind::File,
            CompletionKind::Folder => CompletionItemKind::Folder,
        },
        start: lines.position(text, c.span.start),
        end: lines.position(text, c.span.end),
        label: c.label,
        detail: c.detail,
        documentation: c.documentation,
        insert: c.insert,
    }
}

impl Studio {
    /// The hover at a place of the editor's text: a frontmatter key's documentation (what it is,
    /// which agents read it and how), or the description's size and how each agent lists it.
    pub fn hover(&self, args: AssistAt) -> Result<Hovered, AppError> {
        let Edited { path, workspace, .. } = self.edit_in_workspace(&args.path, &args.text, &args.agent)?;
        let at = skillkit::lint::quick_fix::offset_at(&args.text, args.line, args.column_utf16);
        let hover = lock(&workspace).hover(&path, at);
        let lines = LineIndex::new(&args.text);
        Ok(Hovered {
            hover: hover.map(|h| HoverView {
                start: lines.position(&args.text, h.span.start),
                end: lines.position(&args.text, h.span.end),
                markdown: h.markdown,
            }),
        })
    }

    /// The completions at a place of the editor's text: frontmatter keys at the start of a
    /// top-level line, a key's enumerated values after its colon, the skill folder's files in a
    /// Markdown link's destination.
    pub fn complete(&self, args: AssistAt) -> Result<Completions, AppError> {
        let Edited { path, workspace, .. } = self.edit_in_workspace(&args.path, &args.text, &args.agent)?;
        let at = skillkit::lint::quick_fix::offset_at(&args.text, args.line, args.column_utf16);
        let found = lock(&workspace).complete(&path, at);
        let lines = LineIndex::new(&args.text);
        Ok(Completions { items: found.into_iter().map(|c| item(&args.text, &lines, c)).collect() })
    }
}
