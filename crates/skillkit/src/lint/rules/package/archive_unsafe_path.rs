use crate::lint::rules::Context;

declare_rule! {
    /// An archive entry's name climbs out of the folder it is unpacked in.
    ///
    /// ## What it does
    /// Reports an entry named with a `..` component, an absolute path (`/x`, `C:\x`) or a backslash, which an unpacker may write outside its folder ("zip slip").
    ///
    /// ## Why is this bad?
    /// Unpacked carelessly, the entry overwrites a file anywhere on the machine; careful unpackers refuse the whole archive.
    ///
    /// ## Example
    /// ```package zip
    /// -- ok/SKILL.md
    /// ---
    /// name: ok
    /// description: Carries an entry that climbs out.
    /// ---
    /// -- ok/../../evil.sh
    /// echo owned
    /// ```
    ///
    /// ## Use instead
    /// ```package zip
    /// -- ok/SKILL.md
    /// ---
    /// name: ok
    /// description: Every entry stays inside.
    /// ---
    /// -- ok/scripts/run.sh
    /// echo fine
    /// ```
    ///
    /// ## Fix
    /// Make the archive from the skill's folder with relative names (`skillkit pack` does).
    pub ArchiveUnsafePath {
        code: "SK809",
        name: "archive-unsafe-path",
        group: Package,
        severity: Error,
        fix: None,
        sources: [
            "Zip Slip (Snyk, 2018): path traversal in archive entry names",
            "APPNOTE.TXT 4.4.17: file names are relative, with forward slashes",
        ],
    }
}

/// A package-level rule: see `crate::package`. Nothing to check in a single file.
pub(crate) fn check(_cx: &mut Context<'_>) {}
