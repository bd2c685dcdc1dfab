//! Libraries kept current by one [`Watcher`] over their sources: `skillkit check --watch` and the
//! app both run on [`WatchedLibrary`].
//!
//! A watched library holds one [`Library`] per agent profile asked for, all read from the same
//! sources: the first is the one it was made with ([`WatchedLibrary::library`]), the others are
//! opened as their agent discovers them on the first [`WatchedLibrary::library_as`]. The project's
//! configuration (`skillkit.toml`), when there is one, is applied to every library as it is kept
//! ([`Project::adjust_library`]). Each batch of file changes is applied to every library under its
//! agent's profile, its verdict included ([`Library::apply`]), then the project again, and comes
//! back as one [`Changed`] (the first library's events).
//!
//! The libraries are kept but not watched until [`WatchedLibrary::watch`] starts the watcher over
//! the sources that are folders. Then a front end either waits on [`WatchedLibrary::next_change`]
//! (the CLI: one thread), or takes the batches ([`WatchedLibrary::take_batches`]) to wait on
//! another thread, where it applies each with [`WatchedLibrary::apply`] while it holds the library
//! (the app: the library stays readable between batches). The [`WatchHandle`] flushes and stops the
//! watcher from any thread; dropping the watched library stops it too.

use crate::agent::Agent;
use crate::config::Project;
use crate::library::watch::{FsChange, WatchConfig, Watcher};
use crate::library::{Library, LibraryEvent};
use std::io;
use std::path::PathBuf;
use std::sync::mpsc::Receiver;
use std::sync::{Arc, Mutex, PoisonError};

/// What one batch of file changes did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Changed {
    /// What changed in the first library (empty when the batch touched nothing it holds).
    pub events: Vec<LibraryEvent>,
    /// The watcher's errors since the last batch.
    pub errors: Vec<String>,
}

/// Libraries of the same sources, one per agent profile, and the watcher that keeps them current.
pub struct WatchedLibrary {
    /// Lowest priority first, as the libraries were opened.
    sources: Vec<PathBuf>,
    project: Option<Arc<Project>>,
    /// The first is the one it was made with.
    libraries: Vec<(&'static Agent, Library)>,
    handle: Option<WatchHandle>,
    batches: Option<Receiver<Vec<FsChange>>>,
}

impl WatchedLibrary {
    /// Keeps `library` (of `sources`, read as `agent` reads it) with `project` applied; not
    /// watched until [`WatchedLibrary::watch`].
    pub fn new(
        sources: Vec<PathBuf>,
        mut library: Library,
        agent: &'static Agent,
        project: Option<Arc<Project>>,
    ) -> WatchedLibrary {
        if let Some(p) = &project {
            p.adjust_library(&mut library);
        }
        WatchedLibrary { sources, project, libraries: vec![(agent, library)], handle: None, batches: None }
    }

    /// Starts watching the sources that are folders. Fails when none is, or when the watcher
    /// cannot start (the libraries are still kept).
    pub fn watch(&mut self, config: WatchConfig) -> io::Result<WatchHandle> {
        let roots: Vec<PathBuf> = self.sources.iter().filter(|s| s.is_dir()).cloned().collect();
        let (watcher, batches) = Watcher::new(&roots, config)?;
        let handle = WatchHandle(Arc::new(Mutex::new(Some(watcher))));
        self.handle = Some(handle.clone());
        self.batches = Some(batches);
        Ok(handle)
    }

    /// The sources, lowest priority first.
    pub fn sources(&self) -> &[PathBuf] {
        &self.sources
    }

    /// The project's configuration applied to every library, if there is one.
    pub fn project(&self) -> Option<&Arc<Project>> {
        self.project.as_ref()
    }

    /// The agent of the first library.
    pub fn agent(&self) -> &'static Agent {
        self.libraries[0].0
    }

    /// The first library, as of the last change applied.
    pub fn library(&self) -> &Library {
        &self.libraries[0].1
    }

    /// The library as `agent` reads it: opened ([`Library::for_agent`]) the first time it is asked for,
    /// then kept current with the others.
    pub fn library_as(&mut self, agent: &'static Agent) -> &Library {
        let i = match self.libraries.iter().position(|(a, _)| a.id == agent.id) {
            Some(i) => i,
            None => {
                let mut library = Library::for_agent(&self.sources, agent);
                if let Some(p) = &self.project {
                    p.adjust_library(&mut library);
                }
                self.libraries.push((agent, library));
                self.libraries.len() - 1
            }
        };
        &self.libraries[i].1
    }

    /// Waits for the next batch of changes and applies it; `None` when not watched, once the
    /// watcher has stopped, or after [`WatchedLibrary::take_batches`].
    pub fn next_change(&mut self) -> Option<Changed> {
        let batch = self.batches.as_ref()?.recv().ok()?;
        Some(self.apply(&batch))
    }

    /// The batches of changes, to wait on elsewhere (they end when the watcher stops); each is
    /// then given to [`WatchedLibrary::apply`]. `None` when not watched or already taken.
    pub fn take_batches(&mut self) -> Option<Receiver<Vec<FsChange>>> {
        self.batches.take()
    }

