//! The app's [`Host`]: API keys in the system keyring (the backend is chosen in Cargo.toml), the
//! app's config and data folders, and the window's events as the sinks of library changes and
//! eval progress.

use skillkit::model::{ApiKey, ProviderKind};
use skillkit_api::events::{
    EvalProgress, LibraryChanged, PackageProgress, EVAL_PROGRESS, LIBRARY_CHANGED, PACKAGE_PROGRESS,
};
use skillkit_api::host::{Host, Notify, PackageSink, Progress};
use skillkit_api::{AppError, ErrorCode};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};
use tauri::{Emitter, Manager};

/// The keyring service the keys are stored under (one entry per API, named after it).
const KEYRING_SERVICE: &str = "skill-studio";

/// The API keys in the system keyring. One entry per API, made once and kept: the tests' mock
/// store keeps a key in its entry.
pub struct Keys {
    /// `None`: the platform's store.
    builder: Option<Box<keyring::CredentialBuilder>>,
    entries: Mutex<Vec<(ProviderKind, Arc<keyring::Entry>)>>,
}

fn keyring_error(e: keyring::Error) -> AppError {
    // The errors describe the store, never the secret (`BadEncoding` prints no bytes).
    AppError::new(ErrorCode::Keyring, format!("the system keyring: {e}"))
}

impl Keys {
    /// The platform's keyring.
    pub fn system() -> Keys {
        Keys { builder: None, entries: Mutex::new(vec![]) }
    }

    /// A store made by `builder` (`keyring::mock::default_credential_builder()` in tests).
    pub fn with_builder(builder: Box<keyring::CredentialBuilder>) -> Keys {
        Keys { builder: Some(builder), entries: Mutex::new(vec![]) }
    }

    fn entry(&self, kind: ProviderKind) -> Result<Arc<keyring::Entry>, AppError> {
        let mut entries = self.entries.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, e)) = entries.iter().find(|(k, _)| *k == kind) {
            return Ok(Arc::clone(e));
        }
        let entry = match &self.builder {
            Some(b) => {
                keyring::Entry::new_with_credential(b.build(None, KEYRING_SERVICE, kind.name()).map_err(keyring_error)?)
            }
            None => keyring::Entry::new(KEYRING_SERVICE, kind.name()).map_err(keyring_error)?,
        };
        let entry = Arc::new(entry);
        entries.push((kind, Arc::clone(&entry)));
        Ok(entry)
    }

    /// The stored key, if there is one.
    pub fn get(&self, kind: ProviderKind) -> Result<Option<ApiKey>, AppError> {
        match self.entry(kind)?.get_password() {
            Ok(key) => Ok(Some(ApiKey::new(key))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(keyring_error(e)),
        }
    }

    pub fn set(&self, kind: ProviderKind, key: &str) -> Result<(), AppError> {
        self.entry(kind)?.set_password(key).map_err(keyring_error)
    }

    pub fn forget(&self, kind: ProviderKind) -> Result<(), AppError> {
        match self.entry(kind)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(keyring_error(e)),
        }
    }
}

/// The running app as the use cases' host. The state is managed before the app runs, so the
/// app's handle comes later ([`TauriHost::attach`], in the setup hook): until then there are no
/// folders and no sinks, as in the tests.
pub struct TauriHost {
    app: OnceLock<tauri::AppHandle>,
    keys: Keys,
}

impl TauriHost {
    /// A host over the system keyring.
    pub fn new() -> TauriHost {
        TauriHost { app: OnceLock::new(), keys: Keys::system() }
    }

    /// Gives the host the running app (its folders, its window's events).
    pub fn attach(&self, app: tauri::AppHandle) {
        if let Err(e) = app.path().app_config_dir() {
            eprintln!("skill-studio: no config folder, the library is not remembered: {e}");
        }
        if let Err(e) = app.path().app_data_dir() {
            eprintln!("skill-studio: no data folder, unsaved text is not kept: {e}");
        }
        let _ = self.app.set(app);
    }

    /// A sink that emits each value as the window's `event`.
    fn emit<T: serde::Serialize + Clone>(&self, event: &'static str) -> Option<Arc<dyn Fn(T) + Send + Sync>> {
        let app = self.app.get()?.clone();
        Some(Arc::new(move |payload: T| {
            if let Err(e) = app.emit(event, payload) {
                eprintln!("skill-studio: cannot emit {event}: {e}");
            }
        }))
    }
}

impl Default for TauriHost {
    fn default() -> TauriHost {
        TauriHost::new()
    }
}

impl Host for TauriHost {
    fn key(&self, api: ProviderKind) -> Result<Option<ApiKey>, AppError> {
        self.keys.get(api)
    }
    fn set_key(&self, api: ProviderKind, key: &str) -> Result<(), AppError> {
        self.keys.set(api, key)
    }
    fn forget_key(&self, api: ProviderKind) -> Result<(), AppError> {
        self.keys.forget(api)
    }
    fn config_dir(&self) -> Option<PathBuf> {
        self.app.get()?.path().app_config_dir().ok()
    }
    fn data_dir(&self) -> Option<PathBuf> {
        self.app.get()?.path().app_data_dir().ok()
    }
    fn library_changes(&self) -> Option<Notify> {
        self.emit::<LibraryChanged>(LIBRARY_CHANGED)
    }
    fn eval_progress(&self) -> Option<Progress> {
        self.emit::<EvalProgress>(EVAL_PROGRESS)
    }
    fn package_progress(&self) -> Option<PackageSink> {
        self.emit::<PackageProgress>(PACKAGE_PROGRESS)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_key_is_stored_read_back_and_forgotten_in_its_own_entry() {
        let keys = Keys::with_builder(keyring::mock::default_credential_builder());
        assert!(keys.get(ProviderKind::OpenAi).unwrap().is_none());
        keys.set(ProviderKind::OpenAi, "sk-1").unwrap();
        let key = keys.get(ProviderKind::OpenAi).unwrap().unwrap();
        assert!(!format!("{key:?}").contains("sk-1"));
        assert!(keys.get(ProviderKind::Anthropic).unwrap().is_none());
        keys.forget(ProviderKind::OpenAi).unwrap();
        keys.forget(ProviderKind::OpenAi).unwrap();
        assert!(keys.get(ProviderKind::OpenAi).unwrap().is_none());
    }
}
