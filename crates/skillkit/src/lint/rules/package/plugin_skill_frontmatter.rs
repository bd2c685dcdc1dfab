use crate::lint::rules::Context;

declare_rule! {
    /// A Claude Code plugin's skill has a frontmatter value Claude Code drops or refuses.
    ///
    /// ## What it does
    /// For each `skills/<name>/SKILL.md` of a Claude Code plugin, the checks `claude plugin validate` makes on its frontmatter: `description` a list or mapping, `name` neither a string nor null, `allowed-tools` neither a string nor a list of strings, `shell` other than `bash` or `powershell`.
    ///
    /// `claude plugin validate` says: `description: description must be a string, got {array|object}. At runtime this value is dropped.`, `name: name must be a string, got {type}.`, `allowed-tools: allowed-tools must be a string or array of strings, got {type}.` (`allowed-tools array must contain only strings.`), `shell: shell must be 'bash' or 'powershell', got '{value}'.` (`shell must be a string, got {type}.`).
    ///
    /// ## Why is this bad?
    /// Claude Code drops the value when it loads the plugin, and the validator fails the plugin: the skill loses its description, its tools or its shell.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {"name": "notes"}
    /// -- skills/run/SKILL.md
    /// ---
    /// name: run
    /// description: Runs the notes script. Use when asked to run it.
    /// shell: fish
    /// ---
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {"name": "notes"}
    /// -- skills/run/SKILL.md
    /// ---
    /// name: run
    /// description: Runs the notes script. Use when asked to run it.
    /// shell: bash
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Write the value as Claude Code reads it: a string `description` and `name`, `allowed-tools` as a string or a list of strings, `shell: bash` or `shell: powershell`.
    pub PluginSkillFrontmatter {
        code: "SK826",
        name: "plugin-skill-frontmatter",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "`claude plugin validate` (Claude Code 2.1.332): its SKILL.md checks (tests/oracles/plugin-validate.md)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
