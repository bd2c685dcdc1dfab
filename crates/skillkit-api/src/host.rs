//! What the use cases need from the outside, and nothing else: API keys (the app's system
//! keyring), the config and data folders, and where library changes and eval progress go (the
//! app's window events). The app's shell implements [`Host`] with Tauri and the keyring; tests
//! and other front ends use [`MemoryHost`].

use crate::error::AppError;
use crate::events::{EvalProgress, LibraryChanged, PackageProgress};
use skillkit::model::{ApiKey, ProviderKind};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// Receives each change of the watched library.
pub type Notify = Arc<dyn Fn(LibraryChanged) + Send + Sync>;

/// Receives each progress step of the eval in flight.
pub type Progress = Arc<dyn Fn(EvalProgress) + Send + Sync>;

/// Receives each package written by `build_packages`.
pub type PackageSink = Arc<dyn Fn(PackageProgress) + Send + Sync>;

/// The outside world of the use cases.
pub trait Host: Send + Sync {
    /// The stored API key of a provider's API, if one is stored.
    fn key(&self, api: ProviderKind) -> Result<Option<ApiKey>, AppError>;
    /// Stores a key (already trimmed and not empty).
    fn set_key(&self, api: ProviderKind, key: &str) -> Result<(), AppError>;
    /// Forgets the stored key; forgetting none is fine.
    fn forget_key(&self, api: ProviderKind) -> Result<(), AppError>;
    /// Where the app remembers its settings (the last library, the eval settings, the window).
    fn config_dir(&self) -> Option<PathBuf>;
    /// Where the app keeps its data (recovery drafts).
    fn data_dir(&self) -> Option<PathBuf>;
    /// Where changes of the opened library go; `None`: libraries are not watched.
    fn library_changes(&self) -> Option<Notify>;
    /// Where each eval's progress goes.
    fn eval_progress(&self) -> Option<Progress>;
    /// Where each package build's progress goes.
    fn package_progress(&self) -> Option<PackageSink>;
}

/// A host in memory: keys in a list, folders as given, sinks set by the caller.
#[derive(Default)]
pub struct MemoryHost {
    keys: Mutex<Vec<(ProviderKind, String)>>,
    pub config: Option<PathBuf>,
    pub data: Option<PathBuf>,
    changes: Mutex<Option<Notify>>,
    progress: Mutex<Option<Progress>>,
    packages: Mutex<Option<PackageSink>>,
}

impl MemoryHost {
    /// A host whose config and data folders are `config/` and `data/` in `dir`.
    pub fn in_dir(dir: &std::path::Path) -> MemoryHost {
        MemoryHost { config: Some(dir.join("config")), data: Some(dir.join("data")), ..MemoryHost::default() }
    }

    /// Watches the libraries opened from now on, passing their changes to `notify`.
    pub fn on_change(&self, notify: Notify) {
        *crate::lock::lock(&self.changes) = Some(notify);
    }

    /// Sends each eval's progress to `progress`.
    pub fn on_progress(&self, progress: Progress) {
        *crate::lock::lock(&self.progress) = Some(progress);
    }

    /// Sends each package build's progress to `sink`.
    pub fn on_package_progress(&self, sink: PackageSink) {
        *crate::lock::lock(&self.packages) = Some(sink);
    }
}

impl Host for MemoryHost {
    fn key(&self, api: ProviderKind) -> Result<Option<ApiKey>, AppError> {
        let keys = crate::lock::lock(&self.keys);
        Ok(keys.iter().find(|(k, _)| *k == api).map(|(_, key)| ApiKey::new(key.clone())))
    }

    fn set_key(&self, api: ProviderKind, key: &str) -> Result<(), AppError> {
        let mut keys = crate::lock::lock(&self.keys);
        keys.retain(|(k, _)| *k != api);
        keys.push((api, key.to_string()));
        Ok(())
    }

    fn forget_key(&self, api: ProviderKind) -> Result<(), AppError> {
        crate::lock::lock(&self.keys).retain(|(k, _)| *k != api);
        Ok(())
    }

    fn config_dir(&self) -> Option<PathBuf> {
        self.config.clone()
    }

    fn data_dir(&self) -> Option<PathBuf> {
        self.data.clone()
    }

    fn library_changes(&self) -> Option<Notify> {
        crate::lock::lock(&self.changes).clone()
    }

    fn eval_progress(&self) -> Option<Progress> {
        crate::lock::lock(&self.progress).clone()
    }
    fn package_progress(&self) -> Option<PackageSink> {
        crate::lock::lock(&self.packages).clone()
    }
}
