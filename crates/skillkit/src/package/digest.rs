//! Digests of a skill's files, in the layouts installers use: `npx skills`' project lock
//! (`skills-lock.json`, version 1: per skill a `source`, a `sourceType` and a `computedHash`)
//! with, per file, the size and the `sha256:` digest the MCP Skills Extension (SEP-2640) serves
//! each `skill://` resource with. [`verify`] checks an installed copy against such a lock, naming
//! each file changed, missing or extra.
//!
//! The `computedHash` is [`npx_hash`], computed as `npx skills` 1.7.4 computes it
//! (`computeSkillFolderHash` and `collectFiles` in its `dist/cli.mjs`, the npm package `skills`):
//! every regular file under the folder, hidden ones included, but not inside a folder named `.git`
//! or `node_modules` (at any depth) and not a symlink (a `Dirent` of a link is neither a file nor
//! a folder); each path relative to the skill folder with `\` turned into `/`; sorted by
//! `a.relativePath.localeCompare(b.relativePath)` (ICU's CLDR root collation in Node's default
//! English locale, not byte order: `_x` < `a.md` < `B.md` < `é.md` < `z.md`); the SHA-256 over
//! each path (UTF-8) then its bytes, as lowercase hex. The per-file digests cover the files a
//! package ships ([`skill_files`]: hidden files left out), in byte order.

use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// One file of a skill.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct FileDigest {
    /// `/`-separated, relative to the skill's folder.
    pub path: String,
    pub size: u64,
    /// `sha256:<hex>`.
    pub digest: String,
}

/// One skill of a lock.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LockEntry {
    pub source: String,
    pub source_type: String,
    pub computed_hash: String,
    #[serde(default)]
    pub files: Vec<FileDigest>,
}

/// A `skills-lock.json`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Lock {
    pub version: u32,
    pub skills: BTreeMap<String, LockEntry>,
}

/// Why a skill's files could not be listed or read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FilesError(pub String);

impl std::fmt::Display for FilesError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

/// The most files listed in one skill folder.
pub const MAX_FILES: usize = 10_000;

/// A file of a skill folder, as a package holds it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SkillFile {
    /// `/`-separated, relative to the skill's folder.
    pub rel: String,
    pub path: PathBuf,
    pub size: u64,
    /// Whether any execute bit is set.
    pub executable: bool,
}

/// Whether a folder or file is left out of packages and digests: `.git`, `node_modules`, and
/// hidden files (`.env`, `.DS_Store`, `.claude-plugin`), which uploads refuse or should not ship.
pub fn left_out(name: &str) -> bool {
    name == "node_modules" || name.starts_with('.')
}

/// The files of skill folder `dir`, sorted by relative path (byte order): regular files, and
/// symlinks that resolve to a regular file inside the folder (a link leading out is an error);
/// [`left_out`] names skipped.
pub fn skill_files(dir: &Path) -> Result<Vec<SkillFile>, FilesError> {
    let root = std::fs::canonicalize(dir).map_err(|e| FilesError(format!("{}: {e}", dir.display())))?;
    let mut out = vec![];
    let mut stack = vec![(root.clone(), String::new())];
    while let Some((d, prefix)) = stack.pop() {
        let rd = std::fs::read_dir(&d).map_err(|e| FilesError(format!("{}: {e}", d.display())))?;
        for e in rd {
            let e = e.map_err(|e| FilesError(format!("{}: {e}", d.display())))?;
            let name = e.file_name().to_string_lossy().into_owned();
            if left_out(&name) {
                continue;
            }
            let rel = format!("{prefix}{name}");
            let path = e.path();
            let ft = e.file_type().map_err(|e| FilesError(format!("{rel}: {e}")))?;
            let meta = if ft.is_symlink() {
                let real = std::fs::canonicalize(&path).ok().filter(|r| r.starts_with(&root));
                let Some(real) = real else {
                    return Err(FilesError(format!("`{rel}` is a symlink leading outside the skill: not packed")));
                };
                std::fs::metadata(real).map_err(|e| FilesError(format!("{rel}: {e}")))?
            } else {
                e.metadata().map_err(|e| FilesError(format!("{rel}: {e}")))?
            };
            if meta.is_dir() {
                if !ft.is_symlink() {
                    stack.push((path, format!("{rel}/")));
                }
                continue;
            }
            if !meta.is_file() {
                continue;
            }
            #[cfg(unix)]
            let executable = std::os::unix::fs::PermissionsExt::mode(&meta.permissions()) & 0o111 != 0;
            #[cfg(not(unix))]
            let executable = false;
            out.push(SkillFile { rel, path, size: meta.len(), executable });
            if out.len() > MAX_FILES {
                return Err(FilesError(format!("more than {MAX_FILES} files in {}", dir.display())));
            }
        }
    }
    out.sort_by(|a, b| a.rel.cmp(&b.rel));
    Ok(out)
}

