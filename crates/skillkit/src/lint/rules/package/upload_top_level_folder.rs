use crate::lint::rules::Context;

declare_rule! {
    /// An upload archive does not hold exactly one top-level folder.
    ///
    /// ## What it does
    /// Counts the distinct first path components of an upload archive's entries (files at the top count too) and reports any count but one: "Zip must contain exactly one top-level folder. Currently there are N."
    ///
    /// ## Why is this bad?
    /// The upload wants the skill's folder itself zipped, not its contents: zipping from inside the folder puts `SKILL.md` at the top, and the upload refuses it.
    ///
    /// ## Example
    /// ```package zip
    /// -- SKILL.md
    /// ---
    /// name: flat
    /// description: Zipped from inside its folder.
    /// ---
    /// -- notes.md
    /// Notes.
    /// ```
    ///
    /// ## Use instead
    /// ```package zip
    /// -- flat/SKILL.md
    /// ---
    /// name: flat
    /// description: Zipped with its folder.
    /// ---
    /// -- flat/notes.md
    /// Notes.
    /// ```
    ///
    /// ## Fix
    /// Zip the folder, not its contents (`skillkit pack` does).
    pub UploadTopLevelFolder {
        code: "SK804",
        name: "upload-top-level-folder",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude.ai skill upload: \"Zip must contain exactly one top-level folder. Currently there are 2.\" (tw93/Kami#7)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
