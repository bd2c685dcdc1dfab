//! The HTTP transport: one blocking client per provider, the key in its header, the per-request
//! timeout, and the retries. It moves bytes only: encoding and decoding are the wire format's.

use std::io;
use std::time::{Duration, SystemTime};

use ureq::tls::{RootCerts, TlsConfig, TlsProvider};

use super::api::ProviderKind;
use super::error::{quote, scrub_body, ProviderError};
use super::retry::{retry_after, retryable, RetryPolicy, RETRY_AFTER_MAX};
use super::wire_format::{WireFormat, WireReply, WireRequest};
use super::{anthropic, ApiKey, Cancel, Provider, ProviderConfig};

/// The largest reply body read from the network, in bytes (16 MiB); a larger one is refused
/// ([`ProviderError::TooLarge`]) once that much has come, without reading the rest.
///
/// A chat reply is a few kilobytes; the longest a model writes (about 128,000 output tokens, some
/// 500 KB of text) stays under 4 MB even with every character JSON-escaped. The bound keeps what
/// one reply can cost (its body, its parsed JSON, its decoded calls, the session's copies of
/// them) to some hundreds of megabytes at worst.
pub const MAX_REPLY_BYTES: u64 = 16 * 1024 * 1024;

/// The provider `config` describes, over HTTP(S). A request sends the [`super::ChatRequest`]'s own model,
/// temperature and token limit: build requests with [`ProviderConfig::request`] to use the
/// config's.
pub fn provider(config: &ProviderConfig) -> Box<dyn Provider> {
    Box::new(HttpProvider::new(config))
}

/// A provider reached over HTTP(S): what [`provider`] returns.
pub struct HttpProvider {
    wire: WireFormat,
    base_url: String,
    key: Option<ApiKey>,
    timeout: Duration,
    retry: RetryPolicy,
    agent: ureq::Agent,
}

/// What one attempt came to.
enum Attempt {
    /// A reply, of any status.
    Reply { status: u16, body: String, retry_after: Option<Duration> },
    /// The connection dropped mid-exchange (reset, aborted, closed early): worth a retry.
    Dropped(String),
}

impl HttpProvider {
    /// A provider for `config` (no connection is made until the first request).
    pub fn new(config: &ProviderConfig) -> HttpProvider {
        let kind = config.kind;
        let wire = match kind {
            ProviderKind::OpenAi => WireFormat::OpenAi(config.openai),
            ProviderKind::Anthropic => WireFormat::Anthropic,
        };
        let base = config.base_url.as_deref().unwrap_or(kind.default_base_url());
        let tls = TlsConfig::builder().provider(TlsProvider::Rustls).root_certs(RootCerts::WebPki).build();
        let agent = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .timeout_global(Some(config.timeout))
            .max_redirects(0)
            .tls_config(tls)
            .user_agent(concat!("skillkit/", env!("CARGO_PKG_VERSION")))
            .build()
            .new_agent();
        HttpProvider {
            wire,
            base_url: base.trim_end_matches('/').to_string(),
            key: config.api_key.clone(),
            timeout: config.timeout,
            retry: RetryPolicy { max_retries: config.max_retries, base: config.retry_base },
            agent,
        }
    }

    /// One HTTP exchange.
    fn attempt(&self, request: &WireRequest) -> Result<Attempt, ProviderError> {
        let url = format!("{}{}", self.base_url, request.path);
        let mut builder = self.agent.post(&url).header("content-type", "application/json");
        match (self.wire.kind(), &self.key) {
            (ProviderKind::OpenAi, Some(key)) => {
                builder = builder.header("authorization", format!("Bearer {}", key.expose()));
            }
            (ProviderKind::Anthropic, key) => {
                builder = builder.header("anthropic-version", anthropic::VERSION);
                if let Some(key) = key {
                    builder = builder.header("x-api-key", key.expose());
                }
            }
            (ProviderKind::OpenAi, None) => {}
        }
        let response = match builder.send(request.body.as_slice()) {
            Ok(response) => response,
            Err(e) => return self.failure(e),
        };
        let status = response.status().as_u16();
        let wait = response
            .headers()
            .get("retry-after")
            .and_then(|v| v.to_str().ok())
            .and_then(|v| retry_after(v, SystemTime::now()));
        let mut body = response.into_body();
        match body.with_config().limit(MAX_REPLY_BYTES).read_to_vec() {
            Ok(bytes) => match String::from_utf8(bytes) {
                Ok(body) => Ok(Attempt::Reply { status, body, retry_after: wait }),
                Err(e) => {
                    let start = String::from_utf8_lossy(e.as_bytes());
                    Err(ProviderError::Malformed(format!("the body is not UTF-8 text ({status}): {}", quote(&start))))
                }
            },
            Err(ureq::Error::BodyExceedsLimit(n)) => {
                Err(ProviderError::TooLarge(format!("its body is larger than {n} bytes (16 MiB), the most read")))
            }
            Err(e) => self.failure(e),
        }
    }