/// The bytes of a file of a skill (at most the upload's limit and one).
pub fn read_file(f: &SkillFile) -> Result<Vec<u8>, FilesError> {
    crate::files::read(&f.path, crate::package::upload::MAX_UNCOMPRESSED_BYTES + 1)
        .map_err(|e| FilesError(format!("{}: {}", f.rel, crate::files::reason(&e))))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// The files `npx skills` hashes under `dir`, relative (`/`-separated), in its order: regular
/// files (no symlink), none inside a `.git` or `node_modules` folder, sorted as JavaScript's
/// `localeCompare` sorts them (see the module docs).
pub fn npx_files(dir: &Path) -> Result<Vec<(String, PathBuf)>, FilesError> {
    let mut out = vec![];
    let mut stack = vec![(dir.to_path_buf(), String::new())];
    while let Some((d, prefix)) = stack.pop() {
        let rd = std::fs::read_dir(&d).map_err(|e| FilesError(format!("{}: {e}", d.display())))?;
        for e in rd {
            let e = e.map_err(|e| FilesError(format!("{}: {e}", d.display())))?;
            let name = e.file_name().to_string_lossy().into_owned();
            let rel = format!("{prefix}{name}");
            let ft = e.file_type().map_err(|e| FilesError(format!("{rel}: {e}")))?;
            if ft.is_dir() {
                if name != ".git" && name != "node_modules" {
                    stack.push((e.path(), format!("{rel}/")));
                }
            } else if ft.is_file() {
                out.push((rel, e.path()));
                if out.len() > MAX_FILES {
                    return Err(FilesError(format!("more than {MAX_FILES} files in {}", dir.display())));
                }
            }
        }
    }
    // ICU's root collation at full strength, punctuation not ignored; strings it finds equal
    // keep byte order.
    let mut collator = feruca::Collator::new(feruca::Tailoring::default(), false, true);
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out.sort_by(|a, b| collator.collate(a.0.as_str(), b.0.as_str()));
    Ok(out)
}

/// The `computedHash` `npx skills` writes for the skill folder `dir` (see the module docs).
pub fn npx_hash(dir: &Path) -> Result<String, FilesError> {
    let mut all = Sha256::new();
    for (rel, path) in npx_files(dir)? {
        let bytes = crate::files::read(&path, crate::package::upload::MAX_UNCOMPRESSED_BYTES + 1)
            .map_err(|e| FilesError(format!("{rel}: {}", crate::files::reason(&e))))?;
        all.update(rel.as_bytes());
        all.update(&bytes);
    }
    Ok(hex(&all.finalize()))
}

/// The lock entry of the skill folder `dir`: each file's digest and the folder's `computedHash`.
pub fn entry(dir: &Path, source: &str) -> Result<LockEntry, FilesError> {
    let mut files = vec![];
    for f in skill_files(dir)? {
        let bytes = read_file(&f)?;
        files.push(FileDigest {
            path: f.rel,
            size: bytes.len() as u64,
            digest: format!("sha256:{}", hex(&Sha256::digest(&bytes))),
        });
    }
    Ok(LockEntry { source: source.to_string(), source_type: "local".into(), computed_hash: npx_hash(dir)?, files })
}

impl Lock {
    /// The lock as written: two-space indented, skills in name order, a final newline.
    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }
    pub fn parse(text: &str) -> Result<Lock, String> {
        serde_json::from_str(text).map_err(|e| e.to_string())
    }
}

/// What [`verify`] found for one skill.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Verified {
    pub name: String,
    /// The installed folder it was compared with (`None`: not found).
    pub dir: Option<PathBuf>,
    pub changed: Vec<String>,
    pub missing: Vec<String>,
    pub extra: Vec<String>,
    /// Why the folder could not be read, if it could not.
    pub error: Option<String>,
}

impl Verified {
    pub fn ok(&self) -> bool {
        self.dir.is_some()
            && self.error.is_none()
            && self.changed.is_empty()
            && self.missing.is_empty()
            && self.extra.is_empty()
    }
}

