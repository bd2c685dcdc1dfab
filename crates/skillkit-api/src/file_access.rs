//! File access for the UI, through the engine's scoped file system (`skillkit::scope`, which its
//! [`Scope`] wraps): reads and saves only inside the sources of the opened library, never through
//! a symlink that leads out, and saves that are atomic, serialised per file and checked against
//! the version the editor read. This module only turns the engine's errors into the app's.

use crate::error::AppError;
use skillkit::scope::Version;
use std::path::{Path, PathBuf};

/// Writes a file of the app's own (its config, recovery drafts) the way library files are saved:
/// an exclusive temporary file in its folder, fsynced, renamed, the folder fsynced.
pub fn write_own(path: &Path, text: &str) -> Result<(), AppError> {
    let dir = path.parent().filter(|d| !d.as_os_str().is_empty()).unwrap_or(Path::new("."));
    Scope::new(&[dir.to_path_buf()]).save(path, text, None).map(|_| ())
}

/// The folders the UI may touch: the opened library's sources.
#[derive(Clone, Debug, Default)]
pub struct Scope(skillkit::scope::Scope);

impl Scope {
    pub fn new(sources: &[PathBuf]) -> Scope {
        Scope(skillkit::scope::Scope::new(sources))
    }

    /// The same scope, also knowing the sources as the UI named them (before they were resolved),
    /// so that a source removed from the disk later is still recognised.
    pub fn named(self, as_given: &[PathBuf]) -> Scope {
        Scope(self.0.named(as_given))
    }

    /// A folder to read skills from (a prompt's or a session's source): one of the opened
    /// sources, or a real folder inside one.
    pub fn check_folder(&self, dir: &Path) -> Result<(), AppError> {
        Ok(self.0.check_folder(dir)?)
    }

    /// `path` with its folder resolved to a real path, when it names a file inside the sources
    /// (see `skillkit::scope::Scope::check`).
    pub fn check(&self, path: &Path) -> Result<PathBuf, AppError> {
        Ok(self.0.check(path)?)
    }

    /// A text file of the library, read as the engine reads skill files, and its version.
    pub fn read_text(&self, path: &Path) -> Result<(String, Version), AppError> {
        Ok(self.0.read_text(path)?)
    }

    /// The engine's scope.
    pub fn engine(&self) -> &skillkit::scope::Scope {
        &self.0
    }

    /// Saves `text` at `path` (see `skillkit::scope::Scope::save`); with `base`, only when the
    /// file is still that version (`Some(None)`: only when it does not exist yet).
    pub fn save(&self, path: &Path, text: &str, base: Option<Option<&Version>>) -> Result<Version, AppError> {
        Ok(self.0.save(path, text.as_bytes(), base)?)
    }

    /// Removes temporary files that interrupted saves left in `dir` (names relative to it, as
    /// the engine's resource scan reports them).
    pub fn remove_temporaries(&self, dir: &Path, names: &[String]) -> usize {
        let mut removed = 0;
        for name in names {
            let (sub, file) = match name.rsplit_once('/') {
                Some((sub, file)) => (dir.join(sub), file.to_string()),
                None => (dir.to_path_buf(), name.clone()),
            };
            removed += self.0.remove_temporaries(&sub, std::slice::from_ref(&file));
        }
        removed
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

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
        let scope = std::sync::Arc::new(Scope::new(&[tmp.path().to_path_buf()]));
        let writers: Vec<_> = (0..8)
            .map(|i| {
                let (path, scope) = (path.clone(), scope.clone());
                std::thread::spawn(move || scope.save(&path, &format!("text {i}"), None))
            })
            .collect();
        for w in writers {
            w.join().unwrap().unwrap();
        }
        assert!(std::fs::read_to_string(&path).unwrap().starts_with("text "));
        assert_eq!(std::fs::read_dir(tmp.path()).unwrap().count(), 1);
    }

    #[test]
    fn a_save_replaces_the_file_and_leaves_no_temporary() {
        let tmp = tempfile::tempdir().unwrap();
        let path = tmp.path().join("SKILL.md");
        std::fs::write(&path, "old").unwrap();
        Scope::new(&[tmp.path().to_path_buf()]).save(&path, "new text", None).unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new text");
        let names: Vec<_> = std::fs::read_dir(tmp.path()).unwrap().map(|e| e.unwrap().file_name()).collect();
        assert_eq!(names, vec![std::ffi::OsString::from("SKILL.md")]);
    }
}
