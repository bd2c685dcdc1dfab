use crate::lint::rules::Context;

declare_rule! {
    /// A skill's Codex metadata (`agents/openai.yaml`) is broken.
    ///
    /// ## What it does
    /// Reads the `agents/openai.yaml` of each skill of a plugin, which Codex reads into its skill
    /// list, and reports YAML that does not parse or is not a mapping, an `interface.icon_small`
    /// or `interface.icon_large` that names no file of the skill, and a
    /// `policy.allow_implicit_invocation` that is not `true` or `false`.
    ///
    /// ## Why is this bad?
    /// Codex drops the metadata it cannot read, and a dangling icon path breaks the skill's entry
    /// in its list; a quoted `"false"` is not a boolean, so implicit invocation stays on.
    ///
    /// ## Example
    /// ```package
    /// -- .codex-plugin/plugin.json
    /// {"name": "notes"}
    /// -- skills/summarize/SKILL.md
    /// ---
    /// name: summarize
    /// description: Summarizes notes.
    /// ---
    /// Summarize.
    /// -- skills/summarize/agents/openai.yaml
    /// interface:
    ///   display_name: Summarize
    ///   icon_small: ./assets/icon.png
    /// policy:
    ///   allow_implicit_invocation: "false"
    /// ```
    ///
    /// ## Use instead
    /// ```package
    /// -- .codex-plugin/plugin.json
    /// {"name": "notes"}
    /// -- skills/summarize/SKILL.md
    /// ---
    /// name: summarize
    /// description: Summarizes notes.
    /// ---
    /// Summarize.
    /// -- skills/summarize/agents/openai.yaml
    /// interface:
    ///   display_name: Summarize
    ///   icon_small: ./assets/icon.png
    /// policy:
    ///   allow_implicit_invocation: false
    /// -- skills/summarize/assets/icon.png
    /// not really a picture
    /// ```
    ///
    /// ## Fix
    /// Point the icons at files of the skill, and write booleans unquoted.
    pub CodexSkillMetadata {
        code: "SK821",
        name: "codex-skill-metadata",
        group: Package,
        severity: Warning,
        fix: None,
        sources: [
            "Codex skills: agents/openai.yaml (`interface.*`, `policy.allow_implicit_invocation`), developers.openai.com/codex/skills",
            "stbenjam/skillsaw docs/rules/codex-openai-metadata.md: dangling icon paths",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
