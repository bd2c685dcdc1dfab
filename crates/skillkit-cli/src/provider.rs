//! The model provider options `eval` and `simulate` share, and the provider they build: the
//! key from the environment only (never from an argument, so it stays out of shell histories and
//! process lists), recording or replaying when asked.

use clap::builder::TypedValueParser as _;
use clap::Args;
use skillkit::model::{Provider, ProviderConfig, ProviderKind};
use skillkit_api::settings::{ProviderSettings, DEFAULT_CONCURRENCY, DEFAULT_RUNS, DEFAULT_TIMEOUT_SECS};
use skillkit_api::{AppError, ErrorCode};
use std::path::PathBuf;

/// `--provider`: the engine's kinds by their names. `openai` is OpenAI's Chat Completions API
/// (also spoken by Ollama, vLLM, llama.cpp, LM Studio, OpenRouter, …), `anthropic` Anthropic's
/// Messages API.
fn provider_kind() -> impl clap::builder::TypedValueParser<Value = ProviderKind> {
    clap::builder::PossibleValuesParser::new(["openai", "anthropic"])
        .map(|name| ProviderKind::from_name(&name).unwrap_or_default())
}

#[derive(Args, Debug, Default)]
pub struct ProviderArgs {
    /// openai (Chat Completions: OpenAI, Ollama, vLLM, llama.cpp, LM Studio, OpenRouter, …) or
    /// anthropic (Messages).
    #[arg(long, value_parser = provider_kind())]
    pub provider: Option<ProviderKind>,
    /// The API's base URL (default: the provider's own, e.g. https://api.openai.com/v1).
    #[arg(long)]
    pub base_url: Option<String>,
    /// The model, as the provider names it.
    #[arg(long)]
    pub model: Option<String>,
    /// The environment variable holding the API key (default: OPENAI_API_KEY or ANTHROPIC_API_KEY).
    #[arg(long)]
    pub api_key_env: Option<String>,
    /// Seconds one request may take.
    #[arg(long, default_value_t = DEFAULT_TIMEOUT_SECS)]
    pub timeout: u32,
    #[arg(long)]
    pub temperature: Option<f32>,
    #[arg(long, default_value_t = 1024)]
    pub max_tokens: u32,
    /// Store every request and reply in DIR, keyed by a hash of the request.
    #[arg(long, value_name = "DIR", conflicts_with = "replay")]
    pub record: Option<PathBuf>,
    /// Answer from the replies stored in DIR (no network; a request not stored is an error).
    #[arg(long, value_name = "DIR")]
    pub replay: Option<PathBuf>,
}

impl ProviderArgs {
    /// Whether a model was asked for at all.
    pub fn given(&self) -> bool {
        self.provider.is_some() || self.model.is_some()
    }

    /// The settings as the app's Evals pane gives them, checked by the same function
    /// ([`ProviderSettings::check`]): `runs` and `concurrency` are `eval`'s.
    pub fn settings(&self, runs: u32, concurrency: u32) -> ProviderSettings {
        ProviderSettings {
            api: self.provider.unwrap_or_default(),
            base_url: self.base_url.clone().unwrap_or_default(),
            model: self.model.clone().unwrap_or_default(),
            temperature: self.temperature,
            runs,
            concurrency,
            timeout_secs: self.timeout,
        }
    }

    /// The config and the provider (recording or replaying as asked), or why not.
    pub fn build(&self) -> Result<(ProviderConfig, Box<dyn Provider>), AppError> {
        let (Some(kind), Some(_)) = (self.provider, &self.model) else {
            return Err(AppError::new(
                ErrorCode::InvalidSettings,
                "a model needs --provider openai|anthropic and --model NAME",
            ));
        };
        let mut config = self.settings(DEFAULT_RUNS, DEFAULT_CONCURRENCY).config(None)?;
        config.max_tokens = self.max_tokens;
        let key_env = self.api_key_env.clone().unwrap_or_else(|| kind.key_env().to_string());
        let shown_env = crate::render::one_line(&key_env);
        config.api_key = match skillkit::model::choose_key(None, &key_env, config.base_url.as_deref()) {
            Ok((key, _)) => key,
            // Replies replayed from disk need no key.
            Err(_) if self.replay.is_some() => None,
            Err(_) => {
                return Err(AppError::new(
                    ErrorCode::NoKey,
                    format!(
                        "no API key: set {shown_env} (or name another variable with --api-key-env); a local server needs --base-url"
                    ),
                ))
            }
        };
        let provider: Box<dyn Provider> = match (&self.record, &self.replay) {
            (_, Some(dir)) => Box::new(skillkit::model::Replay::new(dir, kind)),
            (Some(dir), None) => Box::new(skillkit::model::Recording::new(dir, skillkit::model::provider(&config))),
            (None, None) => skillkit::model::provider(&config),
        };
        Ok((config, provider))
    }
}
