use crate::lint::rules::Context;

declare_rule! {
    /// A marketplace entry's relative source is a file, not a plugin folder.
    ///
    /// ## What it does
    /// Reports a plugin entry whose `source` is a relative path (`./plugins/x`) that leads to a file. A source whose folder does not exist is not reported: `claude plugin validate` accepts it (the folder may be made by a build step before publishing).
    ///
    /// `claude plugin validate` says: `A path component of {path} is not a directory, so the file cannot be read. The entry will fail to load at install time.`
    ///
    /// ## Why is this bad?
    /// Installing the plugin fails: its `.claude-plugin/plugin.json` cannot be read under a file.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "description": "Notes.", "plugins": [{"name": "notes", "source": "./plugins/notes"}]}
    /// -- plugins/notes
    /// not a folder
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "description": "Notes.", "plugins": [{"name": "notes", "source": "./plugins/notes"}]}
    /// -- plugins/notes/skills/x/SKILL.md
    /// ---
    /// name: x
    /// description: A skill.
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Point `source` at the plugin's folder.
    pub MarketplaceSourceMissing {
        code: "SK820",
        name: "marketplace-source-missing",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude Code marketplace reference: relative plugin sources",
            "`claude plugin validate` (Claude Code 2.1.332): \"A path component of … is not a directory\" (tests/oracles/plugin-validate.md)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
