//! The opened library, kept in the studio's state and watched: the engine's [`Watcher`] runs over
//! the sources, a thread applies each batch with [`Library::apply`] to every library kept for
//! those sources (one per agent profile asked for), and the result is handed to a [`Notify`]
//! callback (the host's sink: the app emits it as a window event). Opening another library stops the watcher.

use crate::events::{LibraryChanged, LibraryEvent};
use crate::host::Notify;
use crate::lock::lock;
use crate::views::LibraryView;
use skillkit::config::Project;
use skillkit::library::watch::{WatchConfig, Watcher};
use skillkit::library::Library;
use skillkit::Agent;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// A library's sources with the libraries read from them, one per agent profile.
pub struct Opened {
    generation: u64,
    /// Lowest priority first, as opened (real paths where they exist).
    pub sources: Vec<PathBuf>,
    /// The profile the library is linted with: `libraries[0]`.
    pub agent: &'static Agent,
    libraries: Vec<(&'static Agent, Library)>,
    /// The project's configuration (`skillkit.toml` above the first source): its rule levels
    /// and path ignores apply to every library kept.
    project: Option<Arc<Project>>,
}

impl Opened {
    /// The library as `agent` reads it, opened once and then kept up to date by the watcher.
    pub fn library(&mut self, agent: &'static Agent) -> &Library {
        let i = match self.libraries.iter().position(|(a, _)| a.id == agent.id) {
            Some(i) => i,
            None => {
                let mut lib = Library::for_agent(&self.sources, agent);
                if let Some(p) = &self.project {
                    p.adjust_library(&mut lib);
                }
                self.libraries.push((agent, lib));
                self.libraries.len() - 1
            }
        };
        &self.libraries[i].1
    }

    pub fn view(&self) -> LibraryView {
        LibraryView {
            // The engine accepts a configuration only when its agent is one it knows.
            configured_agent: self.project.as_ref().and_then(|p| p.config.agent.clone()),
            ..LibraryView::new(&self.libraries[0].1, self.agent.id)
        }
    }
}

/// The opened library and its watcher.
#[derive(Default)]
pub struct Kept {
    opened: Arc<Mutex<Option<Opened>>>,
    watcher: Arc<Mutex<Option<Watcher>>>,
    generation: AtomicU64,
    /// The opened library's project configuration, for the editor's lints.
    project: Mutex<Option<Arc<Project>>>,
}

impl Kept {
    /// Opens `sources` for `agent`, replacing (and no longer watching) the library kept before.
    /// With `notify`, the sources that exist are watched; a watcher that cannot start is reported
    /// in the returned message, and the library is still opened.
    pub fn open(
        &self,
        sources: Vec<PathBuf>,
        agent: &'static Agent,
        notify: Option<Notify>,
    ) -> (LibraryView, Option<String>) {
        if let Some(w) = lock(&self.watcher).take() {
            w.stop();
        }
        let generation = self.generation.fetch_add(1, Ordering::SeqCst) + 1;
        let mut lib = Library::for_agent(&sources, agent);
        let mut problem = None;
        let project = match sources.first().map(|s| skillkit::config::find(s)) {
            Some(Ok(p)) => p.map(Arc::new),
            Some(Err(e)) => {
                problem = Some(e.to_string());
                None
            }
            None => None,
        };
        if let Some(p) = &project {
            p.adjust_library(&mut lib);
        }
        *lock(&self.project) = project.clone();
        let opened = Opened { generation, sources: sources.clone(), agent, libraries: vec![(agent, lib)], project };
        let view = opened.view();
        *lock(&self.opened) = Some(opened);
        if let Some(notify) = notify {
            let roots: Vec<PathBuf> = sources.iter().filter(|s| s.is_dir()).cloned().collect();
            if !roots.is_empty() {
                match Watcher::new(&roots, WatchConfig::default()) {
                    Ok((watcher, batches)) => {
                        *lock(&self.watcher) = Some(watcher);
                        let (opened, watcher) = (Arc::clone(&self.opened), Arc::clone(&self.watcher));
                        std::thread::Builder::new()
                            .name("skill-studio-watch".into())
                            .spawn(move || {
                                // Ends when the watcher stops (the channel disconnects).
                                for batch in batches {
                                    let errors = lock(&watcher).as_ref().map(Watcher::errors).unwrap_or_default();
                                    let changed = {
                                        let mut guard = lock(&opened);
                                        let Some(o) = guard.as_mut().filter(|o| o.generation == generation) else {
                                            break;
                                        };
                                        let mut events = vec![];
                                        for (i, (agent, lib)) in o.libraries.iter_mut().enumerate() {
                                            let e = lib.apply_changes_for_agent(&batch, agent);
                                            if let Some(p) = &o.project {
                                                p.adjust_library(lib);
                                            }
                                            if i == 0 {
                                                events = e;
                                            }
                                        }
                                        (!events.is_empty() || !errors.is_empty()).then(|| LibraryChanged {
                                            events: events.iter().map(LibraryEvent::from).collect(),
                                            library: o.view(),
                                            errors,
                                        })
                                    };
                                    if let Some(changed) = changed {
                                        notify(changed);
                                    }
                                }
                            })
                            .map_err(|e| problem = Some(format!("cannot watch the library: {e}")))
                            .ok();
                    }
                    Err(e) => problem = Some(format!("the library is not watched: {e}")),
                }
            }
        }
        (view, problem)
    }

