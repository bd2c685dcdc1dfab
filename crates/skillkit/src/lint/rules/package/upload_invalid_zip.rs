use crate::lint::rules::Context;

declare_rule! {
    /// An upload file is not a zip archive skillkit can read safely.
    ///
    /// ## What it does
    /// Reports an upload file that is not a zip (a `.tar.gz` renamed, a truncated download), with the upload's message "Invalid zip file", and the reason after it. skillkit also refuses, under this rule, an archive over its reading limits (64 MiB of archive, 10,000 entries) and one whose entries inflate to more than they declare (a zip bomb), without inflating further.
    ///
    /// ## Why is this bad?
    /// The upload refuses it; a bomb would fill memory.
    ///
    /// ## Example
    /// ```package zip=raw
    /// -- notes.txt
    /// not a zip at all
    /// ```
    ///
    /// ## Use instead
    /// ```package zip
    /// -- fine/SKILL.md
    /// ---
    /// name: fine
    /// description: A real archive.
    /// ---
    /// ```
    ///
    /// ## Fix
    /// Make the archive with a zip tool, or `skillkit pack --target claude-ai`.
    pub UploadInvalidZip {
        code: "SK808",
        name: "upload-invalid-zip",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude.ai skill upload: \"Invalid zip file\" (a tar.gz: aryaminus/astro v2.1.3)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
