use crate::lint::rules::Context;

declare_rule! {
    /// The body after the frontmatter is empty.
    ///
    /// ## What it does
    /// Reports a skill with frontmatter but no instructions after it.
    ///
    /// ## Why is this bad?
    /// When the agent activates the skill it gets nothing to follow: the body is the skill.
    ///
    /// ## Example
    /// ```skill
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
    /// Print the table with a header row and align numbers to the right.
    /// ```
    pub BodyEmpty {
        code: "SK503",
        name: "body-empty",
        group: Body,
        severity: Warning,
        fix: None,
        sources: ["spec: \"The Markdown body after the frontmatter contains the skill instructions\""],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let Some(close) = cx.skill.split.close else { return };
    if cx.skill.is_readable() && cx.skill.body().trim().is_empty() {
        cx.report(close, "no instructions after the frontmatter");
    }
}
