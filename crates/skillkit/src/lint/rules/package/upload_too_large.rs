use crate::lint::rules::Context;

declare_rule! {
    /// An upload archive inflates to more than 30 MB.
    ///
    /// ## What it does
    /// Adds up the uncompressed sizes of an upload archive's files and reports more than 31,457,280 bytes (30 MiB; exactly 31,457,280 passes) with the upload's message: "Zip file uncompressed size exceeds 30MB". The sizes the archive declares are read first; an archive whose entries inflate to more than they declare is reported as an invalid zip (`upload-invalid-zip`, SK808) without being inflated further. `skillkit pack --target claude-ai` refuses the same archives, with the same message.
    ///
    /// The "30MB" is 30 MiB, not 30,000,000 bytes: the documentation says "under 30 MB (uncompressed)" without the unit, and a measurement against the live Claude API (vibe-agent-toolkit, `API_SKILL_MAX_UPLOAD_BYTES`, reviewed 2026-09-06) had 30,700,000 bytes of files accepted and 31,500,000 refused, a bracket 30 × 2²⁰ = 31,457,280 is the only round number in. The exact cut of the zip upload itself was not measured by anyone we know of; the rule takes the same figure.
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
            "measured: 30,700,000 bytes accepted, 31,500,000 refused by the Claude API (jdutton/vibe-agent-toolkit, API_SKILL_MAX_UPLOAD_BYTES = 31,457,280)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
