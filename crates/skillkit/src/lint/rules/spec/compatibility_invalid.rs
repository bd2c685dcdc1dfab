use crate::lint::rules::{entry_span, fields_checkable, is_null, scalar_text, thousands, Context};
use crate::lint::diagnostic::{Applicability, Edit};

declare_rule! {
    /// `compatibility` is empty, over 500 characters, or not a string.
    ///
    /// ## What it does
    /// Checks the optional `compatibility` field: a string of 1-500 characters.
    ///
    /// ## Why is this bad?
    /// The specification says "Must be 1-500 characters if provided". DeepAgents cuts longer
    /// values to 500. skills-ref accepts an empty value (it checks only the upper bound), so under
    /// `--agent agentskills` an empty value is not reported.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// compatibility: ""
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when the user asks for a Markdown table.
    /// compatibility: Requires python3
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// An empty `compatibility` line is removed (safe).
    ///
    /// ## skills-ref
    /// `Field 'compatibility' must be a string`; `Compatibility exceeds 500 character limit ({n} chars)`
    pub CompatibilityInvalid {
        code: "SK221",
        name: "compatibility-invalid",
        group: Spec,
        severity: Error,
        fix: Safe,
        sources: ["spec: \"Must be 1-500 characters if provided\"", "skills-ref: Compatibility exceeds 500 character limit ({n} chars)", "DeepAgents: truncates to 500"],
    }
}

/// The specification's limit on `compatibility`, in characters.
pub(crate) const MAX_CHARS: usize = 500;

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let Some(field) = cx.skill.frontmatter.get("compatibility") else { return };
    let Some(text) = scalar_text(field) else {
        let msg = if cx.skills_ref() {
            "Field 'compatibility' must be a string".to_string()
        } else {
            format!("`compatibility` must be a string, not a {}", field.value.kind_name())
        };
        cx.report(entry_span(field), msg);
        return;
    };
    let n = text.chars().count();
    if n > MAX_CHARS {
        let msg = if cx.skills_ref() {
            format!("Compatibility exceeds 500 character limit ({n} chars)")
        } else {
            format!("`compatibility` is {} characters, over the 500 allowed; DeepAgents keeps only the first 500", thousands(n))
        };
        cx.report(field.value.span, msg);
    } else if (is_null(field) || text.trim().is_empty()) && !cx.skills_ref() {
        let remove = cx.skill.lines.line_with_ending(cx.skill.lines.line_of(field.key_span.start));
        cx.report(entry_span(field), "`compatibility` is empty; remove it or say what the skill needs")
            .fix("Remove the empty field", Applicability::Safe, vec![Edit { span: remove, replacement: String::new() }]);
    }
}
