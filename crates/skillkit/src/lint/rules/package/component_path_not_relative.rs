use crate::lint::rules::Context;

declare_rule! {
    /// A manifest's component path does not start with `./`.
    ///
    /// ## What it does
    /// Reports a component path of a plugin manifest (`commands`, `agents`, `skills`, `hooks`, `mcpServers`, `outputStyles`, `lspServers` of Claude Code; `skills`, `mcpServers`, `apps`, `hooks` of Codex) a marketplace entry's relative `source`, or an Agent Plugins `mcp.json` server's `cwd` that does not begin with `./`.
    ///
    /// `claude plugin validate` says: `{key}: Invalid string: must start with "./"` (`skills.{i}` in a list; `plugins.{i}.source` in a marketplace), and `{key}: Invalid input` for a field that also takes inline configuration (`commands`, `hooks`, `mcpServers`, `lspServers`).
    ///
    /// ## Why is this bad?
    /// Paths are resolved against the plugin root only when written `./…`; others are not found, or read as a package name or URL.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {
    ///   "name": "notes",
    ///   "commands": "commands/"
    /// }
    /// -- commands/hi.md
    /// Say hi.
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {
    ///   "name": "notes",
    ///   "commands": "./commands/"
    /// }
    /// -- commands/hi.md
    /// Say hi.
    /// ```
    ///
    /// ## Fix
    /// Write the path as `./dir/…`.
    pub ComponentPathNotRelative {
        code: "SK815",
        name: "component-path-not-relative",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude Code plugins reference: custom paths must be relative to the plugin root and start with `./`",
            "Agent Plugins 1.0.0 §4.1.4: plugin-relative paths MUST begin with `./`",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
