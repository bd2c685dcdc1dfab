use crate::lint::rules::Context;

declare_rule! {
    /// A plugin's name breaks its format's naming rule.
    ///
    /// ## What it does
    /// Checks the manifest's `name`: for Agent Plugins 1.0.0, 1 to 64 characters of `a-z`, `0-9`, `-` and `.`, alphanumeric at both ends, no `--` or `..` (an error); for Codex plugins, kebab-case (an error: Codex refuses others); for Claude Code plugins, no spaces, not empty, no control or bidirectional-formatting characters (errors), and kebab-case (a warning: Claude Code accepts the name, the Claude.ai marketplace sync does not).
    ///
    /// `claude plugin validate` says: `name: Plugin name cannot contain spaces. Use kebab-case (e.g., "my-plugin")`, `Plugin name cannot be empty`, `Plugin name cannot contain control or bidirectional-formatting characters` (errors), and `name: Plugin name "{name}" is not kebab-case. Claude Code accepts it, but the Claude.ai marketplace sync requires kebab-case (lowercase letters, digits, and hyphens only, e.g., "my-plugin").` (a warning).
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
