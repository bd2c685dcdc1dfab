use crate::lint::rules::{fields_checkable, Context};
use crate::lint::rules::spec::name_format::checked_name;

declare_rule! {
    /// `name` is longer than 64 characters.
    ///
    /// ## What it does
    /// Counts the characters (Unicode code points, after NFKC normalisation, as skills-ref does)
    /// of `name` and reports more than 64.
    ///
    /// ## Why is this bad?
    /// The specification limits names to 64 characters; skills-ref rejects longer ones and
    /// DeepAgents warns (`name exceeds 64 characters`).
    ///
    /// ## Example
    /// ```skill folder=convert-comma-separated-values-into-markdown-tables-with-aligned-columns
    /// ---
    /// name: convert-comma-separated-values-into-markdown-tables-with-aligned-columns
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill folder=csv-to-markdown
    /// ---
    /// name: csv-to-markdown
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## skills-ref
    /// `Skill name '{name}' exceeds 64 character limit ({n} chars)`
    pub NameTooLong {
        code: "SK203",
        name: "name-too-long",
        group: Spec,
        severity: Error,
        fix: None,
        sources: ["spec: \"Must be 1-64 characters\"", "skills-ref: Skill name '{name}' exceeds 64 character limit ({n} chars)", "DeepAgents: name exceeds 64 characters"],
    }
}

/// The longest `name` the specification allows, in characters.
pub(crate) const MAX_CHARS: usize = 64;

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some((name, span)) = checked_name(cx.skill) else { return };
    let n = name.chars().count();
    if n > MAX_CHARS {
        let msg = if cx.skills_ref() {
            format!("Skill name '{name}' exceeds 64 character limit ({n} chars)")
        } else {
            format!("`name` is {n} characters; the limit is 64")
        };
        cx.report(span, msg);
    }
}
