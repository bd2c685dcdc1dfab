use crate::lint::rules::Context;

declare_rule! {
    /// An upload archive holds a Claude Code plugin manifest.
    ///
    /// ## What it does
    /// Reports a `.claude-plugin/plugin.json` anywhere in an upload archive: "A skill cannot contain a plugin manifest (.claude-plugin/plugin.json)".
    ///
    /// ## Why is this bad?
    /// The upload refuses a plugin zipped as a skill. Claude Code's own skill export of a plugin's skill included it (claude-code#92902).
    ///
    /// ## Example
    /// ```package zip
    /// -- kit/SKILL.md
    /// ---
    /// name: kit
    /// description: A plugin zipped as a skill.
    /// ---
    /// -- kit/.claude-plugin/plugin.json
    /// {"name": "kit"}
    /// ```
    ///
    /// ## Use instead
    /// ```package zip
    /// -- kit/SKILL.md
    /// ---
    /// name: kit
    /// description: The skill alone.
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Upload the skill's folder alone (`skillkit pack skills/x --target claude-ai`); install the plugin through a marketplace instead.
    pub UploadPluginManifest {
        code: "SK805",
        name: "upload-plugin-manifest",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude.ai skill upload: \"A skill cannot contain a plugin manifest (.claude-plugin/plugin.json)\" (anthropics/claude-code#92902)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
