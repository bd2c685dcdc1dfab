//! What a provider is built from: which API, where, which model, how patient.

use std::time::Duration;

use super::api::{OpenAiOptions, ProviderKind};
use super::{ApiKey, ChatRequest, Message, Tool};

/// Everything needed to reach a model.
#[derive(Clone, Debug)]
pub struct ProviderConfig {
    /// Which API the provider speaks.
    pub kind: ProviderKind,
    /// The base URL (`http://127.0.0.1:11434/v1`); `None` for the provider's own
    /// ([`ProviderKind::default_base_url`]).
    pub base_url: Option<String>,
    /// The model, as the provider names it.
    pub model: String,
    /// The sampling temperature; `None` leaves the provider's default.
    pub temperature: Option<f32>,
    /// The most tokens a reply may have.
    pub max_tokens: u32,
    /// The most time one attempt may take, connection to last byte of the reply.
    pub timeout: Duration,
    /// The key; `None` sends no key (local servers such as Ollama need none).
    pub api_key: Option<ApiKey>,
    /// Retries after a 429, a 5xx or a dropped connection.
    pub max_retries: u32,
    /// The first backoff between retries when the reply has no `Retry-After` (doubling each time,
    /// capped at 30 s).
    pub retry_base: Duration,
    /// Switches for OpenAI-compatible servers (ignored by the Anthropic format).
    pub openai: OpenAiOptions,
}

impl ProviderConfig {
    /// A config with the defaults: the provider's own base URL, no key, no temperature, 1024
    /// tokens, a 120 s timeout, 4 retries from a 1 s backoff.
    pub fn new(kind: ProviderKind, model: impl Into<String>) -> ProviderConfig {
        ProviderConfig {
            kind,
            base_url: None,
            model: model.into(),
            temperature: None,
            max_tokens: 1024,
            timeout: Duration::from_secs(120),
            api_key: None,
            max_retries: 4,
            retry_base: Duration::from_secs(1),
            openai: OpenAiOptions::default(),
        }
    }

    /// A request to this config's model with its temperature and token limit.
    pub fn request(&self, system: Option<String>, messages: Vec<Message>, tools: Vec<Tool>) -> ChatRequest {
        ChatRequest {
            model: self.model.clone(),
            system,
            messages,
            tools,
            temperature: self.temperature,
            max_tokens: self.max_tokens,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::http::provider;

    #[test]
    fn describe_names_kind_and_base() {
        let mut config = ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o");
        assert_eq!(provider(&config).describe(), "openai at https://api.openai.com/v1");
        config.kind = ProviderKind::Anthropic;
        config.base_url = Some("http://127.0.0.1:4000/v1/".into());
        assert_eq!(provider(&config).describe(), "anthropic at http://127.0.0.1:4000/v1");
    }

    #[test]
    fn the_config_debug_hides_the_key() {
        let mut config = ProviderConfig::new(ProviderKind::OpenAi, "gpt-4o");
        config.api_key = Some(ApiKey::new("sk-do-not-print"));
        let printed = format!("{config:?}");
        assert!(!printed.contains("sk-do-not-print") && printed.contains("ApiKey(***)"), "{printed}");
    }

    #[test]
    fn request_takes_the_config_settings() {
        let mut config = ProviderConfig::new(ProviderKind::Anthropic, "claude-x");
        config.temperature = Some(0.0);
        let req = config.request(None, vec![Message::user("hi")], Vec::new());
        assert_eq!((req.model.as_str(), req.temperature, req.max_tokens), ("claude-x", Some(0.0), 1024));
    }
}
