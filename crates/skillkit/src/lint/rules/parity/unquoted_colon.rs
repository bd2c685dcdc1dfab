use crate::lint::rules::{quote_edit, ruamel_mark, yaml_error_kind, Context, YamlErrorKind};
use crate::lint::diagnostic::Applicability;

declare_rule! {
    /// A value contains `: ` without quotes, which is not valid YAML.
    ///
    /// ## What it does
    /// Reports `key: text: more text`, where the second `: ` makes YAML read a nested mapping
    /// that is not allowed there. This is the most common frontmatter bug (agentskills client
    /// guide: "The most common issue is unquoted values containing colons").
    ///
    /// ## Why is this bad?
    /// Agents split on it. DeepAgents (`mapping values are not allowed here`) and skills-ref drop
    /// or reject the skill; Claude Code, Codex and Gemini CLI read the rest of the line leniently
    /// and list it. So the skill works in one agent and silently disappears in another.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables. Use when: the user asks for a Markdown table.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: "Formats tables. Use when: the user asks for a Markdown table."
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Fix
    /// Wrap the value in double quotes, escaping `"` and `\` (safe).
    ///
    /// ## skills-ref
    /// `Invalid YAML in frontmatter: mapping values are not allowed here` with ruamel's location.
    pub UnquotedColon {
        code: "SK301",
        name: "unquoted-colon",
        group: Parity,
        severity: Error,
        fix: Safe,
        sources: [
            "agentskills client guide: \"unquoted values containing colons\"",
            "oracles 2026-11-22: DeepAgents 0.7.32 skips, Claude Code 2.1.330 / Codex 0.169.0 / Gemini CLI 0.61.0 list it, skills-ref 0.1.1 fails",
            "anthropics/skills #338, anthropics/claude-code #78270",
        ],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let Some(YamlErrorKind::UnquotedColon { key, value, .. }) = yaml_error_kind(cx.skill) else { return };
    let err_at = cx.skill.yaml.error.as_ref().unwrap().span.start;
    let key_text = key.slice(cx.text()).to_string();
    let msg = if cx.skills_ref() {
        format!("Invalid YAML in frontmatter: mapping values are not allowed here\n{}", ruamel_mark(cx.skill, err_at))
    } else {
        format!("unquoted `: ` in the value of `{key_text}`: not valid YAML. DeepAgents and skills-ref drop this skill; Claude Code, Codex and Gemini CLI read the rest of the line as the value")
    };
    let edit = quote_edit(cx.text(), value);
    cx.report(value, msg)
        .label(crate::syntax::text::Span::new(err_at, err_at + 1), "YAML reads a second key here")
        .fix("Quote the value", Applicability::Safe, vec![edit]);
}
