//! A model provider's settings, checked in one place: the ranges of runs, concurrency and
//! temperature, the base URL's scheme, and the defaults (3 runs per case and 4 requests at once,
//! the engine's; 120 seconds a request; 8 model rounds a live turn). The app's Evals pane and
//! live sessions, and `skillkit eval` and `skillkit simulate --model`, all pass their settings
//! through [`ProviderSettings::check`] and [`ProviderSettings::config`].

use crate::error::{AppError, ErrorCode};
use serde::{Deserialize, Serialize};
use skillkit::eval::Options;
use skillkit::model::{ApiKey, ProviderConfig};

/// Which API the model is reached through: the engine's kind (`openai`, `anthropic`).
pub use skillkit::model::ProviderKind as ModelApi;

/// Times each case is asked, by default (the engine's).
pub const DEFAULT_RUNS: u32 = 3;
/// Requests in flight at most, by default (the engine's).
pub const DEFAULT_CONCURRENCY: u32 = 4;
/// Seconds one request may take, by default.
pub const DEFAULT_TIMEOUT_SECS: u32 = 120;
/// Model requests one live turn may make at most (the model calls a tool, gets its result,
/// answers again), by default.
pub const DEFAULT_MAX_ROUNDS: usize = 8;

/// Runs per case allowed.
pub const RUNS: std::ops::RangeInclusive<u32> = 1..=100;
/// Requests at once allowed.
pub const CONCURRENCY: std::ops::RangeInclusive<u32> = 1..=32;
/// Temperatures allowed.
pub const TEMPERATURE: std::ops::RangeInclusive<f32> = 0.0..=2.0;

/// How a suite is run, the key aside: remembered in the config folder.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ProviderSettings {
    pub api: ModelApi,
    /// Blank: the provider's own API.
    pub base_url: String,
    pub model: String,
    /// `null`: the provider's default.
    pub temperature: Option<f32>,
    /// Times each case is asked (1 to 100).
    pub runs: u32,
    /// Requests in flight at most (1 to 32).
    pub concurrency: u32,
    /// Seconds one request may take.
    pub timeout_secs: u32,
}

impl Default for ProviderSettings {
    fn default() -> ProviderSettings {
        ProviderSettings {
            api: ModelApi::OpenAi,
            base_url: String::new(),
            model: String::new(),
            temperature: None,
            runs: DEFAULT_RUNS,
            concurrency: DEFAULT_CONCURRENCY,
            timeout_secs: DEFAULT_TIMEOUT_SECS,
        }
    }
}

fn invalid(message: &str) -> AppError {
    AppError::new(ErrorCode::InvalidSettings, message)
}

impl ProviderSettings {
    /// The settings' mistakes, first one first: a model named, runs, concurrency and temperature
    /// in range, a base URL (when given) over HTTP.
    pub fn check(&self) -> Result<(), AppError> {
        if self.model.trim().is_empty() {
            return Err(invalid("name the model (e.g. gpt-4o-mini, claude-sonnet-4-5, llama3.2)"));
        }
        if !RUNS.contains(&self.runs) {
            return Err(invalid("runs per case: 1 to 100"));
        }
        if !CONCURRENCY.contains(&self.concurrency) {
            return Err(invalid("requests at once: 1 to 32"));
        }
        if self.temperature.is_some_and(|t| !TEMPERATURE.contains(&t)) {
            return Err(invalid("temperature: 0 to 2, or blank for the provider's default"));
        }
        if self.base_url().is_some_and(|u| !u.starts_with("http://") && !u.starts_with("https://")) {
            return Err(invalid("the base URL starts with http:// or https://"));
        }
        Ok(())
    }

    /// The base URL, when one is given.
    pub fn base_url(&self) -> Option<&str> {
        Some(self.base_url.trim()).filter(|u| !u.is_empty())
    }

    /// The engine's provider config, with `key` (checked first).
    pub fn config(&self, key: Option<ApiKey>) -> Result<ProviderConfig, AppError> {
        self.check()?;
        let mut config = ProviderConfig::new(self.api, self.model.trim());
        config.base_url = self.base_url().map(str::to_string);
        config.temperature = self.temperature;
        config.timeout = std::time::Duration::from_secs(u64::from(self.timeout_secs.max(1)));
        config.api_key = key;
        Ok(config)
    }

    /// The engine's run options.
    pub fn options(&self) -> Options {
        Options { runs: self.runs, concurrency: self.concurrency as usize }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_defaults_are_the_engines_and_each_range_is_checked() {
        let engine = Options::default();
        assert_eq!((DEFAULT_RUNS, DEFAULT_CONCURRENCY as usize), (engine.runs, engine.concurrency));
        let good = ProviderSettings { model: "m".into(), ..ProviderSettings::default() };
        assert!(good.check().is_ok());
        let bad = |s: ProviderSettings| s.check().unwrap_err();
        assert_eq!(bad(ProviderSettings { runs: 0, ..good.clone() }).message, "runs per case: 1 to 100");
        assert_eq!(bad(ProviderSettings { runs: 101, ..good.clone() }).code, ErrorCode::InvalidSettings);
        assert_eq!(bad(ProviderSettings { concurrency: 33, ..good.clone() }).message, "requests at once: 1 to 32");
        assert_eq!(bad(ProviderSettings { temperature: Some(2.5), ..good.clone() }).code, ErrorCode::InvalidSettings);
        let file = bad(ProviderSettings { base_url: "file:///etc".into(), ..good.clone() });
        assert_eq!(file.message, "the base URL starts with http:// or https://");
        assert!(ProviderSettings { base_url: " http://localhost:11434/v1 ".into(), ..good.clone() }.check().is_ok());
        let config = ProviderSettings { base_url: " https://x/v1 ".into(), timeout_secs: 0, ..good }.config(None);
        let config = config.unwrap();
        assert_eq!((config.base_url.as_deref(), config.timeout.as_secs()), (Some("https://x/v1"), 1));
    }
}
