use crate::lint::rules::Context;
use crate::syntax::frontmatter::Reading;

declare_rule! {
    /// The frontmatter is YAML, but not a mapping of keys to values.
    ///
    /// ## What it does
    /// Reports frontmatter whose top level is a list or a plain value instead of `key: value`
    /// lines. Under `--agent agentskills`, empty frontmatter is reported here too, as skills-ref
    /// does; otherwise `name-missing` and `description-missing` say what to add.
    ///
    /// ## Why is this bad?
    /// Fields can only be read from a mapping: every agent drops the skill (DeepAgents:
    /// `frontmatter is not a mapping`).
    ///
    /// ## Example
    /// ```skill
    /// ---
    /// - name: my-skill
    /// - description: Formats tables.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## Use instead
    /// ```skill
    /// ---
    /// name: my-skill
    /// description: Formats tables.
    /// ---
    /// Body.
    /// ```
    ///
    /// ## skills-ref
    /// `SKILL.md frontmatter must be a YAML mapping`
    pub FrontmatterNotMapping {
        code: "SK107",
        name: "frontmatter-not-mapping",
        group: Frontmatter,
        severity: Error,
        fix: None,
        sources: ["skills-ref: SKILL.md frontmatter must be a YAML mapping", "DeepAgents: Skipping %s: frontmatter is not a mapping"],
    }
}

pub(crate) fn check(cx: &mut Context<'_>) {
    let reading = cx.skill.frontmatter.reading;
    if reading == Reading::Empty && cx.skills_ref() {
        let span = cx.skill.split.open.unwrap_or_default();
        cx.report(span, "SKILL.md frontmatter must be a YAML mapping");
        return;
    }
    if reading != Reading::NotMapping {
        return;
    }
    let root = cx.skill.yaml.root.as_ref().unwrap();
    let msg = if cx.skills_ref() {
        "SKILL.md frontmatter must be a YAML mapping".to_string()
    } else {
        format!("frontmatter is a {}, not a mapping of `key: value` fields", root.kind_name())
    };
    cx.report(root.span, msg);
}
