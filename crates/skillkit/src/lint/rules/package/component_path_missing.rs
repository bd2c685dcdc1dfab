use crate::lint::rules::Context;

declare_rule! {
    /// A Claude Code plugin's component path leads nowhere, or a `skills` entry names a file.
    ///
    /// ## What it does
    /// Reports a component path of `plugin.json` (`skills`, `commands`, `agents`, `hooks`, `mcpServers`, `outputStyles`, `lspServers`) that does not exist in the plugin, and a `skills` entry that is a file (a `SKILL.md`) rather than a folder.
    ///
    /// `claude plugin validate` says: `{key}: Path not found: {path}. The runtime loader will report this as a load failure.`, and for a file in `skills`: `skills[{i}]: Path is a file; skills entries must be directories containing SKILL.md — point to the parent directory '{dir}' instead: {path}`.
    ///
    /// ## Why is this bad?
    /// Claude Code fails to load the component: the commands, agents or skills it names are missing once installed.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {"name": "notes", "commands": "./commands/missing.md"}
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {"name": "notes", "commands": "./commands/run.md"}
    /// -- commands/run.md
    /// Run the notes.
    /// ```
    ///
    /// ## Fix
    /// Point the path at a file or folder of the plugin; list a skill by its folder, not its `SKILL.md`.
    pub ComponentPathMissing {
        code: "SK822",
        name: "component-path-missing",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "`claude plugin validate` (Claude Code 2.1.332): \"Path not found\" and \"Path is a file\" (tests/oracles/plugin-validate.md)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
