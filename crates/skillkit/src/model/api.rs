//! The two APIs a provider speaks ([`ProviderKind`], with [`OpenAiOptions`] for the servers
//! compatible with OpenAI's), and what their wire formats (`openai.rs`, `anthropic.rs`) share:
//! the error a reply's status means, its body read as JSON, token counts, the bound on tool calls.

use std::fmt;

use serde_json::Value;

use super::error::{quote, ProviderError};

/// Which API a provider speaks (`openai`, `anthropic` in JSON, as [`ProviderKind::name`] prints it).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS), ts(rename = "ModelApi"))]
#[serde(rename_all = "lowercase")]
pub enum ProviderKind {
    /// OpenAI's Chat Completions, and the servers compatible with it (Ollama, vLLM, LiteLLM, …).
    #[default]
    OpenAi,
    /// Anthropic's Messages API.
    Anthropic,
}

impl ProviderKind {
    /// The short name used in messages, record files and the CLI: `openai`, `anthropic`.
    pub fn name(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "openai",
            ProviderKind::Anthropic => "anthropic",
        }
    }

    /// The kind named `name` (as [`ProviderKind::name`] prints it).
    pub fn from_name(name: &str) -> Option<ProviderKind> {
        match name {
            "openai" => Some(ProviderKind::OpenAi),
            "anthropic" => Some(ProviderKind::Anthropic),
            _ => None,
        }
    }

    /// The provider's own base URL, used when the config names none.
    pub fn default_base_url(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "https://api.openai.com/v1",
            ProviderKind::Anthropic => "https://api.anthropic.com/v1",
        }
    }

    /// The environment variable the provider's key is conventionally read from.
    pub fn key_env(self) -> &'static str {
        match self {
            ProviderKind::OpenAi => "OPENAI_API_KEY",
            ProviderKind::Anthropic => "ANTHROPIC_API_KEY",
        }
    }
}

impl fmt::Display for ProviderKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Switches for OpenAI-compatible servers that differ from OpenAI itself.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct OpenAiOptions {
    /// Send [`super::Role::Developer`] messages with role `system`, for servers that reject the
    /// `developer` role.
    pub developer_as_system: bool,
    /// Send the token limit as `max_completion_tokens` (OpenAI's reasoning models want it)
    /// instead of `max_tokens`.
    pub max_completion_tokens: bool,
}

/// A provider's error body, read by the wire format: its message and its code or type.
pub(crate) struct ErrorBody {
    pub message: String,
    pub code: Option<String>,
}

/// The error a non-2xx reply means, given the provider's error body when it could be read.
pub(crate) fn status_error(kind: ProviderKind, status: u16, body: &str, error: Option<ErrorBody>) -> ProviderError {
    let readable = error.is_some();
    let (message, code) = match error {
        Some(e) => (quote(&e.message), e.code),
        None if body.trim().is_empty() => ("(empty body)".to_string(), None),
        None => (quote(body), None),
    };
    match status {
        401 | 403 => ProviderError::Auth { status, message, key_env: kind.key_env().to_string() },
        404 if readable => {
            ProviderError::UnknownModel { model: String::new(), message: format!("{status}: {message}") }
        }
        404 => ProviderError::Rejected { status, message: format!("not found, is the base URL right? ({message})") },
        429 => ProviderError::RateLimited { retries: 0, message },
        300..=399 => {
            ProviderError::Rejected { status, message: format!("redirected, is the base URL right? ({message})") }
        }
        400..=499 if says_unknown_model(&message, code.as_deref()) => {
            ProviderError::UnknownModel { model: String::new(), message: format!("{status}: {message}") }
        }
        400..=499 => ProviderError::Rejected { status, message },
        _ => ProviderError::Server { status, message },
    }
}

/// Whether an error message or code says the model does not exist (the wording of OpenAI,
/// Anthropic, Ollama, vLLM and LiteLLM).
fn says_unknown_model(message: &str, code: Option<&str>) -> bool {
    if matches!(code, Some("model_not_found")) {
        return true;
    }
    let m = message.to_lowercase();
    m.contains("model")
        && ["not found", "does not exist", "unknown model", "invalid model", "no such model", "not_found"]
            .iter()
            .any(|s| m.contains(s))
}

/// A reply's `count` tool calls refused when they are more than [`super::types::MAX_TOOL_CALLS`].
pub(crate) fn check_tool_calls(count: usize) -> Result<(), ProviderError> {
    let max = super::types::MAX_TOOL_CALLS;
    if count > max {
        return Err(ProviderError::TooLarge(format!("{count} tool calls in one reply, more than the {max} handled")));
    }
    Ok(())
}

/// The body parsed as JSON, or a Malformed error quoting its start.
pub(crate) fn parse_json(body: &str) -> Result<Value, ProviderError> {
    serde_json::from_str(body).map_err(|e| {
        let body = if body.trim().is_empty() { "(empty body)".to_string() } else { quote(body) };
        ProviderError::Malformed(format!("the body is not JSON ({e}): {body}"))
    })
}

/// A JSON number for `t`, written as the shortest decimal that reads back as the same `f32`
/// (`0.2`, not `0.20000000298023224`).
pub(crate) fn temperature(t: f32) -> Value {
    let shortest: f64 = t.to_string().parse().unwrap_or(f64::from(t));
    serde_json::Number::from_f64(shortest).map_or(Value::Null, Value::Number)
}

/// A token count at `value[field]`: 0 when absent (some compatible servers send no usage).
pub(crate) fn count(value: &Value, field: &str) -> u64 {
    value.get(field).and_then(Value::as_u64).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temperature_is_the_short_decimal() {
        assert_eq!(serde_json::to_string(&temperature(0.2)).ok().as_deref(), Some("0.2"));
        assert_eq!(serde_json::to_string(&temperature(1.0)).ok().as_deref(), Some("1.0"));
    }

    #[test]
    fn statuses_map_to_errors() {
        let e = |status, msg: &str| {
            status_error(ProviderKind::OpenAi, status, "", Some(ErrorBody { message: msg.into(), code: None }))
        };
        assert!(matches!(e(401, "bad"), ProviderError::Auth { status: 401, .. }));
        assert!(matches!(e(403, "bad"), ProviderError::Auth { status: 403, .. }));
        assert!(matches!(e(404, "gone"), ProviderError::UnknownModel { .. }));
        assert!(matches!(e(400, "The model `x` does not exist"), ProviderError::UnknownModel { .. }));
        assert!(matches!(e(400, "bad schema"), ProviderError::Rejected { status: 400, .. }));
        assert!(matches!(e(429, "slow down"), ProviderError::RateLimited { .. }));
        assert!(matches!(e(503, "down"), ProviderError::Server { status: 503, .. }));
        let html = status_error(ProviderKind::OpenAi, 404, "<html>Not Found</html>", None);
        assert!(matches!(html, ProviderError::Rejected { status: 404, .. }), "{html:?}");
        assert!(html.to_string().contains("base URL"));
        let moved = status_error(ProviderKind::OpenAi, 301, "", None);
        assert!(matches!(&moved, ProviderError::Rejected { status: 301, message } if message.contains("base URL")));
    }

    #[test]
    fn auth_names_the_key_variable() {
        let e = status_error(ProviderKind::Anthropic, 401, "", None);
        assert_eq!(
            e.to_string(),
            "the provider refused the API key (401: (empty body)); set ANTHROPIC_API_KEY or --api-key-env"
        );
    }
}
