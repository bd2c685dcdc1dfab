use crate::lint::rules::Context;

declare_rule! {
    /// A folder checked as a package holds neither a manifest nor skills.
    ///
    /// ## What it does
    /// Reports a folder given to `skillkit check --package` that has no `.claude-plugin/marketplace.json`, no plugin manifest and no `skills/<name>/SKILL.md`.
    ///
    /// `claude plugin validate` says: `directory: No manifest found in directory. Expected .claude-plugin/marketplace.json or .claude-plugin/plugin.json`.
    ///
    /// ## Why is this bad?
    /// There is nothing to install: an agent adding the folder as a plugin finds no component.
    ///
    /// ## Example
    /// ```package
    /// -- README.md
    /// Notes.
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {"name": "notes", "version": "1.0.0", "description": "Notes.", "author": {"name": "Ann"}}
    /// ```
    ///
    /// ## Fix
    /// Add `.claude-plugin/plugin.json`, or put the skills under `skills/<name>/SKILL.md`.
    pub PackageManifestMissing {
        code: "SK825",
        name: "package-manifest-missing",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "`claude plugin validate` (Claude Code 2.1.332): \"No manifest found in directory\" (tests/oracles/plugin-validate.md)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
