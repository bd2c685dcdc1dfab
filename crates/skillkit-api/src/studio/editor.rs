//! The editor: linting unsaved text, fixes, the frontmatter form, the preview. Lints and fixes
//! come from the engine's [`Workspace`] over the opened library (see [`crate::opened`]), the one
//! `skillkit lsp` answers from: each call puts the editor's text in it (`Workspace::edit`).

use crate::lock::lock;
use crate::prelude::*;
use skillkit::workspace::Workspace;
use std::sync::{Arc, Mutex};

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LintText {
    /// The skill file's path (its folder's files are read for the rules that need them).
    pub path: String,
    /// The editor's text, unsaved.
    pub text: String,
    pub agent: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Linted {
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ApplyFixes {
    pub text: String,
    pub fixes: Vec<Fix>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Fixed {
    pub text: String,
}

/// The editor's cursor in unsaved text: which fixes to offer there (`Ctrl+.`).
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct QuickFixes {
    pub path: String,
    pub text: String,
    pub agent: String,
    /// The cursor: 1-based line and 1-based UTF-16 column.
    pub line: usize,
    pub column_utf16: usize,
}

/// The diagnostics whose fix is offered at the cursor, the preferred fix first (the one that
/// clears every finding there and adds no error).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct QuickFixList {
    pub diagnostics: Vec<Diagnostic>,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FrontmatterText {
    pub text: String,
    /// The agent whose limits the form counts against (none: no limits).
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub agent: Option<String>,
}

/// A top-level frontmatter field for the form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FormField {
    pub key: String,
    /// `null` when the value is a list, a mapping or an alias (edited in the text).
    pub value: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FrontmatterForm {
    pub fields: Vec<FormField>,
    /// The fields' length limits under the agent, tightest first for each field.
    pub limits: Vec<skillkit::frontmatter_edit::FieldLimit>,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SetFrontmatterField {
    pub text: String,
    pub key: String,
    pub value: String,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RenderPreview {
    /// The skill file whose folder images and links are resolved in.
    pub path: String,
    /// The editor's text, unsaved.
    pub text: String,
}

/// A heading of the preview.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Heading {
    pub level: u8,
    pub title: String,
    /// The heading's `id` in the HTML.
    pub id: String,
}

/// An image of the body shown as its alt text, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SkippedImage {
    pub path: String,
    pub reason: String,
}

/// The editor's Markdown preview: sanitized HTML whose only images are `data:` URLs of files
/// inside the skill folder, and whose links to paths carry what the engine found there
/// (`data-link`: file, folder, missing or outside; `data-path`; a `title`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PreviewView {
    pub html: String,
    pub headings: Vec<Heading>,
    pub skipped_images: Vec<SkippedImage>,
}

fn not_a_skill_file(path: &str) -> AppError {
    AppError::new(ErrorCode::NotASkillFile, format!("{path} is not a SKILL.md"))
}

/// A skill file's unsaved text put in the editor's workspace.
pub(crate) struct Edited {
    /// The file, resolved inside the opened library.
    pub path: PathBuf,
    pub workspace: Arc<Mutex<Workspace>>,
    /// The file's diagnostics now.
    pub diagnostics: Vec<Diagnostic>,
}

impl Studio {
    /// The editor's workspace for `agent` with `text` put in as the unsaved text of the skill
    /// file at `path` (which must lie in the opened library), and the file's diagnostics now.
    pub(crate) fn edit_in_workspace(&self, path: &str, text: &str, agent_id: &str) -> Result<Edited, AppError> {
        let agent = agent(agent_id)?;
        let asked = path;
        let path = self.scope().check(Path::new(asked))?;
        if !is_skill_file(&path) {
            return Err(not_a_skill_file(asked));
        }
        let ws = self.library.workspace(agent, &path);
        let diagnostics = lock(&ws).edit(&path, text).unwrap_or_default();
        Ok(Edited { path, workspace: ws, diagnostics })
    }

    /// Lints unsaved text as the skill file at `path`: its own findings under the agent, as
    /// `skillkit lsp` publishes them on each change. Under another agent than the opened
    /// library's, the text is linted alone (`Workspace::lint_as`) and the workspace keeps its own.
    pub fn lint_text(&self, args: LintText) -> Result<Linted, AppError> {
        let asked = agent(&args.agent)?;
        if self.library.agent().is_some_and(|a| a.id != asked.id) {
            // Another agent than the library's (the agent pickers' counts): the text linted alone
            // under it, in the workspace as it stands.
            let path = self.scope().check(Path::new(&args.path))?;
            let ws = self.library.workspace(self.library.agent().unwrap_or(asked), &path);
            let diagnostics = lock(&ws).lint_as(&path, &args.text, asked);
            return diagnostics.map(|diagnostics| Linted { diagnostics }).ok_or_else(|| not_a_skill_file(&args.path));
        }
        let Edited { diagnostics, .. } = self.edit_in_workspace(&args.path, &args.text, &args.agent)?;
        Ok(Linted { diagnostics })
    }

    pub fn apply_fixes(&self, args: ApplyFixes) -> Result<Fixed, AppError> {
        let fixes = &args.fixes;
        for e in fixes.iter().flat_map(|f| &f.edits) {
            let ok = e.span.start <= e.span.end
                && e.span.end <= args.text.len()
                && args.text.is_char_boundary(e.span.start)
                && args.text.is_char_boundary(e.span.end);
            if !ok {
                return Err(AppError::new(ErrorCode::Io, "the fix no longer fits the text; lint again"));
            }
        }
        Ok(Fixed { text: skillkit::lint::diagnostic::apply_fixes(&args.text, fixes) })
    }

    /// The fixes offered at the cursor, in the engine's order (`Workspace::quick_fixes`: each is
    /// tried on the text, linted as `lint_text` lints it).
    pub fn quick_fixes(&self, args: QuickFixes) -> Result<QuickFixList, AppError> {
        let Edited { path, workspace, .. } = self.edit_in_workspace(&args.path, &args.text, &args.agent)?;
        let at = skillkit::lint::quick_fix::offset_at(&args.text, args.line, args.column_utf16);
        let diagnostics = lock(&workspace).quick_fixes(&path, skillkit::Span::empty(at));
        Ok(QuickFixList { diagnostics })
    }

    /// The frontmatter's top-level fields, for the form.
    pub fn frontmatter_form(&self, args: FrontmatterText) -> Result<FrontmatterForm, AppError> {
        let fields = skillkit::frontmatter_edit::form_fields(&args.text);
        let limits = match &args.agent {
            Some(id) => skillkit::frontmatter_edit::field_limits(agent(id)?),
            None => vec![],
        };
        Ok(FrontmatterForm {
            fields: fields.into_iter().map(|f| FormField { key: f.key, value: f.value }).collect(),
            limits,
        })
    }

    /// The text with one field's value rewritten (every other byte kept).
    pub fn set_frontmatter_field(&self, args: SetFrontmatterField) -> Result<Fixed, AppError> {
        skillkit::frontmatter_edit::set_field(&args.text, &args.key, &args.value)
            .map(|text| Fixed { text })
            .map_err(|e| AppError::new(ErrorCode::NotEditable, e.to_string()))
    }

    /// The body of unsaved skill text as the preview shows it (see `skillkit::preview`).
    pub fn render_preview(&self, args: RenderPreview) -> Result<PreviewView, AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        if !is_skill_file(&path) {
            return Err(AppError::new(ErrorCode::NotASkillFile, format!("{} is not a SKILL.md", args.path)));
        }
        let dir = path.parent().unwrap_or(Path::new("."));
        let p = skillkit::preview::render(dir, &args.text, skillkit::preview::PreviewLimits::default());
        Ok(PreviewView {
            html: p.html,
            headings: p
                .outline
                .into_iter()
                .filter(|s| s.level > 0)
                .map(|s| Heading { level: s.level, title: s.title, id: s.id })
                .collect(),
            skipped_images: p.skipped_images.into_iter().map(|(path, reason)| SkippedImage { path, reason }).collect(),
        })
    }
}
