use crate::lint::rules::Context;

declare_rule! {
    /// Two plugins of one package ship a skill of the same name.
    ///
    /// ## What it does
    /// Reports a skill name that two plugins of a marketplace (or a folder of plugins) both ship, on the later plugin's skill, naming the other.
    ///
    /// ## Why is this bad?
    /// Each keeps its namespaced name (`a:x`, `b:x`), but only one gets the bare alias `x`, and agents that do not namespace (Agent Plugins clients, `npx skills`) keep one of the two.
    ///
    /// ## Example
    /// ```package
    /// -- a/.claude-plugin/plugin.json
    /// {"name": "a"}
    /// -- a/skills/x/SKILL.md
    /// ---
    /// name: x
    /// description: The first x.
    /// ---
    /// -- b/.claude-plugin/plugin.json
    /// {"name": "b"}
    /// -- b/skills/x/SKILL.md
    /// ---
    /// name: x
    /// description: The second x.
    /// ---
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- a/.claude-plugin/plugin.json
    /// {"name": "a"}
    /// -- a/skills/x/SKILL.md
    /// ---
    /// name: x
    /// description: The first x.
    /// ---
    /// -- b/.claude-plugin/plugin.json
    /// {"name": "b"}
    /// -- b/skills/y/SKILL.md
    /// ---
    /// name: y
    /// description: The second skill.
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Rename one of the skills.
    pub PluginSkillNameClash {
        code: "SK819",
        name: "plugin-skill-name-clash",
        group: Package,
        severity: Warning,
        fix: None,
        sources: [
            "Claude Code 2.1.220 skill registration: a bare alias per skill name",
            "npx skills: one folder per sanitized name",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
