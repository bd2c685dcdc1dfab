use crate::lint::rules::Context;

declare_rule! {
    /// A plugin's skill is not an immediate child of its `skills/` folder.
    ///
    /// ## What it does
    /// Reports each `SKILL.md` under a plugin's `skills/` deeper than `skills/<name>/SKILL.md`.
    ///
    /// ## Why is this bad?
    /// Plugin loaders look one level down only: Agent Plugins 1.0.0 forbids recursing and Claude Code and Codex plugins read `skills/<name>/SKILL.md`. The skill is silently not installed.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {"name": "notes"}
    /// -- skills/group/summarize/SKILL.md
    /// ---
    /// name: summarize
    /// description: Summarizes notes.
    /// ---
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {"name": "notes"}
    /// -- skills/summarize/SKILL.md
    /// ---
    /// name: summarize
    /// description: Summarizes notes.
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Move the skill folder directly under `skills/`.
    pub PluginSkillTooDeep {
        code: "SK817",
        name: "plugin-skill-too-deep",
        group: Package,
        severity: Warning,
        fix: None,
        sources: [
            "Agent Plugins 1.0.0 §7.1: each immediate child directory of `skills/`; clients MUST NOT recurse",
            "Claude Code plugins: skills/NAME/SKILL.md",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
