use crate::lint::rules::Context;

declare_rule! {
    /// A manifest's path leads outside the plugin (or the marketplace).
    ///
    /// ## What it does
    /// Reports a component path, a marketplace entry's relative `source`, or an Agent Plugins `mcp.json` server's `cwd` or path `command`, that climbs out of its root with `..` or resolves outside it through a symlink.
    ///
    /// `claude plugin validate` says: `{key}[{i}]: Path contains ".." which could be a path traversal attempt: {path}`, and in a marketplace `plugins[{i}].source: Path contains "..": {source}. Plugin source paths are resolved relative to the marketplace root (the directory containing .claude-plugin/), not relative to marketplace.json. Use "./{rest}" instead of "{source}".` A symlink leading outside is ours alone.
    ///
    /// ## Why is this bad?
    /// Installs copy the plugin folder alone: the path is missing once installed, and a client that followed it would read files the package does not ship. Agent Plugins clients must reject such paths.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {
    ///   "name": "notes",
    ///   "agents": "./../shared/agents"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {
    ///   "name": "notes",
    ///   "agents": "./agents"
    /// }
    /// -- agents/helper.md
    /// Help.
    /// ```
    ///
    /// ## Fix
    /// Move the files into the plugin and point at them with `./`.
    pub ComponentPathOutside {
        code: "SK816",
        name: "component-path-outside",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Agent Plugins 1.0.0 §4.1.3: resolved paths MUST remain within the plugin root",
            "Claude Code plugins reference: paths stay inside the plugin (installed plugins are copied to a cache)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
