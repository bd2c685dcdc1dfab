//! The app's state, which the use cases of `studio/` work on: what it opens first, the library
//! opened last ([`CurrentLibrary`], kept and watched), which folders the UI may touch, the eval
//! run in flight, and the [`Host`] that gives keys, folders and sinks. The use cases themselves
//! are methods of [`Studio`], one file per feature under `studio/`.

use crate::error::{AppError, ErrorCode};
use crate::file_access::Scope;
use crate::host::Host;
use crate::host::Notify;
use crate::lock::lock;
use crate::watching::CurrentLibrary;
use serde::Serialize;
use skillkit::model::Cancel;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

/// What the UI opens first.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Startup {
    /// Library sources, lowest priority first.
    pub sources: Vec<String>,
    pub agent: String,
    /// The bundled example library (the welcome screen offers to open it), when the app has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub examples: Option<String>,
}

/// The file of the last opened library, in the config folder.
pub const LAST_LIBRARY_FILE: &str = crate::last_library::FILE;

/// The state every use case works on. Each method takes a request and returns a reply or an
/// [`AppError`]; the app's shell calls one per command.
pub struct Studio {
    pub(crate) startup: Startup,
    /// Started on explicit sources: the remembered library is neither reopened nor replaced.
    pub(crate) explicit: bool,
    pub(crate) host: Arc<dyn Host>,
    scope: Mutex<Scope>,
    /// Held for the length of a save (see [`Studio::save_scoped`]).
    pub(crate) saving: Mutex<()>,
    /// The library opened last, watched when the host has a sink for its changes.
    pub library: CurrentLibrary,
    /// The eval in flight: its cancel token.
    running: Mutex<Option<Cancel>>,
}

impl Studio {
    /// A studio started on explicit sources: it opens `startup` and remembers no library.
    pub fn new(startup: Startup, host: Arc<dyn Host>) -> Studio {
        Studio {
            startup,
            explicit: true,
            host,
            scope: Mutex::new(Scope::default()),
            saving: Mutex::new(()),
            library: CurrentLibrary::default(),
            running: Mutex::new(None),
        }
    }

    /// A studio that starts on the library remembered in the host's config folder (or on
    /// `fallback`, the first time) and remembers each library it opens there.
    pub fn remembering(fallback: Startup, host: Arc<dyn Host>) -> Studio {
        Studio { explicit: false, ..Studio::new(fallback, host) }
    }

    /// A file of the config folder, once the host has one.
    pub(crate) fn config_file(&self, name: &str) -> Option<PathBuf> {
        Some(self.host.config_dir()?.join(name))
    }

    /// Where the last library is remembered.
    pub(crate) fn memory(&self) -> Option<PathBuf> {
        self.config_file(crate::last_library::FILE)
    }

    /// Where library changes go: the host's sink; without one, libraries are opened unwatched.
    pub(crate) fn notify(&self) -> Option<Notify> {
        self.host.library_changes()
    }

    /// Where recovery drafts are kept (`drafts/` in the host's data folder).
    pub(crate) fn drafts_dir(&self) -> Result<PathBuf, AppError> {
        self.host
            .data_dir()
            .map(|d| d.join("drafts"))
            .ok_or_else(|| AppError::new(ErrorCode::Io, "no data folder for recovery drafts"))
    }

    /// The opened library's scope, copied out so that no lock is held while a file is read.
    pub(crate) fn scope(&self) -> Scope {
        lock(&self.scope).clone()
    }

    pub(crate) fn set_scope(&self, scope: Scope) {
        *lock(&self.scope) = scope;
    }

    /// Saves `text` through the scope, one save at a time: the expected-version check and the
    /// write of one save are never interleaved with another's. Reads go on meanwhile.
    pub(crate) fn save_scoped(
        &self,
        path: &Path,
        text: &str,
        base: Option<Option<&skillkit::scope::Version>>,
    ) -> Result<skillkit::scope::Version, AppError> {
        let scope = self.scope();
        let _one_at_a_time = lock(&self.saving);
        scope.save(path, text, base)
    }

    /// `path` resolved, when it lies inside the opened library's sources.
    pub fn check_path(&self, path: &str) -> Result<PathBuf, AppError> {
        self.scope().check(Path::new(path))
    }

    /// Prompts, sessions and suites read only the opened library's folders.
    pub(crate) fn check_folders(&self, sources: &[PathBuf]) -> Result<(), AppError> {
        let scope = self.scope();
        sources.iter().try_for_each(|s| scope.check_folder(s))
    }

    /// The token of a new eval run; `busy` while another runs. The run ends when the token drops.
    pub(crate) fn start_run(&self) -> Result<Running<'_>, AppError> {
        let mut running = lock(&self.running);
        if running.is_some() {
            return Err(AppError::new(ErrorCode::Busy, "an eval is already running: cancel it or wait for its report"));
        }
        let cancel = Cancel::new();
        *running = Some(cancel.clone());
        Ok(Running { studio: self, cancel })
    }

    /// Cancels the eval in flight (its requests on the wire finish; the report then says
    /// `cancelled`). Nothing happens when none runs.
    pub fn cancel_eval(&self) -> Result<(), AppError> {
        if let Some(c) = lock(&self.running).as_ref() {
            c.cancel();
        }
        Ok(())
    }
}

/// The run in flight; dropping it (the run is over, however it ended) frees the slot.
pub(crate) struct Running<'a> {
    studio: &'a Studio,
    pub cancel: Cancel,
}

impl Drop for Running<'_> {
    fn drop(&mut self) {
        *lock(&self.studio.running) = None;
    }
}
