use crate::lint::rules::Context;

declare_rule! {
    /// A marketplace entry's relative source is not a folder of the repository.
    ///
    /// ## What it does
    /// Reports a plugin entry whose `source` is a relative path (`./plugins/x`) that does not lead to a folder.
    ///
    /// ## Why is this bad?
    /// Installing the plugin fails: there is nothing to copy.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "plugins": [{"name": "notes", "source": "./plugins/notes"}]}
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "plugins": [{"name": "notes", "source": "./plugins/notes"}]}
    /// -- plugins/notes/skills/x/SKILL.md
    /// ---
    /// name: x
    /// description: A skill.
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Point `source` at the plugin's folder, or add the folder.
    pub MarketplaceSourceMissing {
        code: "SK820",
        name: "marketplace-source-missing",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude Code marketplace reference: relative plugin sources",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
