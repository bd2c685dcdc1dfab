//! The skill upload's rules (Claude.ai, Claude Desktop, Teams; the Claude API's `/v1/skills`):
//! one archive, one top-level folder, exactly one `SKILL.md` directly in it, at most 200 files
//! and 30 MB uncompressed, no nested archive, no plugin manifest. Judged on an archive's entry
//! list, so that `check` (an archive read back) and `pack` (the entries about to be written)
//! apply the same rules with the upload's own messages.

use crate::lint::diagnostic::Severity;
use crate::lint::rules::package as r;
use crate::lint::rules::RuleMeta;

/// The most files an upload takes.
pub const MAX_FILES: usize = 200;
/// The most bytes an upload's files may hold, uncompressed: "30MB" is 30 MiB, 31,457,280 bytes
/// (more is refused, exactly this passes). The documentation does not say which megabyte; a
/// measurement against the live Claude API (jdutton/vibe-agent-toolkit's
/// `API_SKILL_MAX_UPLOAD_BYTES`, reviewed 2026-09-06) had 30,700,000 bytes accepted and
/// 31,500,000 refused, which rules out 30,000,000 and leaves 30 × 2²⁰ as the only round figure.
pub const MAX_UNCOMPRESSED_BYTES: u64 = 30 * 1024 * 1024;

/// One entry as the upload sees it.
#[derive(Clone, Copy, Debug)]
pub struct UploadEntry<'a> {
    /// The name in the archive, `/`-separated.
    pub name: &'a str,
    pub is_dir: bool,
    pub size: u64,
}

/// A rule an upload (or any package) breaks.
#[derive(Clone, Debug)]
pub struct Finding {
    pub rule: &'static RuleMeta,
    pub severity: Severity,
    /// The upload's or the validator's own message where there is one.
    pub message: String,
    pub help: String,
}

impl Finding {
    pub fn new(rule: &'static RuleMeta, message: impl Into<String>, help: impl Into<String>) -> Finding {
        Finding { rule, severity: rule.severity, message: message.into(), help: help.into() }
    }
}

/// Whether an entry name climbs out of the folder it is unpacked in.
pub fn unsafe_name(name: &str) -> bool {
    name.starts_with('/')
        || name.contains('\\')
        || name.as_bytes().get(1) == Some(&b':')
        || name.split('/').any(|c| c == "..")
}

/// Whether a file name is an archive the upload calls a nested zip.
fn is_archive(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    [".zip", ".skill"].iter().any(|ext| lower.ends_with(ext))
}