    /// The error (or the retryable drop) a failed exchange means.
    fn failure(&self, error: ureq::Error) -> Result<Attempt, ProviderError> {
        let host = host_of(&self.base_url);
        let cannot_reach = |message: String| Err(ProviderError::Unreachable { host: host.clone(), message });
        match error {
            ureq::Error::Timeout(_) => Err(ProviderError::Timeout { after: self.timeout }),
            ureq::Error::HostNotFound => cannot_reach("no such host (DNS lookup failed)".into()),
            ureq::Error::ConnectionFailed => cannot_reach("the connection failed".into()),
            ureq::Error::BadUri(uri) => cannot_reach(format!("not a valid URL: {}", quote(&uri))),
            ureq::Error::Io(e) => match e.kind() {
                io::ErrorKind::ConnectionRefused => cannot_reach("connection refused".into()),
                io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => {
                    Err(ProviderError::Timeout { after: self.timeout })
                }
                io::ErrorKind::ConnectionReset
                | io::ErrorKind::ConnectionAborted
                | io::ErrorKind::BrokenPipe
                | io::ErrorKind::UnexpectedEof => Ok(Attempt::Dropped(e.to_string())),
                _ => cannot_reach(e.to_string()),
            },
            ureq::Error::Protocol(e) => Err(ProviderError::Malformed(format!("not an HTTP reply: {e}"))),
            other => cannot_reach(other.to_string()),
        }
    }
}

impl Provider for HttpProvider {
    fn wire(&self) -> WireFormat {
        self.wire
    }

    fn exchange(&self, request: &WireRequest, cancel: &Cancel) -> Result<WireReply, ProviderError> {
        let secret = self.key.as_ref().map_or("", ApiKey::expose);
        let mut retries = 0;
        loop {
            if cancel.is_cancelled() {
                return Err(ProviderError::Cancelled);
            }
            let attempt = self.attempt(request).map_err(|e| e.redact(secret))?;
            let wait = match attempt {
                Attempt::Reply { status, body, retry_after } => {
                    let wait = retry_after.unwrap_or_else(|| self.retry.backoff(retries));
                    if !retryable(status) || retries >= self.retry.max_retries || wait > RETRY_AFTER_MAX {
                        return Ok(WireReply { status, body: scrub_body(body, secret), retries });
                    }
                    wait
                }
                Attempt::Dropped(message) if retries >= self.retry.max_retries => {
                    let message = format!("the connection dropped {} times: {message}", retries + 1);
                    return Err(ProviderError::Unreachable { host: host_of(&self.base_url), message }.redact(secret));
                }
                Attempt::Dropped(_) => self.retry.backoff(retries),
            };
            if !cancel.sleep(wait) {
                return Err(ProviderError::Cancelled);
            }
            retries += 1;
        }
    }

    fn describe(&self) -> String {
        format!("{} at {}", self.wire.kind(), self.base_url)
    }
}

/// The `host[:port]` of a URL, without scheme, credentials or path.
pub(crate) fn host_of(url: &str) -> String {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    let authority = rest.split(['/', '?', '#']).next().unwrap_or(rest);
    authority.rsplit_once('@').map_or(authority, |(_, host)| host).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn host_of_drops_scheme_credentials_and_path() {
        assert_eq!(host_of("http://127.0.0.1:4000/v1"), "127.0.0.1:4000");
        assert_eq!(host_of("https://user:pw@api.example.com/v1?x"), "api.example.com");
        assert_eq!(host_of("localhost:11434"), "localhost:11434");
    }
}
