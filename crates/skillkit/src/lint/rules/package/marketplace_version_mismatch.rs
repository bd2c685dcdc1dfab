use crate::lint::rules::Context;

declare_rule! {
    /// A marketplace entry's `version` differs from its plugin's own `plugin.json`.
    ///
    /// ## What it does
    /// Reports an entry of `marketplace.json` with a `version` and a relative `source` whose `.claude-plugin/plugin.json` states another `version`.
    ///
    /// `claude plugin validate` says: `plugins[{i}].version: Entry declares version "{a}" but {path}/.claude-plugin/plugin.json says "{b}". At install time, plugin.json wins (calculatePluginVersion precedence) — the entry version is silently ignored. Update this entry to "{b}" to match.`
    ///
    /// ## Why is this bad?
    /// The marketplace lists a version that is not the one installed.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "plugins": [{"name": "notes", "source": "./notes", "version": "1.0.0"}]}
    /// -- notes/.claude-plugin/plugin.json
    /// {"name": "notes", "version": "2.0.0"}
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "plugins": [{"name": "notes", "source": "./notes", "version": "2.0.0"}]}
    /// -- notes/.claude-plugin/plugin.json
    /// {"name": "notes", "version": "2.0.0"}
    /// ```
    ///
    /// ## Fix
    /// Write the plugin's version in the entry, or drop the entry's `version`.
    pub MarketplaceVersionMismatch {
        code: "SK824",
        name: "marketplace-version-mismatch",
        group: Package,
        severity: Warning,
        fix: None,
        sources: [
            "`claude plugin validate` (Claude Code 2.1.332): \"Entry declares version\" (tests/oracles/plugin-validate.md)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
