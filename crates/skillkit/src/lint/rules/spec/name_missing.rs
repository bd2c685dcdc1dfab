use crate::lint::rules::{fields_checkable, frontmatter_anchor, Context};
use crate::lint::diagnostic::{Applicability, Edit};
use crate::syntax::text::Span;

declare_rule! {
    /// The frontmatter has no `name` field.
    ///
    /// ## What it does
    /// Reports frontmatter without a `name` key.
    ///
    /// ## Why is this bad?
    /// `name` is required by the specification and is the skill's id. DeepAgents and Gemini CLI
    /// drop the skill; Claude Code and Codex fall back to the folder name; skills-ref rejects it.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Insert `name:` with the folder's name (unsafe: check that the folder is named as the
    /// skill should be).
    ///
    /// ## skills-ref
    /// `Missing required field in frontmatter: name`
    pub NameMissing {
        code: "SK201",
        name: "name-missing",
        group: Spec,
        severity: Error,
        fix: Unsafe,
        sources: ["spec: name | Yes", "skills-ref: Missing required field in frontmatter: name", "DeepAgents: Skipping %s: missing required 'name' or 'description'"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) || cx.skill.frontmatter.get("name").is_some() {
        return;
    }
    let msg = if cx.skills_ref() {
        "Missing required field in frontmatter: name"
    } else {
        "missing required field `name`"
    };
    let dir = cx.skill.dir_name.clone();
    let at = cx.skill.split.yaml.map_or(0, |y| y.start);
    let nl = if cx.skill.split.crlf { "\r\n" } else { "\n" };
    let report = cx.report(frontmatter_anchor(cx.skill), msg);
    if crate::lint::rules::spec::name_format::problems(&dir).is_empty() && !dir.is_empty() {
        report.fix(
            format!("Add `name: {dir}`"),
            Applicability::Unsafe,
            vec![Edit { span: Span::empty(at), replacement: format!("name: {dir}{nl}") }],
        );
    }
}
