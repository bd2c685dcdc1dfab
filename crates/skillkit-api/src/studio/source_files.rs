//! The files of the opened sources: reading and saving them (inside the sources only), drafts of
//! unsaved text.

use crate::prelude::*;

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ReadFile {
    pub path: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct FileText {
    pub path: String,
    pub text: String,
    /// What the file was when read: a save based on this text carries it (see `SaveFile::base`).
    pub version: skillkit::scope::Version,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SaveFile {
    pub path: String,
    pub text: String,
    /// The version of the file the text was based on (from `read_file` or the last save): the
    /// save is refused with the `conflict` code when the file changed since. Absent: no check.
    #[serde(default)]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub base: Option<skillkit::scope::Version>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Saved {
    pub path: String,
    pub bytes: usize,
    /// The file's version after the save, the base of the next one.
    pub version: skillkit::scope::Version,
}

/// Unsaved editor text kept from an earlier run, newer than its file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Draft {
    pub path: String,
    pub text: String,
    /// When the draft was written, in milliseconds since the Unix epoch.
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub written_ms: u64,
    /// When the file was last modified; `null` when it no longer exists.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub file_modified_ms: Option<u64>,
}

impl Studio {
    /// Keeps the editor's unsaved text of a file of the library.
    pub fn save_draft(&self, args: SaveFile) -> Result<(), AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        crate::drafts::write(&self.drafts_dir()?, &path, &args.text)
    }

    pub fn discard_draft(&self, args: ReadFile) -> Result<(), AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        crate::drafts::remove(&self.drafts_dir()?, &path)
    }

    /// The drafts of files in the opened library that are newer than their file (or whose file
    /// is gone), to offer for restoring. Older ones are stale and removed.
    pub fn drafts(&self) -> Result<Vec<Draft>, AppError> {
        let Ok(dir) = self.drafts_dir() else { return Ok(vec![]) };
        let mut out = vec![];
        for d in crate::drafts::all(&dir) {
            let Ok(path) = self.scope().check(Path::new(&d.path)) else { continue };
            let file_modified_ms = crate::drafts::modified_ms(&path);
            if file_modified_ms.is_some_and(|m| m >= d.written_ms) {
                crate::drafts::remove(&dir, &path)?;
                continue;
            }
            out.push(Draft { path: d.path, text: d.text, written_ms: d.written_ms, file_modified_ms });
        }
        Ok(out)
    }

    /// Reads a text file inside the opened library's sources (as the engine reads skill files:
    /// at most 10 MiB, UTF-8), with its version for a later save.
    pub fn read_file(&self, args: ReadFile) -> Result<FileText, AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        let (text, version) = self.scope().read_text(&path)?;
        Ok(FileText { path: path_string(&path), text, version })
    }

    /// Saves atomically, only inside the opened library's sources, and only over the version the
    /// text was based on (when given). The draft is dropped once the save is on disk.
    pub fn save_file(&self, args: SaveFile) -> Result<Saved, AppError> {
        let path = self.scope().check(Path::new(&args.path))?;
        let version = self.save_scoped(&path, &args.text, args.base.as_ref().map(Some))?;
        if let Ok(dir) = self.drafts_dir() {
            crate::drafts::remove(&dir, &path)?;
        }
        Ok(Saved { path: path_string(&path), bytes: args.text.len(), version })
    }
}