/// The upload's findings on `entries`, in the order the rules are listed.
pub fn check(entries: &[UploadEntry<'_>]) -> Vec<Finding> {
    let mut out = vec![];
    let files: Vec<&UploadEntry> = entries.iter().filter(|e| !e.is_dir).collect();
    let skill_files: Vec<&&UploadEntry> =
        files.iter().filter(|e| e.name.rsplit('/').next() == Some("SKILL.md")).collect();
    if skill_files.len() != 1 {
        out.push(Finding::new(
            &r::upload_skill_count::UploadSkillCount::META,
            format!("Zip must contain exactly one SKILL.md file. Currently there are {}.", skill_files.len()),
            "zip one skill folder: `skillkit pack <skill> --target claude-ai`",
        ));
    }
    if files.len() > MAX_FILES {
        out.push(Finding::new(
            &r::upload_too_many_files::UploadTooManyFiles::META,
            format!("Zip contains too many files (maximum {MAX_FILES})"),
            format!("the archive holds {} files", files.len()),
        ));
    }
    let total: u64 = files.iter().map(|e| e.size).fold(0, u64::saturating_add);
    if total > MAX_UNCOMPRESSED_BYTES {
        out.push(Finding::new(
            &r::upload_too_large::UploadTooLarge::META,
            "Zip file uncompressed size exceeds 30MB",
            format!("the files hold {total} bytes, over {MAX_UNCOMPRESSED_BYTES}"),
        ));
    }
    let mut tops: Vec<&str> = entries.iter().map(|e| e.name.split('/').next().unwrap_or("")).collect();
    tops.sort_unstable();
    tops.dedup();
    if tops.len() != 1 {
        out.push(Finding::new(
            &r::upload_top_level_folder::UploadTopLevelFolder::META,
            format!("Zip must contain exactly one top-level folder. Currently there are {}.", tops.len()),
            format!("at the top: {}", tops.iter().map(|t| format!("`{t}`")).collect::<Vec<_>>().join(", ")),
        ));
    }
    for e in &files {
        let parts: Vec<&str> = e.name.split('/').collect();
        if parts.windows(2).any(|w| w == [".claude-plugin", "plugin.json"]) {
            out.push(Finding::new(
                &r::upload_plugin_manifest::UploadPluginManifest::META,
                "A skill cannot contain a plugin manifest (.claude-plugin/plugin.json)",
                format!("`{}`", e.name),
            ));
        }
    }
    if let [only] = skill_files.as_slice() {
        if only.name.split('/').count() != 2 {
            out.push(Finding::new(
                &r::upload_skill_file_nested::UploadSkillFileNested::META,
                "SKILL.md file must be in the top-level folder, not nested deeper",
                format!("it is at `{}`", only.name),
            ));
        }
    }
    for e in &files {
        if is_archive(e.name) {
            out.push(Finding::new(
                &r::upload_nested_archive::UploadNestedArchive::META,
                "Zip cannot contain nested zip files",
                format!("`{}`", e.name),
            ));
        }
    }
    for e in entries {
        if unsafe_name(e.name) {
            out.push(Finding::new(
                &r::archive_unsafe_path::ArchiveUnsafePath::META,
                format!("the entry `{}` leads outside the folder it is unpacked in", e.name),
                "entry names are relative, with `/`, and never climb out with `..`",
            ));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn files(names: &[(&str, u64)]) -> Vec<(String, u64)> {
        names.iter().map(|(n, s)| (n.to_string(), *s)).collect()
    }

    fn run(fs: &[(String, u64)]) -> Vec<String> {
        let entries: Vec<UploadEntry> =
            fs.iter().map(|(n, s)| UploadEntry { name: n, is_dir: n.ends_with('/'), size: *s }).collect();
        check(&entries).into_iter().map(|f| format!("{}: {}", f.rule.code, f.message)).collect()
    }

    #[test]
    fn one_skill_folder_passes() {
        assert!(run(&files(&[("a/", 0), ("a/SKILL.md", 10), ("a/x/y.md", 5)])).is_empty());
    }

    #[test]
    fn two_hundred_files_pass_and_one_more_is_refused() {
        let mut fs = files(&[("a/SKILL.md", 10)]);
        fs.extend((1..200).map(|i| (format!("a/f{i}.txt"), 1)));
        assert!(run(&fs).is_empty());
        fs.push(("a/f200.txt".into(), 1));
        assert_eq!(run(&fs), ["SK802: Zip contains too many files (maximum 200)"]);
    }

    #[test]
    fn thirty_mib_pass_and_more_is_refused() {
        // 30 MiB, not 30,000,000: a measured 30,700,000 bytes went through.
        assert_eq!(MAX_UNCOMPRESSED_BYTES, 31_457_280);
        assert!(run(&files(&[("a/SKILL.md", 10), ("a/big.bin", 30_700_000 - 10)])).is_empty());
        let mut fs = files(&[("a/SKILL.md", 10), ("a/big.bin", MAX_UNCOMPRESSED_BYTES - 10)]);
        assert!(run(&fs).is_empty());
        fs[1].1 += 1;
        assert_eq!(run(&fs), ["SK803: Zip file uncompressed size exceeds 30MB"]);
    }

    #[test]
    fn the_upload_messages() {
        assert_eq!(
            run(&files(&[("a/SKILL.md", 1), ("b/SKILL.md", 1)])),
            [
                "SK801: Zip must contain exactly one SKILL.md file. Currently there are 2.",
                "SK804: Zip must contain exactly one top-level folder. Currently there are 2."
            ]
        );
        assert_eq!(
            run(&files(&[("a/b/SKILL.md", 1)])),
            ["SK806: SKILL.md file must be in the top-level folder, not nested deeper"]
        );
        assert_eq!(run(&files(&[("a/SKILL.md", 1), ("a/x.ZIP", 1)])), ["SK807: Zip cannot contain nested zip files"]);
        assert_eq!(run(&files(&[("a/SKILL.md", 1), ("a/../../x", 1)])).len(), 1);
        assert!(unsafe_name("/etc/x") && unsafe_name("a\\..\\x") && unsafe_name("C:/x") && !unsafe_name("a/..b"));
    }
}
