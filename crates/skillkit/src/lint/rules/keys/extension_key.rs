use crate::lint::rules::{fields_checkable, Context};
use crate::syntax::fields::{known_field, Origin};

declare_rule! {
    /// A field that only some agents read, such as Claude Code's `when_to_use`.
    ///
    /// ## What it does
    /// Reports extension fields (not in the agentskills.io specification) and names the agents
    /// that read them: Claude Code's `when_to_use`, `argument-hint`, `arguments`,
    /// `disable-model-invocation`, `user-invocable`, `disallowed-tools`, `model`, `effort`,
    /// `context`, `agent`, `background`, `hooks`, `paths`, `shell`; harness9's `trigger`.
    ///
    /// ## Why is this bad?
    /// Other agents ignore the field, so the skill behaves differently across agents, and
    /// skills-ref (and claude.ai's upload) rejects the file for an unexpected field. Under
    /// `--agent agentskills` this is reported by `unknown-key` as an error.
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables.
    /// when_to_use: When the user asks for a Markdown table.
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
    pub ExtensionKey {
        code: "SK402",
        name: "extension-key",
        group: Keys,
        severity: Warning,
        fix: None,
        sources: ["Claude Code skills docs (Aug 2026): frontmatter reference", "harness9 design (seed 002): trigger", "skills-ref: Unexpected fields in frontmatter"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    if !fields_checkable(cx) {
        return;
    }
    let skill = cx.skill;
    for f in &skill.frontmatter.fields {
        let Some(Origin::Extension(agents)) = known_field(&f.key).map(|k| k.origin) else { continue };
        let who = agents.join(", ");
        cx.report(f.key_span, format!("`{}` is read by {who} only: other agents ignore it and skills-ref rejects it", f.key));
    }
}
