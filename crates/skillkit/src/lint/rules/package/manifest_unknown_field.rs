use crate::lint::rules::Context;

declare_rule! {
    /// An Agent Plugins manifest has a top-level field its closed schema does not define.
    ///
    /// ## What it does
    /// Reports each top-level key of an Agent Plugins 1.0.0 `plugin.json` other than `$schema`, `name`, `version`, `description`, `author`, `homepage`, `repository`, `license`, `keywords` and `extensions`.
    ///
    /// ## Why is this bad?
    /// The schema is closed: clients report and ignore the field, so what it configures (often a Claude Code key such as `skills` or `commands`) does nothing. Client-specific data belongs under `extensions`.
    ///
    /// ## Example
    /// ```package
    /// -- plugin.json
    /// {
    ///   "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
    ///   "name": "notes",
    ///   "commands": "./commands"
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- plugin.json
    /// {
    ///   "$schema": "https://agent-plugins.org/schemas/1.0.0/plugin.schema.json",
    ///   "name": "notes",
    ///   "extensions": {"com.example.client": {"commands": "./commands"}}
    /// }
    /// ```
    ///
    /// ## Fix
    /// Move the data under `extensions."<reverse.domain>"`, or drop it.
    pub ManifestUnknownField {
        code: "SK813",
        name: "manifest-unknown-field",
        group: Package,
        severity: Warning,
        fix: None,
        sources: [
            "Agent Plugins 1.0.0 §5.2: unknown top-level fields are reported and ignored",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
