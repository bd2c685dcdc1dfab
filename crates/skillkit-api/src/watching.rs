//! The studio's current library: the one opened last, kept in the studio's state as the engine's
//! [`WatchedLibrary`] (one library per agent profile asked for, over the same sources, the
//! project's `skillkit.toml` applied to each). With a [`Notify`] sink, its sources are watched: a
//! thread waits for each batch of changes, applies it to the libraries and hands the result to
//! the sink (the host's: the app emits it as a window event) as the wire's [`LibraryChanged`].
//! Opening another library stops the watcher; a generation number keeps a batch of the old one
//! from reaching the new.
//!
//! The editor's calls go through one engine [`Workspace`] over the same sources, under the
//! library's agent (the one `skillkit lsp` holds): the watcher's batches reach it too, so the
//! app's editor and the language server give the same diagnostics for the same text.

use crate::error::AppError;
use crate::events::{LibraryChanged, LibraryEvent};
use crate::host::Notify;
use crate::lock::lock;
use crate::views::LibraryView;
use skillkit::config::Project;
use skillkit::library::watch::{FsChange, WatchConfig};
use skillkit::library::watched::{WatchHandle, WatchedLibrary};
use skillkit::library::Library;
use skillkit::workspace::Workspace;
use skillkit::Agent;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// The library opened last, numbered.
struct Opened {
    generation: u64,
    watched: WatchedLibrary,
    /// Why the project's configuration was left out (`resolve::project`'s error).
    config_error: Option<AppError>,
}

impl Opened {
    fn view(&self) -> LibraryView {
        let w = &self.watched;
        LibraryView {
            // The engine accepts a configuration only when its agent is one it knows.
            configured_agent: w.project().and_then(|p| p.config.agent.clone()),
            config_error: self.config_error.clone(),
            ..LibraryView::new(w.library(), w.agent().id)
        }
    }
}

/// The editor's workspace over the current library's sources, opened on first use.
#[derive(Default)]
struct Editors {
    generation: u64,
    sources: Vec<PathBuf>,
    project: Option<Arc<Project>>,
    /// The agent the library was opened with.
    agent: Option<&'static Agent>,
    workspace: Option<Arc<Mutex<Workspace>>>,
}

impl Editors {
    /// The workspace of library `generation`, if it has one.
    fn of(&self, generation: u64) -> Option<Arc<Mutex<Workspace>>> {
        self.workspace.as_ref().filter(|_| self.generation == generation).map(Arc::clone)
    }
}

/// The studio's current library and its watcher.
#[derive(Default)]
pub struct CurrentLibrary {
    opened: Arc<Mutex<Option<Opened>>>,
    editors: Arc<Mutex<Editors>>,
    /// The watcher's handle, held apart so that a flush does not wait for a batch being applied.
    watch: Mutex<Option<WatchHandle>>,
    generation: AtomicU64,
    /// The project's configuration, held apart for the editor's lints (which then do not wait
    /// for a batch being applied).
    project: Mutex<Option<Arc<Project>>>,
}

impl CurrentLibrary {
    /// Opens `sources` for `agent`, replacing (and no longer watching) the library opened before.
    /// A project configuration that cannot be read is left out, and its error is the view's
    /// `config_error`. With `notify`, the sources that exist are watched; a watcher that cannot
    /// start is reported in the returned message, and the library is still opened.
    pub fn open(
        &self,
        sources: Vec<PathBuf>,
        agent: &'static Agent,
        notify: Option<Notify>,
    ) -> (LibraryView, Option<String>) {
        if let Some(h) = lock(&self.watch).take() {
            h.stop();
        }
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let (project, config_error) = match sources.first().map(|s| crate::resolve::project(s)) {
            Some(Ok(p)) => (p.map(Arc::new), None),
            Some(Err(e)) => (None, Some(e)),
            None => (None, None),
        };
        *lock(&self.project) = project.clone();
        *lock(&self.editors) = Editors {
            generation,
            sources: sources.clone(),
            project: project.clone(),
            agent: Some(agent),
            workspace: None,
        };
        let lib = Library::for_agent(&sources, agent);
        let mut watched = WatchedLibrary::new(sources, lib, agent, project);
        let mut problem = None;
        let mut batches = None;
        if notify.is_some() && watched.sources().iter().any(|s| s.is_dir()) {
            match watched.watch(WatchConfig::default()) {
                Ok(handle) => {
                    *lock(&self.watch) = Some(handle);
                    batches = watched.take_batches();
                }
                Err(e) => problem = Some(format!("the library is not watched: {e}")),
            }
        }
        let opened = Opened { generation, watched, config_error };
        let view = opened.view();
        // The library opened before (its watcher already stopped) is dropped once unlocked.
        let _before = lock(&self.opened).replace(opened);
        if let (Some(notify), Some(batches)) = (notify, batches) {
            let opened = Arc::clone(&self.opened);
            let editors = Arc::clone(&self.editors);
            std::thread::Builder::new()
                .name("skill-studio-watch".into())
                .spawn(move || {
                    // Ends when the watcher stops (the channel disconnects).
                    for batch in batches {
                        let changed = {
                            let mut guard = lock(&opened);
                            let Some(o) = guard.as_mut().filter(|o| o.generation == generation) else {
                                break;
                            };
                            let changed = o.watched.apply(&batch);
                            (!changed.events.is_empty() || !changed.errors.is_empty()).then(|| LibraryChanged {
                                events: changed.events.iter().map(LibraryEvent::from).collect(),
                                library: o.view(),
                                errors: changed.errors,
                            })
                        };
                        // The editor's workspace sees the change before the sink hears of it.
                        if let Some(ws) = lock(&editors).of(generation) {
                            lock(&ws).files_changed(&batch);
                        }
                        if let Some(changed) = changed {
                            notify(changed);
                        }
                    }
                })
                .map_err(|e| problem = Some(format!("cannot watch the library: {e}")))
                .ok();
        }
        (view, problem)
    }

