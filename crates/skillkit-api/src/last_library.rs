//! The last opened library, remembered as JSON in the app's config folder and reopened on start
//! (unless the app was started on explicit sources). A file that is missing, unreadable or not
//! valid JSON is ignored, as is a remembered library none of whose sources exists any more.

use crate::error::{AppError, ErrorCode};
use crate::file_access::write_own;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The file's name in the config folder.
pub const FILE: &str = "last-library.json";

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LastLibrary {
    /// Lowest priority first.
    pub sources: Vec<String>,
    pub agent: String,
}

/// The remembered library, if the file holds one.
pub fn read(path: &Path) -> Option<LastLibrary> {
    let text = skillkit::files::read_text(path, 1 << 20).ok()?;
    match serde_json::from_str(&text) {
        Ok(last) => Some(last),
        Err(e) => {
            eprintln!("skill-studio: ignoring {}: {e}", path.display());
            None
        }
    }
}

/// Remembers `last` (atomically, creating the folder).
pub fn write(path: &Path, last: &LastLibrary) -> Result<(), AppError> {
    if let Some(dir) = path.parent() {
        std::fs::create_dir_all(dir).map_err(|e| AppError::io("cannot create", dir, &e))?;
    }
    let text = serde_json::to_string_pretty(last).map_err(|e| AppError::new(ErrorCode::Internal, e.to_string()))?;
    write_own(path, &text)
}

/// What to open on start: the remembered library when one of its sources still exists and its
/// agent profile is known, else `fallback`.
pub fn choose(last: Option<LastLibrary>, fallback: LastLibrary) -> LastLibrary {
    match last {
        Some(l) if l.sources.iter().any(|s| Path::new(s).is_dir()) && skillkit::find_agent(&l.agent).is_some() => l,
        _ => fallback,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fallback() -> LastLibrary {
        LastLibrary { sources: vec!["/bundled/skills".into()], agent: "spec".into() }
    }

    #[test]
    fn a_written_library_is_read_back_and_chosen() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join("config/app").join(FILE);
        let src = tmp.path().to_string_lossy().into_owned();
        let last = LastLibrary { sources: vec![src.clone(), "/gone".into()], agent: "claude-code".into() };
        write(&file, &last).unwrap();
        assert_eq!(read(&file), Some(last));
        let chosen = choose(read(&file), fallback());
        assert_eq!(chosen.sources, vec![src, "/gone".to_string()]);
        assert_eq!(chosen.agent, "claude-code");
    }

    #[test]
    fn missing_broken_or_stale_memories_fall_back() {
        let tmp = tempfile::tempdir().unwrap();
        let file = tmp.path().join(FILE);
        assert_eq!(read(&file), None);
        std::fs::write(&file, "{ not json").unwrap();
        assert_eq!(read(&file), None);
        let gone = LastLibrary { sources: vec!["/nonexistent/skills".into()], agent: "spec".into() };
        assert_eq!(choose(Some(gone), fallback()), fallback());
        let src = tmp.path().to_string_lossy().into_owned();
        let unknown = LastLibrary { sources: vec![src], agent: "nope".into() };
        assert_eq!(choose(Some(unknown), fallback()), fallback());
        assert_eq!(choose(None, fallback()), fallback());
    }
}
