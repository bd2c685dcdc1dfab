use crate::lint::rules::Context;

declare_rule! {
    /// A Claude Code manifest lacks a field `claude plugin validate` recommends.
    ///
    /// ## What it does
    /// Reports, once the manifest passes its schema, a `plugin.json` without `version`, `description` or `author`, and a `marketplace.json` without a description (`description` or `metadata.description`) or with no plugins.
    ///
    /// `claude plugin validate` says: `version: No version specified. Consider adding a version following semver (e.g., "1.0.0")`, `description: No description provided. Adding a description helps users understand what your plugin does`, `author: No author information provided. Consider adding author details for plugin attribution`; for a marketplace `description: No marketplace description provided. Adding a description helps users understand what this marketplace offers` and `plugins: Marketplace has no plugins defined`.
    ///
    /// ## Why is this bad?
    /// The plugin installs, but users browsing the marketplace see no version, summary or author; the validator's `--strict` fails it.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {"name": "notes"}
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {"name": "notes", "version": "1.0.0", "description": "Keeps notes.", "author": {"name": "Ann"}}
    /// ```
    ///
    /// ## Fix
    /// Add the field.
    pub ManifestFieldRecommended {
        code: "SK827",
        name: "manifest-field-recommended",
        group: Package,
        severity: Warning,
        fix: None,
        sources: [
            "`claude plugin validate` (Claude Code 2.1.332): its warnings on plugin.json and marketplace.json (tests/oracles/plugin-validate.md)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
