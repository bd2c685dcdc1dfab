use crate::lint::rules::Context;

declare_rule! {
    /// An upload archive holds another archive.
    ///
    /// ## What it does
    /// Reports each `.zip` (or `.skill`) inside an upload archive: "Zip cannot contain nested zip files".
    ///
    /// ## Why is this bad?
    /// The upload refuses the archive.
    ///
    /// ## Example
    /// ```package zip
    /// -- tools/SKILL.md
    /// ---
    /// name: tools
    /// description: Ships a zipped helper.
    /// ---
    /// -- tools/assets/helper.zip
    /// not really a zip
    /// ```
    ///
    /// ## Use instead
    /// ```package zip
    /// -- tools/SKILL.md
    /// ---
    /// name: tools
    /// description: Ships its helper unpacked.
    /// ---
    /// -- tools/assets/helper.py
    /// print("hi")
    /// ```
    ///
    /// ## Fix
    /// Unpack the inner archive into the skill's folder, or leave it out.
    pub UploadNestedArchive {
        code: "SK807",
        name: "upload-nested-archive",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude.ai skill upload: \"Zip cannot contain nested zip files\"",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
