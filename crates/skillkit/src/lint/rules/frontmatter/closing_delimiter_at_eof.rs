use crate::lint::rules::Context;
use crate::lint::diagnostic::{Applicability, Edit};
use crate::syntax::text::Span;

declare_rule! {
    /// The closing `---` is the last line and has no line ending.
    ///
    /// ## What it does
    /// Reports a file that ends right after the closing delimiter, with no newline (and so no
    /// body).
    ///
    /// ## Why is this bad?
    /// DeepAgents finds frontmatter with `^---\s*\n(.*?)\n---\s*\n`, which needs a newline after
    /// the closing `---`: it skips this skill (`no valid YAML frontmatter found`). A skill without
    /// a body also gives the agent nothing to do once loaded.
    ///
    /// ## Example
    /// ```skill eof
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Print the table with a header row.
    /// ```
    ///
    /// ## Fix
    /// Add a line ending after `---` (safe).
    pub ClosingDelimiterAtEof {
        code: "SK105",
        name: "closing-delimiter-at-eof",
        group: Frontmatter,
        severity: Warning,
        fix: Safe,
        sources: ["DeepAgents SkillsMiddleware: re.match(r\"^---\\s*\\n(.*?)\\n---\\s*\\n\", ...)"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let split = &cx.skill.split;
    if let (Some(close), false) = (split.close, split.close_newline) {
        let nl = if split.crlf { "\r\n" } else { "\n" };
        cx.report(close, "no line ending after the closing `---`: DeepAgents does not find this frontmatter")
            .fix("Add a line ending", Applicability::Safe, vec![Edit { span: Span::empty(close.end), replacement: nl.into() }]);
    }
}
