//! Recovery drafts: the editor's unsaved text, kept as one JSON file per skill file in the app's
//! data folder (`drafts/<hash of the path>.json`), so that a crash or a closed window loses
//! nothing. On start the UI is offered each draft newer than its file; a save removes the draft.

use crate::error::{AppError, ErrorCode};
use crate::file_access::write_own;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{SystemTime, UNIX_EPOCH};

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Stored {
    pub path: String,
    pub text: String,
    /// Milliseconds since the Unix epoch.
    pub written_ms: u64,
}

/// FNV-1a, 64 bits: a stable file name for a path.
fn fnv1a(bytes: &[u8]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in bytes {
        h ^= u64::from(*b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

pub fn file_for(dir: &Path, path: &Path) -> PathBuf {
    dir.join(format!("{:016x}.json", fnv1a(path.to_string_lossy().as_bytes())))
}

pub fn now_ms() -> u64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map(|d| d.as_millis() as u64).unwrap_or(0)
}

/// The modification time of `path` in milliseconds, when it exists.
pub fn modified_ms(path: &Path) -> Option<u64> {
    let t = std::fs::metadata(path).ok()?.modified().ok()?;
    Some(t.duration_since(UNIX_EPOCH).ok()?.as_millis() as u64)
}

pub fn write(dir: &Path, path: &Path, text: &str) -> Result<(), AppError> {
    std::fs::create_dir_all(dir).map_err(|e| AppError::io("cannot create", dir, &e))?;
    let stored = Stored { path: path.to_string_lossy().into_owned(), text: text.to_string(), written_ms: now_ms() };
    let json = serde_json::to_string(&stored).map_err(|e| AppError::new(ErrorCode::Internal, e.to_string()))?;
    write_own(&file_for(dir, path), &json)
}

pub fn remove(dir: &Path, path: &Path) -> Result<(), AppError> {
    let file = file_for(dir, path);
    match std::fs::remove_file(&file) {
        Ok(()) => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(()),
        Err(e) => Err(AppError::io("cannot remove", &file, &e)),
    }
}

/// Every readable draft in `dir` (files that are not drafts are skipped).
pub fn all(dir: &Path) -> Vec<Stored> {
    let Ok(entries) = std::fs::read_dir(dir) else { return vec![] };
    let mut out: Vec<Stored> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.path().extension().is_some_and(|x| x == "json"))
        .filter_map(|e| serde_json::from_str(&skillkit::files::read_text(&e.path(), 64 << 20).ok()?).ok())
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drafts_are_written_listed_and_removed_per_path() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("drafts");
        write(&dir, Path::new("/a/SKILL.md"), "one").unwrap();
        write(&dir, Path::new("/b/SKILL.md"), "two").unwrap();
        write(&dir, Path::new("/a/SKILL.md"), "one again").unwrap();
        std::fs::write(dir.join("junk.json"), "{").unwrap();
        let listed: Vec<(String, String)> = all(&dir).into_iter().map(|d| (d.path, d.text)).collect();
        assert_eq!(listed, vec![("/a/SKILL.md".into(), "one again".into()), ("/b/SKILL.md".into(), "two".into())]);
        remove(&dir, Path::new("/a/SKILL.md")).unwrap();
        remove(&dir, Path::new("/a/SKILL.md")).unwrap();
        assert_eq!(all(&dir).len(), 1);
        assert_ne!(file_for(&dir, Path::new("/a")), file_for(&dir, Path::new("/b")));
    }
}
