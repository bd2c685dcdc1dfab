//! File access for the UI: only inside the sources of the opened library, and saves are atomic
//! (a temporary file in the same folder, then a rename), so a crash never leaves half a file.

use crate::error::{AppError, ErrorCode};
use std::io::Write;
use std::path::{Path, PathBuf};

/// The folders the UI may touch: the real paths of the opened library's sources.
#[derive(Clone, Debug, Default)]
pub struct Scope {
    roots: Vec<PathBuf>,
    /// The sources as they were opened (one may be missing, so it has no real path).
    sources: Vec<PathBuf>,
}

impl Scope {
    pub fn new(sources: &[PathBuf]) -> Scope {
        Scope {
            roots: sources.iter().filter_map(|s| std::fs::canonicalize(s).ok()).collect(),
            sources: sources.to_vec(),
        }
    }

    /// The same scope, also knowing the sources as the UI named them (before they were resolved),
    /// so that a source removed from the disk later is still recognised.
    pub fn named(mut self, as_given: &[PathBuf]) -> Scope {
        self.sources.extend(as_given.iter().cloned());
        self
    }

    /// A folder to read skills from (a prompt's or a session's source): one of the opened
    /// sources, or a real folder inside one.
    pub fn check_folder(&self, dir: &Path) -> Result<(), AppError> {
        if self.sources.iter().any(|s| s == dir) {
            return Ok(());
        }
        match std::fs::canonicalize(dir) {
            Ok(real) if self.roots.iter().any(|r| real.starts_with(r)) => Ok(()),
            _ => Err(AppError::new(
                ErrorCode::OutsideLibrary,
                format!("{} is not a folder of the opened library", dir.display()),
            )),
        }
    }

    /// `path` with its folder resolved to a real path, when that folder lies inside a root and,
    /// when the file exists, its real path does too. The file itself need not exist (a save may
    /// create it); `..`, symlinked folders and symlinked files cannot lead outside.
    pub fn check(&self, path: &Path) -> Result<PathBuf, AppError> {
        let outside =
            || AppError::new(ErrorCode::OutsideLibrary, format!("{} is outside the opened library", path.display()));
        let inside = |real: &Path| self.roots.iter().any(|r| real.starts_with(r));
        let (Some(dir), Some(name)) = (path.parent(), path.file_name()) else { return Err(outside()) };
        let dir = std::fs::canonicalize(dir).map_err(|_| outside())?;
        if !inside(&dir) {
            return Err(outside());
        }
        let full = dir.join(name);
        match std::fs::canonicalize(&full) {
            Ok(real) if !inside(&real) => Err(outside()),
            _ => Ok(full),
        }
    }
}

/// Write `text` to `path` atomically: a temporary file beside it, flushed, then renamed over it.
/// Keeps the file's permissions when it exists.
pub fn write_atomic(path: &Path, text: &str) -> Result<(), AppError> {
    let dir = path.parent().ok_or_else(|| AppError::new(ErrorCode::Io, "no folder to save in"))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // Unique per write: two saves of one file at once must not share a temporary file.
    static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let tmp = dir.join(format!(".{name}.{}-{n}.tmp", std::process::id()));
    let write = || -> std::io::Result<()> {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        if let Ok(meta) = std::fs::metadata(path) {
            std::fs::set_permissions(&tmp, meta.permissions())?;
        }
        std::fs::rename(&tmp, path)
    };
    write().map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        AppError::io("cannot save", path, &e)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scope_allows_files_inside_a_source_only() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("skills");
        std::fs::create_dir_all(src.join("a")).unwrap();
        let scope = Scope::new(std::slice::from_ref(&src));
        assert!(scope.check(&src.join("a/SKILL.md")).is_ok());
        let err = scope.check(&src.join("../outside.md")).unwrap_err();
        assert_eq!(err.code, ErrorCode::OutsideLibrary);
        assert_eq!(scope.check(&src.join("a/../../x.md")).unwrap_err().code, ErrorCode::OutsideLibrary);
        assert_eq!(scope.check(&src.join("missing/SKILL.md")).unwrap_err().code, ErrorCode::OutsideLibrary);
    }

    #[test]
    fn scope_allows_the_opened_sources_and_folders_inside_them_only() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("skills");
        let gone = tmp.path().join("gone");
        std::fs::create_dir_all(src.join("a")).unwrap();
        let scope = Scope::new(&[src.clone(), gone.clone()]).named(&[tmp.path().join("as-named")]);
        assert!(scope.check_folder(&src).is_ok());
        assert!(scope.check_folder(&src.join("a")).is_ok());
        assert!(scope.check_folder(&src.join("a/..")).is_ok());
        // A source that is missing stays allowed (the engine reports it); nothing else outside.
        assert!(scope.check_folder(&gone).is_ok());
        assert!(scope.check_folder(&tmp.path().join("as-named")).is_ok());
        for outside in [tmp.path().to_path_buf(), src.join(".."), src.join("a/../.."), tmp.path().join("other")] {
            assert_eq!(scope.check_folder(&outside).unwrap_err().code, ErrorCode::OutsideLibrary, "{outside:?}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn scope_sees_through_symlinked_folders() {
        let tmp = tempfile::tempdir().unwrap();
        let src = tmp.path().join("skills");
        let elsewhere = tmp.path().join("elsewhere");
        std::fs::create_dir_all(&src).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::os::unix::fs::symlink(&elsewhere, src.join("link")).unwrap();
        std::fs::write(elsewhere.join("secret.md"), "secret").unwrap();
        std::os::unix::fs::symlink(elsewhere.join("secret.md"), src.join("notes.md")).unwrap();
        std::fs::write(src.join("real.md"), "ok").unwrap();
        std::os::unix::fs::symlink(src.join("real.md"), src.join("alias.md")).unwrap();
        let scope = Scope::new(std::slice::from_ref(&src));
        assert_eq!(scope.check(&src.join("link/SKILL.md")).unwrap_err().code, ErrorCode::OutsideLibrary);
        // A symlinked file is followed: out of the sources it is refused, inside them it is fine.
        assert_eq!(scope.check(&src.join("notes.md")).unwrap_err().code, ErrorCode::OutsideLibrary);
        assert!(scope.check(&src.join("alias.md")).is_ok());
        assert_eq!(scope.check_folder(&src.join("link")).unwrap_err().code, ErrorCode::OutsideLibrary);
    }

    #[test]
    fn concurrent_saves_of_one_file_both_succeed() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("SKILL.md");
        let writers: Vec<_> = (0..8)
            .map(|i| {
                let path = path.clone();
                std::thread::spawn(move || write_atomic(&path, &format!("text {i}")))
            })
            .collect();
        for w in writers {
            w.join().unwrap().unwrap();
        }
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("text "));
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn write_atomic_replaces_the_file_and_leaves_no_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("SKILL.md");
        std::fs::write(&path, "old").unwrap();
        write_atomic(&path, "new text").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new text");
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("SKILL.md")]);
    }
}
