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

/// `text` with every occurrence of `secret` replaced by `***` (an empty secret changes nothing):
/// written as it is, or with any of its characters escaped as a provider echoing the key in a
/// URL or a JSON string may write them: percent-encoded (`%2D`, `%2d`), JSON escapes (`\u002d`,
/// `\u002D`, `\/`, `\\`, `\"`, `\n`, …), in any mixture.
pub(crate) fn redact(text: String, secret: &str) -> String {
    redacted(&text, secret).unwrap_or(text)
}

/// [`redact`]'s text, when it differs.
fn redacted(text: &str, secret: &str) -> Option<String> {
    if secret.is_empty() {
        return None;
    }
    let secret: Vec<char> = secret.chars().collect();
    let bytes = text.as_bytes();
    let mut out: Option<String> = None;
    // A match starts at a character boundary (a percent or an escape is ASCII): `copied` and
    // `i` only ever stop at the start of a character or at a match's end.
    let (mut copied, mut i) = (0, 0);
    while i < bytes.len() {
        match encoded_at(bytes, i, &secret) {
            Some(end) => {
                let out = out.get_or_insert_with(|| String::with_capacity(text.len()));
                out.push_str(&text[copied..i]);
                out.push_str("***");
                (copied, i) = (end, end);
            }
            None => i += 1,
        }
    }
    let mut out = out?;
    out.push_str(&text[copied..]);
    Some(out)
}

/// A reply body with `secret` scrubbed out. A JSON body is decoded first: every string value and
/// object key is scrubbed in its decoded form (as [`redact`] does, which also catches the key
/// percent-encoded in a URL, or escaped again in JSON held in a string, such as a tool call's
/// `arguments`), and the body written again when something was scrubbed (an untouched body
/// stays byte for byte). Any other body is scrubbed as text.
pub(crate) fn scrub_body(body: String, secret: &str) -> String {
    if secret.is_empty() {
        return body;
    }
    match serde_json::from_str::<serde_json::Value>(&body) {
        Ok(mut value) => match scrub_json(&mut value, secret) {
            true => value.to_string(),
            false => body,
        },
        Err(_) => redact(body, secret),
    }
}

/// Scrubs every string and object key of `value`; whether any changed.
fn scrub_json(value: &mut serde_json::Value, secret: &str) -> bool {
    use serde_json::Value;
    match value {
        Value::String(s) => match redacted(s, secret) {
            Some(scrubbed) => {
                *s = scrubbed;
                true
            }
            None => false,
        },
        Value::Array(items) => items.iter_mut().fold(false, |changed, v| scrub_json(v, secret) | changed),
        Value::Object(map) => {
            let mut changed = false;
            for (key, mut v) in std::mem::take(map) {
                changed |= scrub_json(&mut v, secret);
                match redacted(&key, secret) {
                    Some(scrubbed) => {
                        changed = true;
                        map.insert(scrubbed, v);
                    }
                    None => {
                        map.insert(key, v);
                    }
                }
            }
            changed
        }
        _ => false,
    }
}

/// Where an occurrence of `secret` (its characters) that starts at byte `i` of `text` ends, each
/// character written as it is, percent-encoded byte by byte, or as a JSON escape.
fn encoded_at(text: &[u8], i: usize, secret: &[char]) -> Option<usize> {
    let mut j = i;
    for &c in secret {
        j = char_at(text, j, c)?;
    }
    Some(j)
}

/// Where character `c` written at byte `j` of `text` ends, if it is written there in one of the
/// forms [`redact`] knows.
fn char_at(text: &[u8], j: usize, c: char) -> Option<usize> {
    let mut utf8 = [0u8; 4];
    let utf8 = c.encode_utf8(&mut utf8).as_bytes();
    // As it is, or each byte percent-encoded (or not).
    let mut k = j;
    let mut plain = true;
    for &b in utf8 {
        if text.get(k) == Some(&b) {
            k += 1;
        } else if text.get(k) == Some(&b'%') && hex(text.get(k + 1..k + 3)?) == Some(u32::from(b)) {
            k += 3;
        } else {
            plain = false;
            break;
        }
    }
    if plain {
        return Some(k);
    }
    // A JSON escape.
    if text.get(j) != Some(&b'\\') {
        return None;
    }
    let short = match c {
        '"' => Some(b'"'),
        '\\' => Some(b'\\'),
        '/' => Some(b'/'),
        '\u{8}' => Some(b'b'),
        '\u{c}' => Some(b'f'),
        '\n' => Some(b'n'),
        '\r' => Some(b'r'),
        '\t' => Some(b't'),
        _ => None,
    };
    if short.is_some() && text.get(j + 1).copied() == short {
        return Some(j + 2);
    }
    let mut units = [0u16; 2];
    let mut k = j;
    for &unit in c.encode_utf16(&mut units).iter() {
        if text.get(k..k + 2) != Some(b"\\u".as_slice()) || hex(text.get(k + 2..k + 6)?) != Some(u32::from(unit)) {
            return None;
        }
        k += 6;
    }
    Some(k)
}

/// The value of hexadecimal digits (either case).
fn hex(digits: &[u8]) -> Option<u32> {
    digits.iter().try_fold(0u32, |n, &d| Some(n * 16 + char::from(d).to_digit(16)?))
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
    fn redact_finds_the_secret_percent_encoded_and_json_escaped() {
        let key = "sk-a/b_c";
        let forms = [
            "sk-a/b_c",
            "sk%2Da%2Fb%5Fc",
            "sk-a%2fb_c",
            "%73%6B%2D%61%2F%62%5F%63",
            "sk\\u002da\\/b_c",
            "sk\\u002Da\\u002fb\\u005fc",
            "\\u0073k-a/b_c",
            "sk%2Da\\/b_c",
        ];
        for form in forms {
            assert_eq!(redact(format!("x {form} y {form}"), key), "x *** y ***", "{form}");
        }
        assert_eq!(redact("sk-a/b_".into(), key), "sk-a/b_", "a prefix is not the key");
        assert_eq!(redact("key: sk-a%2".into(), key), "key: sk-a%2");
        assert_eq!(redact("naïve ñ".into(), "ñ"), "naïve ***");
        assert_eq!(redact("\\u00f1 %C3%B1".into(), "ñ"), "*** ***");
        assert_eq!(redact("a\\ud83d\\ude00b".into(), "\u{1f600}"), "a***b");
    }

    #[test]
    fn scrub_body_decodes_json_before_looking() {
        let key = "sk-a/b";
        // The key in a JSON string held in a JSON string (a tool call's arguments), escaped.
        let body = r#"{"text":"k=sk%2Da%2Fb","args":"{\"k\":\"sk\\u002da\\/b\"}","sk\u002da\/b":1}"#;
        let scrubbed = scrub_body(body.to_string(), key);
        let value: serde_json::Value = serde_json::from_str(&scrubbed).unwrap_or_default();
        assert_eq!(value["text"], "k=***", "{scrubbed}");
        assert_eq!(value["args"], r#"{"k":"***"}"#, "{scrubbed}");
        assert_eq!(value["***"], 1, "{scrubbed}");
        // Untouched: byte for byte.
        let clean = r#"{"b": 1,  "a": "\u0041"}"#;
        assert_eq!(scrub_body(clean.to_string(), key), clean);
        assert_eq!(scrub_body("<html>sk%2Da/b</html>".into(), key), "<html>***</html>");
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
