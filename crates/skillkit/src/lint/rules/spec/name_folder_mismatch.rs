use crate::lint::rules::{fields_checkable, nfkc, Context};
use crate::lint::diagnostic::{Applicability, Edit};
use crate::lint::rules::spec::name_format::{checked_name, problems};

declare_rule! {
    /// `name` differs from the skill's folder name.
    ///
    /// ## What it does
    /// Compares `name` with the folder's name, both NFKC-normalised and case-sensitive, as
    /// skills-ref does. `skillkit` resolves the folder's real name, so `skillkit check .` inside a
    /// skill works (skills-ref compares against `''` there and fails).
    ///
    /// ## Why is this bad?
    /// The specification requires them to match. Agents disagree on which one they use: Claude
    /// Code lists `folder (name)` and takes the command from the folder; DeepAgents, Codex and
    /// Gemini CLI list the frontmatter name; Codex's `$folder` mention then matches nothing.
    ///
    /// ## Example
    /// ```skill folder=table-tools
    /// ---
    /// name: table-formatter
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill folder=table-formatter
    /// ---
    /// name: table-formatter
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Set `name` to the folder's name, when that is a valid name (unsafe: you may prefer to
    /// rename the folder).
    ///
    /// ## skills-ref
    /// `Directory name '{dir}' must match skill name '{name}'`
    pub NameFolderMismatch {
        code: "SK205",
        name: "name-folder-mismatch",
        group: Spec,
        severity: Error,
        fix: Unsafe,
        sources: ["spec: \"Must match the parent directory name\"", "skills-ref: Directory name '{dir}' must match skill name '{name}'", "DeepAgents: name '{name}' must match directory name '{directory_name}'"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) || cx.skill.dir_name.is_empty() {
        return;
    }
    let Some((name, span)) = checked_name(cx.skill) else { return };
    let dir = cx.skill.dir_name.clone();
    if nfkc(&dir) == name {
        return;
    }
    let msg = if cx.skills_ref() {
        format!("Directory name '{dir}' must match skill name '{name}'")
    } else {
        format!("`name` `{name}` does not match the folder name `{dir}`")
    };
    let report = cx.report(span, msg).help("rename the folder or change `name`: agents disagree on which one they use");
    if problems(&dir).is_empty() {
        report.fix(format!("Set `name` to `{dir}`"), Applicability::Unsafe, vec![Edit { span, replacement: dir.clone() }]);
    }
}
