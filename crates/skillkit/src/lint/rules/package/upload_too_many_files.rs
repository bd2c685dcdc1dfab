use crate::lint::rules::Context;

declare_rule! {
    /// An upload archive holds more than 200 files.
    ///
    /// ## What it does
    /// Counts the files (not folders) of an upload archive and reports more than 200 with the upload's message: "Zip contains too many files (maximum 200)".
    ///
    /// ## Why is this bad?
    /// The upload refuses the whole skill. Large reference libraries (a scientific skill with hundreds of data files) hit it.
    ///
    /// ## Example
    /// A skill folder with 201 files, zipped, is refused; 200 pass. The unit tests in `package::upload` build both.
    ///
    /// ## Fix
    /// Keep the skill to 200 files: move bulky references behind a script that fetches them, or split the skill.
    pub UploadTooManyFiles {
        code: "SK802",
        name: "upload-too-many-files",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude.ai skill upload: \"Zip contains too many files (maximum 200)\" (claude-scientific-skills#113)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
