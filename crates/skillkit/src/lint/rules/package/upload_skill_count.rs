use crate::lint::rules::Context;

declare_rule! {
    /// An upload archive holds no `SKILL.md`, or more than one.
    ///
    /// ## What it does
    /// Counts the files named `SKILL.md` in a `.zip` (or `.skill`) meant for the Claude.ai, Claude Desktop or Teams skill upload, or the Claude API's `/v1/skills`, and reports any count but one with the upload's own message: "Zip must contain exactly one SKILL.md file. Currently there are N." `skillkit pack --target claude-ai` refuses to write such an archive.
    ///
    /// ## Why is this bad?
    /// The upload rejects the archive: one archive is one skill. A library zipped whole (several skills) or a folder zipped without its skill file is refused.
    ///
    /// ## Example
    /// ```package zip
    /// -- one/SKILL.md
    /// ---
    /// name: one
    /// description: The first skill.
    /// ---
    /// -- one/two/SKILL.md
    /// ---
    /// name: two
    /// description: The second skill.
    /// ---
    /// ```
    ///
    /// ## Use instead
    /// ```package zip
    /// -- one/SKILL.md
    /// ---
    /// name: one
    /// description: The first skill.
    /// ---
    /// -- one/notes.md
    /// Notes.
    /// ```
    ///
    /// ## Fix
    /// Zip one skill folder: `skillkit pack path/to/skill --target claude-ai`.
    pub UploadSkillCount {
        code: "SK801",
        name: "upload-skill-count",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Claude.ai skill upload: \"Zip must contain exactly one SKILL.md file. Currently there are N.\" (obra/superpowers#1135, OWASP/secure-agent-playbook PR #24)",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
