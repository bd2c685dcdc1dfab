use crate::lint::rules::{entry_span, fields_checkable, is_null, scalar_text, Context};

declare_rule! {
    /// `description` is empty, blank or not a string.
    ///
    /// ## What it does
    /// Reports a `description` with no value, only whitespace, or a list or map as its value.
    ///
    /// ## Why is this bad?
    /// The specification requires a non-empty description. DeepAgents skips the skill, Codex
    /// refuses it, Gemini CLI lists it with an empty `<description>`.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: ""
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
    /// `Field 'description' must be a non-empty string`
    pub DescriptionEmpty {
        code: "SK212",
        name: "description-empty",
        group: Spec,
        severity: Error,
        fix: None,
        sources: ["spec: \"Must be 1-1024 characters\", \"Non-empty\"", "skills-ref: Field 'description' must be a non-empty string"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some(field) = cx.skill.frontmatter.get("description") else { return };
    if !(is_null(field) || scalar_text(field).is_none_or(|t| t.trim().is_empty())) {
        return;
    }
    let msg = if cx.skills_ref() {
        "Field 'description' must be a non-empty string".to_string()
    } else if scalar_text(field).is_none() {
        format!("`description` must be a string, not a {}", field.value.kind_name())
    } else {
        "`description` is empty".to_string()
    };
    cx.report(entry_span(field), msg);
}
