use crate::lint::rules::Context;

declare_rule! {
    /// A package manifest lacks a required field.
    ///
    /// ## What it does
    /// Reports a required field that is absent: `name` of a Claude Code plugin manifest (when the file exists), of a Codex plugin and of an Agent Plugins manifest (with its `$schema`); a marketplace's `name`, `owner` (with its `name`) and `plugins`, and each plugin entry's `name` and `source`.
    ///
    /// `claude plugin validate` says: `{path}: Invalid input: expected {type}, received undefined` (`name: Invalid input: expected string, received undefined`, `owner: Invalid input: expected object, received undefined`, `plugins: Invalid input: expected array, received undefined`), and `plugins.{i}.source: Invalid input` for an entry without `source`.
    ///
    /// ## Why is this bad?
    /// The agent refuses the manifest, and with it the plugin or the whole marketplace.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {
    ///   "name": "tools",
    ///   "owner": {"name": "Ann"},
    ///   "plugins": [{"name": "notes"}]
    /// }
    /// -- notes/skills/x/SKILL.md
    /// ---
    /// name: x
    /// description: A skill.
    /// ---
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/marketplace.json
    /// {
    ///   "name": "tools",
    ///   "owner": {"name": "Ann"},
    ///   "plugins": [{"name": "notes", "source": "./notes"}]
    /// }
    /// -- notes/skills/x/SKILL.md
    /// ---
    /// name: x
    /// description: A skill.
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Add the field.
    pub ManifestFieldMissing {
        code: "SK811",
        name: "manifest-field-missing",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude Code plugins reference: `name` is the only required field of plugin.json",
            "Claude Code marketplace reference: `name`, `owner`, `plugins[].name`, `plugins[].source`",
            "Agent Plugins 1.0.0 §5.3: `$schema` and `name` are required",
            "Codex plugin manifest: `name`",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