    /// The current library's project configuration (`skillkit.toml`), if it has one.
    pub fn project(&self) -> Option<Arc<Project>> {
        lock(&self.project).clone()
    }

    /// Runs `f` on the library of exactly these `sources` as `agent` reads it, when it is the
    /// current one; `None` otherwise.
    pub fn with<R>(&self, sources: &[PathBuf], agent: &'static Agent, f: impl FnOnce(&Library) -> R) -> Option<R> {
        let mut guard = lock(&self.opened);
        let o = guard.as_mut().filter(|o| o.watched.sources() == sources)?;
        Some(f(o.watched.library_as(agent)))
    }

    /// The editor's workspace over the current library under `agent`, with the project's
    /// configuration applied: opened the first time, and opened again when it is another agent's
    /// (the library was just reopened under another). An unwatched library's workspace re-reads
    /// the skill folder of `file` first (nothing else tells it what changed on disk).
    pub fn workspace(&self, agent: &'static Agent, file: &Path) -> Arc<Mutex<Workspace>> {
        let ws = {
            let mut editors = lock(&self.editors);
            match editors.workspace.as_ref().filter(|ws| lock(ws).agent().id == agent.id) {
                Some(ws) => Arc::clone(ws),
                None => {
                    let project = editors.project.as_deref().cloned();
                    let ws = Arc::new(Mutex::new(Workspace::open(&editors.sources, agent).with_project(project)));
                    editors.workspace = Some(Arc::clone(&ws));
                    ws
                }
            }
        };
        if !self.watching() {
            if let Some(dir) = Workspace::real_path(file).parent() {
                lock(&ws).files_changed(&[FsChange::Modified(dir.to_path_buf())]);
            }
        }
        ws
    }

    /// The agent the current library is linted under (the editor's workspace's), if one is open.
    pub fn agent(&self) -> Option<&'static Agent> {
        lock(&self.editors).agent
    }

    /// The temporary files interrupted saves left in the current library's skill folders, by
    /// folder (as the engine's resource scan found them).
    pub fn temporaries(&self) -> Vec<(PathBuf, Vec<String>)> {
        let guard = lock(&self.opened);
        let Some(o) = guard.as_ref() else { return vec![] };
        o.watched
            .library()
            .entries
            .iter()
            .filter_map(|e| e.skill.resources.as_ref().map(|r| (e.skill.dir.clone(), r.temporaries.clone())))
            .filter(|(_, t)| !t.is_empty())
            .collect()
    }

    /// The current library's sources (real paths where they exist).
    pub fn sources(&self) -> Vec<PathBuf> {
        lock(&self.opened).as_ref().map(|o| o.watched.sources().to_vec()).unwrap_or_default()
    }

    /// Whether a watcher runs.
    pub fn watching(&self) -> bool {
        lock(&self.watch).as_ref().is_some_and(WatchHandle::is_watching)
    }

    /// Makes every change made so far reach the library (and the sink) now; see
    /// [`WatchHandle::flush`].
    pub fn flush(&self) -> std::io::Result<()> {
        let handle = lock(&self.watch).clone();
        handle.map_or(Ok(()), |h| h.flush())
    }
}
