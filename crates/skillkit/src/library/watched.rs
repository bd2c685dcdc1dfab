//! A library kept current by a [`Watcher`] over its sources: each batch of file changes is
//! applied under the agent's profile, its verdict included ([`Library::apply`]), and handed on as
//! one [`Changed`]. `skillkit check --watch` runs on it; a front end that watches a library reads
//! the changes from [`WatchedLibrary::next_change`] (blocking) or
//! [`WatchedLibrary::try_next_change`], and reads the library itself in between.

use crate::agent::Agent;
use crate::library::watch::{FsChange, WatchConfig, Watcher};
use crate::library::{Library, LibraryEvent};
use std::io;
use std::path::PathBuf;
use std::sync::mpsc::Receiver;

/// What one batch of file changes did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// What changed in the library (empty when the batch touched nothing it holds).
    pub events: Vec<LibraryEvent>,
    /// The watcher's errors since the last batch.
    pub errors: Vec<String>,
}

/// A library, the agent it is read as, and the watcher that keeps it current.
pub struct WatchedLibrary {
    library: Library,
    agent: &'static Agent,
    watcher: Watcher,
    batches: Receiver<Vec<FsChange>>,
}

impl WatchedLibrary {
    /// Watches `roots` (folders: the library's sources) and keeps `library`, read as `agent`
    /// reads it, current. Fails when the watcher cannot start.
    pub fn new(
        library: Library,
        agent: &'static Agent,
        roots: &[PathBuf],
        config: WatchConfig,
    ) -> io::Result<WatchedLibrary> {
        let (watcher, batches) = Watcher::new(roots, config)?;
        Ok(WatchedLibrary { library, agent, watcher, batches })
    }

    /// The library as of the last change applied.
    pub fn library(&self) -> &Library {
        &self.library
    }

    /// The agent the library is read as.
    pub fn agent(&self) -> &'static Agent {
        self.agent
    }

    /// Waits for the next batch of changes and applies it; `None` once the watcher has stopped.
    pub fn next_change(&mut self) -> Option<Changed> {
        let batch = self.batches.recv().ok()?;
        Some(self.apply(&batch))
    }

    /// The next batch of changes, applied, if one has arrived.
    pub fn try_next_change(&mut self) -> Option<Changed> {
        let batch = self.batches.try_recv().ok()?;
        Some(self.apply(&batch))
    }

    /// Makes every change made so far arrive now ([`Watcher::flush`]).
    pub fn flush(&self) -> io::Result<()> {
        self.watcher.flush()
    }

    /// Stops watching; the library as it was last brought up to date.
    pub fn stop(self) -> Library {
        self.watcher.stop();
        self.library
    }

    fn apply(&mut self, batch: &[FsChange]) -> Changed {
        let events = self.library.apply_changes_for_agent(batch, self.agent);
        Changed { events, errors: self.watcher.errors() }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::SPEC;

    fn write_skill(dir: &std::path::Path, description: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), format!("---\nname: pdf\ndescription: {description}\n---\n# Pdf\n"))
            .unwrap();
    }

    #[test]
    fn a_change_on_disk_reaches_the_library_with_its_event() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        write_skill(&root.join("pdf"), "Reads PDF files.");
        let lib = Library::for_agent(std::slice::from_ref(&root), &SPEC);
        let mut watched = WatchedLibrary::new(lib, &SPEC, std::slice::from_ref(&root), WatchConfig::default()).unwrap();
        assert!(watched.try_next_change().is_none(), "nothing changed yet");
        write_skill(&root.join("pdf"), "Reads and fills PDF forms.");
        watched.flush().unwrap();
        let changed = watched.try_next_change().expect("the flushed batch");
        assert_eq!(changed.events, vec![LibraryEvent::SkillChanged { dir: root.join("pdf"), name: "pdf".into() }]);
        assert!(watched.library().entries[0].skill.text.contains("fills PDF forms"));
        let lib = watched.stop();
        assert_eq!(lib.entries.len(), 1);
    }
}
