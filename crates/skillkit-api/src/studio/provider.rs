//! The model provider of the Evals pane and live sessions: the API keys (kept by the host: the
//! app's system keyring), the provider settings remembered in the config folder, and the config
//! a run uses, whose key the engine's rule picks.
//!
//! A key is only ever written to the host and read back from it for a run (wrapped at once in
//! the engine's `ApiKey`, which prints as `ApiKey(***)`): no reply, file or log line holds it. The
//! UI learns only whether a key is stored and whether the environment has one.

use crate::prelude::*;
use crate::settings::{ModelApi, ProviderSettings};
use skillkit::model::{ApiKey, KeyOrigin, ProviderConfig};

/// Where the provider settings are remembered, in the config folder.
pub const SETTINGS_FILE: &str = "eval-settings.json";

/// Where a run's key came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum KeyUse {
    Keyring,
    Environment,
    /// No key: a local server at an explicit base URL.
    None,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ApiArg {
    pub api: ModelApi,
}

#[derive(Clone, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SetApiKey {
    pub api: ModelApi,
    pub key: String,
}

/// Never prints the key (Tauri's and our own logs see only this).
impl std::fmt::Debug for SetApiKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SetApiKey {{ api: {:?}, key: *** }}", self.api)
    }
}

/// What the UI may know about an API's key: whether one is stored, not what it is.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct KeyStatus {
    pub api: ModelApi,
    /// A key is stored in the system keyring.
    pub stored: bool,
    /// The environment variable read when none is stored (`OPENAI_API_KEY`, `ANTHROPIC_API_KEY`).
    pub env: String,
    pub env_set: bool,
    /// Why the keyring could not be asked (`stored` is then false).
    pub keyring_error: Option<String>,
}

impl Studio {
    /// The engine's provider config for the settings (checked by [`ProviderSettings::check`]),
    /// with the key the engine's rule picks: the host's, else the environment's, else none (only
    /// with an explicit base URL).
    pub fn provider_config(&self, s: &ProviderSettings) -> Result<(ProviderConfig, KeyUse), AppError> {
        s.check()?;
        let kind = s.api;
        let (stored, trouble) = match self.host.key(kind) {
            Ok(key) => (key, None),
            Err(e) => (None, Some(e.message)),
        };
        let (key, origin) = skillkit::model::choose_key(stored, kind.key_env(), s.base_url()).map_err(|e| {
            let why = trouble.map(|t| format!(" ({t})")).unwrap_or_default();
            AppError::new(
                ErrorCode::NoKey,
                format!("no API key for {kind}: store one, set {}, or give the base URL of a local server{why}", e.env),
            )
        })?;
        let config = s.config(key)?;
        let key = match origin {
            KeyOrigin::Stored => KeyUse::Keyring,
            KeyOrigin::Env => KeyUse::Environment,
            KeyOrigin::None => KeyUse::None,
        };
        Ok((config, key))
    }

    /// The remembered provider settings (the defaults for what the file lacks).
    pub fn eval_settings(&self) -> Result<ProviderSettings, AppError> {
        let Some(file) = self.config_file(SETTINGS_FILE) else { return Ok(ProviderSettings::default()) };
        let Ok(text) = skillkit::files::read_text(&file, 1 << 20) else { return Ok(ProviderSettings::default()) };
        let mut merged = serde_json::to_value(ProviderSettings::default()).unwrap_or_default();
        if let (Some(m), Ok(serde_json::Value::Object(saved))) = (merged.as_object_mut(), serde_json::from_str(&text)) {
            m.extend(saved);
        }
        Ok(serde_json::from_value(merged).unwrap_or_else(|e| {
            eprintln!("skill-studio: ignoring {}: {e}", file.display());
            ProviderSettings::default()
        }))
    }

    /// Remembers the provider settings (they hold no key).
    pub fn remember_eval_settings(&self, settings: ProviderSettings) -> Result<(), AppError> {
        let Some(file) = self.config_file(SETTINGS_FILE) else { return Ok(()) };
        if let Some(dir) = file.parent() {
            std::fs::create_dir_all(dir).map_err(|e| AppError::io("cannot create", dir, &e))?;
        }
        let text =
            serde_json::to_string_pretty(&settings).map_err(|e| AppError::new(ErrorCode::Internal, e.to_string()))?;
        crate::file_access::write_own(&file, &text)
    }

    fn key_status(&self, api: ModelApi) -> KeyStatus {
        let kind = api;
        let (stored, keyring_error) = match self.host.key(kind) {
            Ok(key) => (key.is_some(), None),
            Err(e) => (false, Some(e.message)),
        };
        let env_set = ApiKey::from_env(kind.key_env()).is_some();
        KeyStatus { api, stored, env: kind.key_env().into(), env_set, keyring_error }
    }

    /// Whether each API has a key stored or in the environment (never the keys).
    pub fn api_keys(&self) -> Result<Vec<KeyStatus>, AppError> {
        Ok([ModelApi::OpenAi, ModelApi::Anthropic].into_iter().map(|a| self.key_status(a)).collect())
    }

    /// Stores the key in the system keyring (surrounding whitespace, such as a pasted newline,
    /// trimmed).
    pub fn set_api_key(&self, args: SetApiKey) -> Result<KeyStatus, AppError> {
        let key = args.key.trim();
        if key.is_empty() {
            return Err(AppError::new(ErrorCode::InvalidSettings, "the key is empty"));
        }
        self.host.set_key(args.api, key)?;
        Ok(self.key_status(args.api))
    }

    /// Removes the stored key (the environment's, if any, is used from then on).
    pub fn forget_api_key(&self, args: ApiArg) -> Result<KeyStatus, AppError> {
        self.host.forget_key(args.api)?;
        Ok(self.key_status(args.api))
    }
}
