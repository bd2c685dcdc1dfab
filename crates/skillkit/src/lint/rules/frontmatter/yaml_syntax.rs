use crate::lint::rules::{yaml_error_kind, Context, YamlErrorKind};

declare_rule! {
    /// The frontmatter is not valid YAML.
    ///
    /// ## What it does
    /// Reports where the YAML parser stopped, with its message. Two common causes have rules of
    /// their own with fixes: an unquoted `: ` in a value (`unquoted-colon`) and tab
    /// indentation (`tab-indentation`). Nesting deeper than 64 levels, more than 100,000 nodes
    /// and a second YAML document are reported here too.
    ///
    /// ## Why is this bad?
    /// Strict loaders drop the skill (DeepAgents: `Invalid YAML in %s`; skills-ref:
    /// `Invalid YAML in frontmatter: ...`); lenient ones guess, each differently.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: "Formats tables. Use when the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: "Formats tables. Use when the user asks for a Markdown table."
    /// ---
    /// Body.
    /// ```
    pub YamlSyntax {
        code: "SK106",
        name: "yaml-syntax",
        group: Frontmatter,
        severity: Error,
        fix: None,
        sources: ["skills-ref: Invalid YAML in frontmatter: {e}", "DeepAgents: Invalid YAML in %s: %s"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let Some(YamlErrorKind::Other) = yaml_error_kind(cx.skill) else { return };
    let skill = cx.skill;
    let err = skill.yaml.error.as_ref().unwrap();
    if cx.skills_ref() && crate::lint::rules::parity::flow_style::lenient_flow_before(cx, err.span.start) {
        return; // strictyaml reports the flow collection first; `flow-style` does.
    }
    let msg = if cx.skills_ref() {
        format!("Invalid YAML in frontmatter: {}", err.message)
    } else {
        format!("invalid YAML: {}", err.message)
    };
    cx.report(err.span, msg);
}
