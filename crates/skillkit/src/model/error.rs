//! What can go wrong talking to a provider: one variant per thing a user would do differently,
//! each printed as one clear line. No variant ever holds the API key (see [`super::ApiKey`]).

use std::fmt;
use std::time::Duration;

/// The most bytes of a provider's message or body quoted in an error.
pub(crate) const QUOTE_MAX: usize = 200;

/// A failed [`super::Provider::complete`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProviderError {
    /// 401 or 403: the provider refused the key (or there was none).
    Auth {
        /// The HTTP status.
        status: u16,
        /// The provider's own message.
        message: String,
        /// The environment variable the key is usually read from (`OPENAI_API_KEY`, …).
        key_env: String,
    },
    /// 404, or an error body saying the model does not exist.
    UnknownModel {
        /// The model asked for.
        model: String,
        /// The provider's own message.
        message: String,
    },
    /// The connection could not be made: refused, no such host, TLS failure.
    Unreachable {
        /// The host (and port) that was tried.
        host: String,
        /// What went wrong.
        message: String,
    },
    /// No complete reply within the request timeout.
    Timeout {
        /// The timeout that ran out.
        after: Duration,
    },
    /// Still 429 after every retry.
    RateLimited {
        /// How many retries were made.
        retries: u32,
        /// The provider's own message.
        message: String,
    },
    /// A 5xx (after every retry), or another status the provider should not send.
    Server {
        /// The HTTP status.
        status: u16,
        /// The provider's own message, or the start of the body.
        message: String,
    },
    /// A 4xx other than 401/403/404/429: the provider refused the request itself (a bad schema,
    /// a context too long, …). Never retried.
    Rejected {
        /// The HTTP status.
        status: u16,
        /// The provider's own message.
        message: String,
    },
    /// A reply that could not be read: not JSON, or a field missing. Says what, quoting at most
    /// about 200 bytes of the body.
    Malformed(String),
    /// A reply larger than a client reads: a body over [`super::MAX_REPLY_BYTES`], or more tool
    /// calls than [`super::types::MAX_TOOL_CALLS`]. Says which, and the limit.
    TooLarge(String),
    /// Replay mode found no recorded reply, or could not read the record store.
    Replay(String),
    /// The caller cancelled (see [`super::Cancel`]).
    Cancelled,
}

impl fmt::Display for ProviderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ProviderError::Auth { status, message, key_env } => {
                write!(f, "the provider refused the API key ({status}: {message}); set {key_env} or --api-key-env")
            }
            ProviderError::UnknownModel { model, message } => {
                write!(f, "the provider does not know the model `{model}` ({message})")
            }
            ProviderError::Unreachable { host, message } => write!(f, "cannot reach {host}: {message}"),
            ProviderError::Timeout { after } => {
                write!(f, "no reply within the request timeout of {}", seconds(*after))
            }
            ProviderError::RateLimited { retries, message } => {
                write!(f, "rate limited by the provider (429) after {retries} retries: {message}")
            }
            ProviderError::Server { status, message } => write!(f, "the provider failed ({status}): {message}"),
            ProviderError::Rejected { status, message } => {
                write!(f, "the provider rejected the request ({status}): {message}")
            }
            ProviderError::Malformed(what) => write!(f, "malformed reply from the provider: {what}"),
            ProviderError::TooLarge(what) => write!(f, "the provider's reply is too large: {what}"),
            ProviderError::Replay(what) => f.write_str(what),
            ProviderError::Cancelled => f.write_str("cancelled"),
        }
    }
}

impl std::error::Error for ProviderError {}

impl ProviderError {
    /// Fills in what the wire decoder cannot know: the model asked for and the retries made.
    pub(crate) fn in_context(self, model: &str, retries: u32) -> ProviderError {
        match self {
            ProviderError::UnknownModel { message, .. } => {
                ProviderError::UnknownModel { model: model.to_string(), message }
            }
            ProviderError::RateLimited { message, .. } => ProviderError::RateLimited { retries, message },
            other => other,
        }
    }

    /// Replaces every occurrence of `secret` in the error's text by `***`.
    pub(crate) fn redact(self, secret: &str) -> ProviderError {
        let r = |s: String| redact(s, secret);
        match self {
            ProviderError::Auth { status, message, key_env } => {
                ProviderError::Auth { status, message: r(message), key_env }
            }
            ProviderError::UnknownModel { model, message } => {
                ProviderError::UnknownModel { model: r(model), message: r(message) }
            }
            ProviderError::Unreachable { host, message } => {
                ProviderError::Unreachable { host: r(host), message: r(message) }
            }
            ProviderError::RateLimited { retries, message } => {
                ProviderError::RateLimited { retries, message: r(message) }
            }
            ProviderError::Server { status, message } => ProviderError::Server { status, message: r(message) },
            ProviderError::Rejected { status, message } => ProviderError::Rejected { status, message: r(message) },
            ProviderError::Malformed(what) => ProviderError::Malformed(r(what)),
            ProviderError::TooLarge(what) => ProviderError::TooLarge(r(what)),
            ProviderError::Replay(what) => ProviderError::Replay(r(what)),
            other @ (ProviderError::Timeout { .. } | ProviderError::Cancelled) => other,
        }
    }
}

/// `text` with every occurrence of `secret` replaced by `***` (an empty secret changes nothing).
pub(crate) fn redact(text: String, secret: &str) -> String {
    if secret.is_empty() || !text.contains(secret) {
        text
    } else {
        text.replace(secret, "***")
    }
}

/// `text` on one line (runs of whitespace as one space), cut to at most [`QUOTE_MAX`] bytes at a
/// character boundary, with `…` when cut.
pub(crate) fn quote(text: &str) -> String {
    let line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    if line.len() <= QUOTE_MAX {
        return line;
    }
    let mut end = QUOTE_MAX;
    while !line.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &line[..end])
}

/// A duration as seconds, `2 s` or `0.25 s`.
fn seconds(d: Duration) -> String {
    if d.subsec_millis() == 0 {
        format!("{} s", d.as_secs())
    } else {
        format!("{} s", d.as_secs_f64())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quote_is_one_line_and_short() {
        assert_eq!(quote("a\n  b\tc"), "a b c");
        let long = "é".repeat(300);
        let q = quote(&long);
        assert!(q.len() <= QUOTE_MAX + "…".len(), "{}", q.len());
        assert!(q.ends_with('…'));
    }

    #[test]
    fn messages_are_one_line() {
        let errors = [
            ProviderError::Auth { status: 401, message: "bad key".into(), key_env: "OPENAI_API_KEY".into() },
            ProviderError::UnknownModel { model: "gpt-9".into(), message: "404: no such model".into() },
            ProviderError::Timeout { after: Duration::from_millis(1500) },
            ProviderError::Cancelled,
        ];
        for e in errors {
            assert!(!e.to_string().contains('\n'), "{e}");
        }
        assert_eq!(
            ProviderError::Timeout { after: Duration::from_secs(2) }.to_string(),
            "no reply within the request timeout of 2 s"
        );
    }

    #[test]
    fn redact_hides_the_secret_everywhere() {
        let e = ProviderError::Auth { status: 401, message: "key sk-SECRET is wrong".into(), key_env: "K".into() };
        assert_eq!(
            e.redact("sk-SECRET").to_string(),
            "the provider refused the API key (401: key *** is wrong); set K or --api-key-env"
        );
    }
}
