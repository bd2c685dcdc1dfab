use crate::lint::rules::Context;

declare_rule! {
    /// An Agent Plugins manifest has a top-level field its closed schema does not define.
    ///
    /// ## What it does
    /// Reports each top-level key of an Agent Plugins 1.0.0 `plugin.json` other than `$schema`, `name`, `version`, `description`, `author`, `homepage`, `repository`, `license`, `keywords` and `extensions`; and each key a Claude Code `plugin.json`, `marketplace.json` or marketplace entry does not define (a warning there too: Claude Code ignores it at load time).
    ///
    /// `claude plugin validate` says, in four wordings: `{key}: Unknown field '{key}'. Claude Code ignores it at load time.`; `{key}: Unknown field '{key}' — did you mean '{known}'? Claude Code ignores unrecognized fields at load time, so this field has no effect.` (within 1 edit of a known key for keys of 3 characters or fewer, else 2, or the same in another case); `{key}: Unknown field '{key}' (commonly seen in {origin}). Claude Code ignores unrecognized fields at load time, so it's safe to keep.` (a key of an npm `package.json`, a VS Code extension, an MCPB/DXT or MCP server manifest…); `{key}: Field '{key}' belongs in the marketplace entry (marketplace.json), not plugin.json. It's harmless here but unused — Claude Code ignores it at load time.` (`category`, `source`, `tags`, `strict`…). In a marketplace entry the path is `plugins[{i}].{key}`.
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
