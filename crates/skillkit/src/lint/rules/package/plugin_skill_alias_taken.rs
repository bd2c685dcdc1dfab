use crate::lint::rules::Context;

declare_rule! {
    /// A plugin's skill has the name of a skill of the repository, which takes its bare alias.
    ///
    /// ## What it does
    /// Reports a plugin skill (registered as `<plugin>:<skill>`) whose bare alias `<skill>` a skill of the repository the plugin sits in (`.claude/skills/<skill>`) takes.
    ///
    /// ## Why is this bad?
    /// Claude Code registers a plugin's skill under its namespaced name and a bare alias; an in-repo skill of the same name wins the alias, so `/<skill>` runs the other one.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "plugins": [{"name": "notes", "source": "./notes"}]}
    /// -- notes/skills/summarize/SKILL.md
    /// ---
    /// name: summarize
    /// description: Summarizes notes.
    /// ---
    /// -- .claude/skills/summarize/SKILL.md
    /// ---
    /// name: summarize
    /// description: Summarizes the repository.
    /// ---
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "plugins": [{"name": "notes", "source": "./notes"}]}
    /// -- notes/skills/summarize/SKILL.md
    /// ---
    /// name: summarize
    /// description: Summarizes notes.
    /// ---
    /// -- .claude/skills/summarize-repo/SKILL.md
    /// ---
    /// name: summarize-repo
    /// description: Summarizes the repository.
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Rename one of the two, or call the plugin's as `/<plugin>:<skill>`.
    pub PluginSkillAliasTaken {
        code: "SK818",
        name: "plugin-skill-alias-taken",
        group: Package,
        severity: Info,
        fix: None,
        sources: [
            "Claude Code 2.1.220 skill registration (static analysis, kamp-us/phoenix#4334)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
