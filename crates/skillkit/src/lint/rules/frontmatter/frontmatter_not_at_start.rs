use crate::lint::rules::Context;
use crate::lint::diagnostic::{Applicability, Edit};

declare_rule! {
    /// Blank lines or an HTML comment come before the opening `---`.
    ///
    /// ## What it does
    /// Reports text before the frontmatter's opening delimiter. `skillkit` still finds the
    /// frontmatter after it, so the other rules keep working.
    ///
    /// ## Why is this bad?
    /// Loaders look for `---` at the very start of the file: skills-ref rejects the file
    /// (`SKILL.md must start with YAML frontmatter (---)`) and DeepAgents's
    /// `^---\s*\n` does not match, so it skips the skill.
    ///
    /// ## Example
    /// ```skill
    /// <!-- generated, do not edit -->
    /// ---
    /// name: my-skill
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
    /// <!-- generated, do not edit -->
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Delete what precedes the opening `---` (unsafe: a comment is removed; move it into the body
    /// if you need it).
    pub FrontmatterNotAtStart {
        code: "SK102",
        name: "frontmatter-not-at-start",
        group: Frontmatter,
        severity: Error,
        fix: Unsafe,
        sources: ["agentskills client guide: find the opening `---` at the start of the file", "skills-ref: SKILL.md must start with YAML frontmatter (---)", "DeepAgents: re.match(r\"^---\\s*\\n(.*?)\\n---\\s*\\n\", content, re.DOTALL)"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if let Some(span) = cx.skill.split.leading {
        let msg = if cx.skills_ref() {
            "SKILL.md must start with YAML frontmatter (---)"
        } else {
            "text before the opening `---`: DeepAgents and skills-ref only find frontmatter on the first line"
        };
        cx.report(span, msg).fix(
            "Remove the lines before the frontmatter",
            Applicability::Unsafe,
            vec![Edit { span, replacement: String::new() }],
        );
    }
}
