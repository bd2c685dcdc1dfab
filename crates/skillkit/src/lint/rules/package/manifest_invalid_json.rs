use crate::lint::rules::Context;

declare_rule! {
    /// A package manifest is not valid JSON, or cannot be read.
    ///
    /// ## What it does
    /// Reports a manifest (`.claude-plugin/plugin.json`, `.claude-plugin/marketplace.json`, an Agent Plugins `plugin.json` or `mcp.json`, `.codex-plugin/plugin.json`) that does not parse as strict JSON, at the character where parsing stopped; one over 1 MiB, not a regular file (a FIFO, a folder) or a symlink leading out of the package is reported without being read. As Claude Code reads it, bytes that are not UTF-8 are decoded with U+FFFD and a UTF-8 byte-order mark is skipped: neither is reported.
    ///
    /// `claude plugin validate` says: `json: Invalid JSON syntax: JSON Parse error: {parser message}`, in its parser's words: `Property name must be a string literal` (a trailing comma), `Unterminated string`, `Unexpected EOF` (an empty file).
    ///
    /// ## Why is this bad?
    /// Every agent drops the whole plugin (or marketplace) when its manifest does not parse: comments and trailing commas, which editors accept, are not JSON.
    ///
    /// ## Example
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {
    ///   "name": "notes",
    /// }
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .claude-plugin/plugin.json
    /// {
    ///   "name": "notes"
    /// }
    /// ```
    ///
    /// ## Fix
    /// Fix the JSON at the position shown.
    pub ManifestInvalidJson {
        code: "SK810",
        name: "manifest-invalid-json",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "RFC 8259",
            "Claude Code `claude plugin validate`: JSON parse errors",
            "Agent Plugins 1.0.0 §5.2: the manifest MUST be JSON",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
