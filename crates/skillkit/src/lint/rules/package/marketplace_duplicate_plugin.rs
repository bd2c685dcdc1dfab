use crate::lint::rules::Context;

declare_rule! {
    /// Two entries of a marketplace have the same plugin name.
    ///
    /// ## What it does
    /// Reports each entry of `marketplace.json`'s `plugins` whose `name` another entry also has (the first one too).
    ///
    /// `claude plugin validate` says: `plugins[{i}].name: Duplicate plugin name "{name}" found in marketplace`.
    ///
    /// ## Why is this bad?
    /// A plugin is installed as `name@marketplace`: only one of the two can be, and which one is not said.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "plugins": [
    ///   {"name": "notes", "source": {"source": "github", "repo": "ann/notes"}},
    ///   {"name": "notes", "source": {"source": "github", "repo": "ann/notes-two"}}
    /// ]}
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {"name": "m", "owner": {"name": "Ann"}, "plugins": [
    ///   {"name": "notes", "source": {"source": "github", "repo": "ann/notes"}},
    ///   {"name": "notes-two", "source": {"source": "github", "repo": "ann/notes-two"}}
    /// ]}
    /// ```
    ///
    /// ## Fix
    /// Give each plugin of the marketplace its own name.
    pub MarketplaceDuplicatePlugin {
        code: "SK823",
        name: "marketplace-duplicate-plugin",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "`claude plugin validate` (Claude Code 2.1.332): \"Duplicate plugin name\" (tests/oracles/plugin-validate.md)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
