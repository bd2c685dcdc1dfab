use crate::lint::rules::{fields_checkable, frontmatter_anchor, Context};

declare_rule! {
    /// The frontmatter has no `description` field.
    ///
    /// ## What it does
    /// Reports frontmatter without a `description` key.
    ///
    /// ## Why is this bad?
    /// The description is all an agent sees when deciding whether to use a skill. DeepAgents and
    /// Gemini CLI drop the skill, Codex refuses it (`missing field description`), Claude Code
    /// falls back to the body's first paragraph, and skills-ref rejects it.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
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
    /// ## skills-ref
    /// `Missing required field in frontmatter: description`
    pub DescriptionMissing {
        code: "SK211",
        name: "description-missing",
        group: Spec,
        severity: Error,
        fix: None,
        sources: ["spec: description | Yes", "skills-ref: Missing required field in frontmatter: description", "Codex 0.169.0: missing field `description`"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) || cx.skill.frontmatter.get("description").is_some() {
        return;
    }
    let msg = if cx.skills_ref() {
        "Missing required field in frontmatter: description"
    } else {
        "missing required field `description`"
    };
    cx.report(frontmatter_anchor(cx.skill), msg)
        .help("say what the skill does and when to use it, with the words a user would say");
}
