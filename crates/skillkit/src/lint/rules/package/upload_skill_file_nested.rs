use crate::lint::rules::Context;

declare_rule! {
    /// An upload archive's `SKILL.md` is not directly in its top-level folder.
    ///
    /// ## What it does
    /// Reports the one `SKILL.md` of an upload archive when it lies deeper than `<folder>/SKILL.md`: "SKILL.md file must be in the top-level folder, not nested deeper".
    ///
    /// ## Why is this bad?
    /// The upload refuses it: a skill zipped with a parent folder (`skills/x/SKILL.md`) is not found.
    ///
    /// ## Example
    /// ```package zip
    /// -- skills/deep/SKILL.md
    /// ---
    /// name: deep
    /// description: Zipped with its parent folder.
    /// ---
    /// ```
    ///
    /// ## Use instead
    /// ```package zip
    /// -- deep/SKILL.md
    /// ---
    /// name: deep
    /// description: Zipped as its own folder.
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Zip the skill's own folder.
    pub UploadSkillFileNested {
        code: "SK806",
        name: "upload-skill-file-nested",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude.ai skill upload: \"SKILL.md file must be in the top-level folder, not nested deeper\" (microsoft/markitdown discussion #2548)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
