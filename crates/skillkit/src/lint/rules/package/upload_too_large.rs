use crate::lint::rules::Context;

declare_rule! {
    /// An upload archive inflates to more than 30 MB.
    ///
    /// ## What it does
    /// Adds up the uncompressed sizes of an upload archive's files and reports over 30 MB (30 MiB) with the upload's message: "Zip file uncompressed size exceeds 30MB". The sizes the archive declares are read first; an archive whose entries inflate to more than they declare is reported as an invalid zip (`upload-invalid-zip`, SK808) without being inflated further.
    ///
    /// ## Why is this bad?
    /// The upload refuses it, and the Claude API (`/v1/skills`) has the same limit.
    ///
    /// ## Example
    /// A skill with 31 MiB of files is refused; 29 MiB pass. The unit tests in `package::upload` build both without writing the bytes.
    ///
    /// ## Fix
    /// Drop large assets from the skill, or fetch them at run time.
    pub UploadTooLarge {
        code: "SK803",
        name: "upload-too-large",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude.ai skill upload: \"Zip file uncompressed size exceeds 30MB\"",
            "Claude API skills: 30 MB uncompressed (apidog; agnix 0.57.0)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