    /// The opened library's project configuration (`skillkit.toml`), if it has one.
    pub fn project(&self) -> Option<Arc<Project>> {
        lock(&self.project).clone()
    }

    /// Runs `f` on the library of exactly these `sources` as `agent` reads it, when it is the one
    /// kept; `None` otherwise.
    pub fn with<R>(&self, sources: &[PathBuf], agent: &'static Agent, f: impl FnOnce(&Library) -> R) -> Option<R> {
        let mut guard = lock(&self.opened);
        let o = guard.as_mut().filter(|o| o.sources == sources)?;
        Some(f(o.library(agent)))
    }

    /// The resource tree of the skill in `dir` as the watched library holds it (kept current by
    /// the watcher); `None` when the library is not watched or has no skill there.
    pub fn resources_of(&self, dir: &Path) -> Option<skillkit::resources::Resources> {
        if !self.watching() {
            return None;
        }
        let guard = lock(&self.opened);
        let (_, lib) = guard.as_ref()?.libraries.first()?;
        lib.entries.iter().find(|e| e.skill.dir == dir)?.skill.resources.clone()
    }

    /// The temporary files interrupted saves left in the opened library's skill folders, by
    /// folder (as the engine's resource scan found them).
    pub fn temporaries(&self) -> Vec<(PathBuf, Vec<String>)> {
        let guard = lock(&self.opened);
        let Some((_, lib)) = guard.as_ref().and_then(|o| o.libraries.first()) else { return vec![] };
        lib.entries
            .iter()
            .filter_map(|e| e.skill.resources.as_ref().map(|r| (e.skill.dir.clone(), r.temporaries.clone())))
            .filter(|(_, t)| !t.is_empty())
            .collect()
    }

    /// The opened library's sources (real paths where they exist).
    pub fn sources(&self) -> Vec<PathBuf> {
        lock(&self.opened).as_ref().map(|o| o.sources.clone()).unwrap_or_default()
    }

    /// Whether a watcher runs.
    pub fn watching(&self) -> bool {
        lock(&self.watcher).is_some()
    }

    /// Makes every change made so far reach the library (and the callback) now; see
    /// [`Watcher::flush`].
    pub fn flush(&self) -> std::io::Result<()> {
        match lock(&self.watcher).as_ref() {
            Some(w) => w.flush(),
            None => Ok(()),
        }
    }
}
