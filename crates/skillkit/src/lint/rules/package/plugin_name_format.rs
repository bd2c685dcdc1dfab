use crate::lint::rules::Context;

declare_rule! {
    /// A plugin's name breaks its format's naming rule.
    ///
    /// ## What it does
    /// Checks the manifest's `name`: for Agent Plugins 1.0.0, 1 to 64 characters of `a-z`, `0-9`, `-` and `.`, alphanumeric at both ends, no `--` or `..` (an error); for Claude Code and Codex plugins, kebab-case (lowercase letters, digits and single hyphens; Codex refuses others, Claude Code warns, so a warning there).
    ///
    /// ## Why is this bad?
    /// The name is the plugin's namespace (`/notes:summarize`) and its install folder; an Agent Plugins client rejects the plugin.
    ///
    /// ## Example
    /// ```package
    /// -- plugin.json
    /// {
    ///   "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
    ///   "name": "My--Notes"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- plugin.json
    /// {
    ///   "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
    ///   "name": "my-notes"
    /// }
    /// ```
    ///
    /// ## Fix
    /// Rename the plugin in kebab-case.
    pub PluginNameFormat {
        code: "SK814",
        name: "plugin-name-format",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Agent Plugins 1.0.0 §5.5: plugin name constraints",
            "Claude Code plugins reference: kebab-case names",
            "Codex plugin manifest: kebab-case `name`",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