    /// Applies one batch of changes to every library, then the project.
    pub fn apply(&mut self, batch: &[FsChange]) -> Changed {
        let mut events = vec![];
        for (i, (agent, library)) in self.libraries.iter_mut().enumerate() {
            let e = library.apply_changes_for_agent(batch, agent);
            if let Some(p) = &self.project {
                p.adjust_library(library);
            }
            if i == 0 {
                events = e;
            }
        }
        let errors = self.handle.as_ref().map(WatchHandle::errors).unwrap_or_default();
        Changed { events, errors }
    }
}

impl Drop for WatchedLibrary {
    fn drop(&mut self) {
        if let Some(h) = &self.handle {
            h.stop();
        }
    }
}

/// Flushes and stops a [`WatchedLibrary`]'s watcher, from any thread (clones share it).
#[derive(Clone)]
pub struct WatchHandle(Arc<Mutex<Option<Watcher>>>);

impl WatchHandle {
    /// Makes every change made so far arrive now ([`Watcher::flush`]); nothing once stopped.
    pub fn flush(&self) -> io::Result<()> {
        match self.watcher().as_ref() {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }

    /// Stops watching: the batches end. Stopping again does nothing.
    pub fn stop(&self) {
        let watcher = self.watcher().take();
        if let Some(w) = watcher {
            w.stop();
        }
    }

    /// Whether the watcher still runs.
    pub fn is_watching(&self) -> bool {
        self.watcher().is_some()
    }

    fn errors(&self) -> Vec<String> {
        self.watcher().as_ref().map(Watcher::errors).unwrap_or_default()
    }

    fn watcher(&self) -> std::sync::MutexGuard<'_, Option<Watcher>> {
        self.0.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agents::{claude_code, SPEC};
    use std::path::Path;

    fn write_skill(dir: &Path, name: &str, description: &str) {
        std::fs::create_dir_all(dir).unwrap();
        std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: {description}\n---\n# Pdf\n"))
            .unwrap();
    }

    fn watched(root: &Path, project: Option<Arc<Project>>) -> WatchedLibrary {
        let lib = Library::for_agent(&[root.to_path_buf()], &SPEC);
        WatchedLibrary::new(vec![root.to_path_buf()], lib, &SPEC, project)
    }

    #[test]
    fn a_change_on_disk_reaches_the_library_with_its_event() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        write_skill(&root.join("pdf"), "pdf", "Reads PDF files.");
        let mut watched = watched(&root, None);
        assert!(watched.next_change().is_none(), "not watched yet");
        let handle = watched.watch(WatchConfig::default()).unwrap();
        write_skill(&root.join("pdf"), "pdf", "Reads and fills PDF forms.");
        handle.flush().unwrap();
        let changed = watched.next_change().expect("the flushed batch");
        assert_eq!(changed.events, vec![LibraryEvent::SkillChanged { dir: root.join("pdf"), name: "pdf".into() }]);
        assert!(watched.library().entries[0].skill.text.contains("fills PDF forms"));
        // Stopped from the handle (another thread's, in the app): the batches end.
        let stopper = handle.clone();
        std::thread::spawn(move || stopper.stop()).join().unwrap();
        assert!(!handle.is_watching());
        assert!(watched.next_change().is_none());
        handle.flush().unwrap();
    }

    #[test]
    fn every_agents_library_follows_the_batch_and_the_project_applies_to_each() {
        let tmp = tempfile::tempdir().unwrap();
        let root = tmp.path().canonicalize().unwrap();
        std::fs::write(root.join("skillkit.toml"), "[rules]\nname-format = \"off\"\n").unwrap();
        let project = crate::config::find(&root).unwrap().map(Arc::new);
        assert!(project.is_some());
        write_skill(&root.join("pdf"), "pdf", "Reads PDF files.");
        let mut watched = watched(&root, project);
        let claude = &claude_code::AGENT;
        assert_eq!(watched.library_as(claude).entries.len(), 1);
        let handle = watched.watch(WatchConfig::default()).unwrap();
        let batches = watched.take_batches().expect("watched");
        assert!(watched.take_batches().is_none(), "taken once");
        // A name the rule refuses, and a second skill.
        write_skill(&root.join("pdf"), "Bad_Name", "Reads PDF files.");
        write_skill(&root.join("forms"), "forms", "Fills forms.");
        handle.flush().unwrap();
        // Waited on elsewhere, applied here.
        let batch = std::thread::spawn(move || batches.recv().unwrap()).join().unwrap();
        let changed = watched.apply(&batch);
        assert!(!changed.events.is_empty());
        for agent in [&SPEC, claude] {
            let lib = watched.library_as(agent);
            assert_eq!(lib.entries.len(), 2, "{}", agent.id);
            let codes: Vec<&str> = lib.entries.iter().flat_map(|e| &e.diagnostics).map(|d| d.code).collect();
            assert!(!codes.contains(&"SK204"), "{}: the project turns the rule off: {codes:?}", agent.id);
        }
        // Without the project, the rule speaks: the test can fail.
        let bare = Library::for_agent(std::slice::from_ref(&root), &SPEC);
        assert!(bare.entries.iter().flat_map(|e| &e.diagnostics).any(|d| d.code == "SK204"));
        drop(watched);
        assert!(!handle.is_watching(), "dropping the library stops its watcher");
    }
}