/// Check the installed skills under `installed` against `lock`: each skill is looked for at
/// `installed/<name>`, or at `installed` itself when it is that skill's folder (its folder name
/// is the skill's name).
pub fn verify(lock: &Lock, installed: &Path) -> Vec<Verified> {
    lock.skills
        .iter()
        .map(|(name, want)| {
            let mut v = Verified { name: name.clone(), ..Default::default() };
            let here = installed.file_name().is_some_and(|n| n.to_string_lossy() == *name)
                && crate::read::skill_file_name(installed).is_some();
            let dir = if here { installed.to_path_buf() } else { installed.join(name) };
            if !dir.is_dir() {
                return v;
            }
            v.dir = Some(dir.clone());
            let have = match entry(&dir, &want.source) {
                Ok(e) => e,
                Err(e) => {
                    v.error = Some(e.0);
                    return v;
                }
            };
            let have_by: BTreeMap<&str, &FileDigest> = have.files.iter().map(|f| (f.path.as_str(), f)).collect();
            let want_by: BTreeMap<&str, &FileDigest> = want.files.iter().map(|f| (f.path.as_str(), f)).collect();
            for (p, w) in &want_by {
                match have_by.get(p) {
                    None => v.missing.push(p.to_string()),
                    Some(h) if h.digest != w.digest || h.size != w.size => v.changed.push(p.to_string()),
                    Some(_) => {}
                }
            }
            v.extra = have_by.keys().filter(|p| !want_by.contains_key(*p)).map(|p| p.to_string()).collect();
            // A lock without file digests (written by `npx skills`) is checked by its hash alone.
            if want.files.is_empty() && have.computed_hash != want.computed_hash {
                v.changed.push("(computedHash)".into());
                v.extra.clear();
            }
            v
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn skill(dir: &Path) {
        std::fs::create_dir_all(dir.join("scripts")).unwrap();
        std::fs::write(dir.join("SKILL.md"), "---\nname: s\ndescription: d\n---\n").unwrap();
        std::fs::write(dir.join("scripts/run.sh"), "echo hi\n").unwrap();
        std::fs::write(dir.join(".env"), "SECRET=1\n").unwrap();
    }

    #[test]
    fn the_file_digests_are_the_packed_files_in_byte_order() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        skill(&d);
        let e = entry(&d, "s").unwrap();
        assert_eq!(e.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["SKILL.md", "scripts/run.sh"]);
        assert_eq!(e.files[1].digest, format!("sha256:{}", hex(&Sha256::digest(b"echo hi\n"))));
        assert_eq!(e.computed_hash, npx_hash(&d).unwrap());
    }

    /// A folder whose names sort differently by bytes and by `localeCompare`, with what
    /// `npx skills` leaves out (`.git`, `node_modules` at any depth, a symlink) and keeps (a
    /// hidden file). The order is Node 20's (ICU 78.2, `en-US`) `localeCompare`, and the hash
    /// the one `computeSkillFolderHash` of `skills` 1.7.4 printed for this very tree.
    #[cfg(unix)]
    #[test]
    fn the_computed_hash_is_the_one_npx_skills_computes() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        for (rel, text) in [
            ("SKILL.md", "---\nname: s\ndescription: d\n---\n"),
            ("scripts/run.sh", "echo hi\n"),
            ("B.md", "B\n"),
            ("a.md", "a\n"),
            ("_x", "x\n"),
            ("\u{e9}.md", "e\n"),
            ("z.md", "z\n"),
            (".env", "SECRET=1\n"),
            (".git/HEAD", "ref\n"),
            ("node_modules/m.js", "m\n"),
            ("sub/node_modules/n.js", "n\n"),
            ("_dir/f", "d\n"),
            ("a-b.md", "a-b\n"),
            ("ab.md", "ab\n"),
        ] {
            let p = d.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, text).unwrap();
        }
        std::os::unix::fs::symlink("a.md", d.join("link.md")).unwrap();
        let order: Vec<String> = npx_files(&d).unwrap().into_iter().map(|(rel, _)| rel).collect();
        assert_eq!(
            order,
            [
                "_dir/f",
                "_x",
                ".env",
                "a-b.md",
                "a.md",
                "ab.md",
                "B.md",
                "\u{e9}.md",
                "scripts/run.sh",
                "SKILL.md",
                "z.md"
            ]
        );
        assert_eq!(npx_hash(&d).unwrap(), "e77751eba97d47658cb4d3d04cbbe4d797058d2a3dae2e57ca74c0fdff74689a");
        // Byte order would put `B.md` and `SKILL.md` first: a different hash.
        let mut bytes = order.clone();
        bytes.sort();
        assert_ne!(bytes, order);
    }

    #[test]
    fn verify_names_changed_missing_and_extra_files() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        skill(&d);
        let lock = Lock { version: 1, skills: [("s".to_string(), entry(&d, "s").unwrap())].into() };
        let lock = Lock::parse(&lock.to_json()).unwrap();
        assert!(verify(&lock, t.path())[0].ok());
        assert!(verify(&lock, &d)[0].ok());
        std::fs::write(d.join("SKILL.md"), "changed").unwrap();
        std::fs::remove_file(d.join("scripts/run.sh")).unwrap();
        std::fs::write(d.join("new.md"), "x").unwrap();
        let v = &verify(&lock, t.path())[0];
        assert_eq!(
            (v.changed.as_slice(), v.missing.as_slice(), v.extra.as_slice()),
            (&["SKILL.md".to_string()][..], &["scripts/run.sh".to_string()][..], &["new.md".to_string()][..])
        );
        assert!(verify(&lock, &t.path().join("nowhere"))[0].dir.is_none());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_leading_out_is_refused() {
        let t = tempfile::tempdir().unwrap();
        let d = t.path().join("s");
        skill(&d);
        std::os::unix::fs::symlink("/etc/hostname", d.join("leak")).unwrap();
        assert!(skill_files(&d).unwrap_err().0.contains("outside the skill"));
    }
}
