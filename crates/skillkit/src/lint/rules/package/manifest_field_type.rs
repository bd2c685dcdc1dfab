use crate::lint::rules::Context;

declare_rule! {
    /// A package manifest's field has the wrong type or value.
    ///
    /// ## What it does
    /// Reports a field whose JSON type or value the format does not take, at the value: a string `author` or `owner` where an object is wanted, a manifest that is not an object, a plugin entry that is not an object, a `source` that is neither a relative path nor a source object (a `github` one without `repo`), `keywords` that are not strings, an empty `author.name`, an `author` of an Agent Plugins manifest with keys beyond `name`, `email` and `url`, an Agent Plugins `$schema` other than `https://agent-plugins.org/schemas/1.0.0/plugin.schema.json`. The messages name the path in the manifest.
    ///
    /// `claude plugin validate` says: `{path}: Invalid input: expected {type}, received {type}` (`author: Invalid input: expected object, received string`, `plugins.0: Invalid input: expected object, received string`), `root: manifest must be an object`, `plugins.{i}.source: Invalid input`, `Author name cannot be empty`.
    ///
    /// ## Why is this bad?
    /// The agent refuses the manifest; Agent Plugins 1.0.0 makes every violation but an unknown key fatal.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {
    ///   "name": "notes",
    ///   "author": "Ann"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {
    ///   "name": "notes",
    ///   "author": {"name": "Ann"}
    /// }
    /// ```
    ///
    /// ## Fix
    /// Give the field the type the message names.
    pub ManifestFieldType {
        code: "SK812",
        name: "manifest-field-type",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude Code marketplace errors: `owner: expected object`, `plugins.0: expected object`, `source: Invalid input`",
            "Agent Plugins 1.0.0 §5.2–§5.4",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
