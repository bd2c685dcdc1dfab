use crate::lint::rules::{entry_span, fields_checkable, is_null, scalar_text, Context};

declare_rule! {
    /// `name` is empty, blank or not a string.
    ///
    /// ## What it does
    /// Reports a `name` key with no value, only whitespace, or a list or map as its value.
    ///
    /// ## Why is this bad?
    /// The specification requires 1-64 characters. Loaders that need a name drop the skill.
    ///
    /// ## Example
    /// ```skill folder=my-skill
    /// ---
    /// name:
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
    /// ## skills-ref
    /// `Field 'name' must be a non-empty string`
    pub NameEmpty {
        code: "SK202",
        name: "name-empty",
        group: Spec,
        severity: Error,
        fix: None,
        sources: ["spec: \"Must be 1-64 characters\"", "skills-ref: Field 'name' must be a non-empty string"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some(field) = cx.skill.frontmatter.get("name") else { return };
    let empty = is_null(field) || scalar_text(field).is_none_or(|t| t.trim().is_empty());
    if !empty {
        return;
    }
    let msg = if cx.skills_ref() {
        "Field 'name' must be a non-empty string".to_string()
    } else if scalar_text(field).is_none() {
        format!("`name` must be a string, not a {}", field.value.kind_name())
    } else {
        "`name` is empty".to_string()
    };
    cx.report(entry_span(field), msg).help("set `name` to the folder name: lowercase letters, digits and hyphens");
}
