//! The API key: a value that prints as `ApiKey(***)` and cannot be serialized, so it cannot reach
//! a log line, an error message or a record file by accident.

use std::fmt;

/// An API key. `Debug` and `Display` print `ApiKey(***)`; there is no `Serialize`, and only this
/// module's crate can read the value (to put it in a request header).
#[derive(Clone)]
pub struct ApiKey(String);

impl ApiKey {
    /// Wraps a key.
    pub fn new(key: impl Into<String>) -> ApiKey {
        ApiKey(key.into())
    }

    /// The key in environment variable `name`, if it is set and not blank (surrounding whitespace,
    /// such as a pasted newline, is trimmed).
    pub fn from_env(name: &str) -> Option<ApiKey> {
        let value = std::env::var(name).ok()?;
        let trimmed = value.trim();
        (!trimmed.is_empty()).then(|| ApiKey(trimmed.to_string()))
    }

    /// The key itself: for the request header and for scrubbing it out of error text, nothing else.
    pub(crate) fn expose(&self) -> &str {
        &self.0
    }
}

/// Where the key of a run comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyOrigin {
    /// The key the app keeps (in the system keyring).
    Stored,
    /// The environment variable.
    Env,
    /// No key: a local server at an explicit base URL.
    None,
}

/// No key for a provider that needs one: none was stored, `env` is not set, and the base URL is
/// the provider's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingKey {
    /// The environment variable that was read.
    pub env: String,
}

impl fmt::Display for MissingKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no API key: {} is not set, and a provider's own API needs one", self.env)
    }
}

impl std::error::Error for MissingKey {}

/// The key a run uses: the `stored` one, else the environment variable `env`'s, else none, which
/// only an explicit (non-blank) `base_url` allows (a local server such as Ollama needs no key).
pub fn choose(
    stored: Option<ApiKey>,
    env: &str,
    base_url: Option<&str>,
) -> Result<(Option<ApiKey>, KeyOrigin), MissingKey> {
    if let Some(key) = stored.filter(|k| !k.0.trim().is_empty()) {
        return Ok((Some(key), KeyOrigin::Stored));
    }
    if let Some(key) = ApiKey::from_env(env) {
        return Ok((Some(key), KeyOrigin::Env));
    }
    if base_url.is_some_and(|u| !u.trim().is_empty()) {
        return Ok((None, KeyOrigin::None));
    }
    Err(MissingKey { env: env.to_string() })
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_masked() {
        let key = ApiKey::new("sk-live-1234");
        assert_eq!(format!("{key:?}"), "ApiKey(***)");
        assert_eq!(format!("{key}"), "ApiKey(***)");
        assert_eq!(format!("{:?}", Some(key.clone())), "Some(ApiKey(***))");
        assert_eq!(key.expose(), "sk-live-1234");
    }

    #[test]
    fn the_stored_key_comes_first_then_the_environment_then_none_with_a_base_url() {
        std::env::set_var("SKILLKIT_TEST_CHOOSE_SET", "sk-env");
        let stored = Some(ApiKey::new("sk-stored"));
        let got = |r: Result<(Option<ApiKey>, KeyOrigin), MissingKey>| {
            r.map(|(k, origin)| (k.map(|k| k.expose().to_string()), origin))
        };
        assert_eq!(
            got(choose(stored.clone(), "SKILLKIT_TEST_CHOOSE_SET", None)),
            Ok((Some("sk-stored".into()), KeyOrigin::Stored))
        );
        assert_eq!(got(choose(None, "SKILLKIT_TEST_CHOOSE_SET", None)), Ok((Some("sk-env".into()), KeyOrigin::Env)));
        assert_eq!(
            got(choose(Some(ApiKey::new(" ")), "SKILLKIT_TEST_CHOOSE_SET", None)),
            Ok((Some("sk-env".into()), KeyOrigin::Env))
        );
        let local = Some("http://127.0.0.1:11434/v1");
        assert_eq!(got(choose(None, "SKILLKIT_TEST_CHOOSE_UNSET", local)), Ok((None, KeyOrigin::None)));
        let missing = choose(None, "SKILLKIT_TEST_CHOOSE_UNSET", Some(" ")).unwrap_err();
        assert_eq!(
            missing.to_string(),
            "no API key: SKILLKIT_TEST_CHOOSE_UNSET is not set, and a provider's own API needs one"
        );
    }

    #[test]
    fn from_env_trims_and_skips_blank() {
        // Names unique to this test: the process environment is shared by parallel tests.
        std::env::set_var("SKILLKIT_TEST_KEY_SET", " sk-env\n");
        std::env::set_var("SKILLKIT_TEST_KEY_BLANK", "  ");
        assert_eq!(ApiKey::from_env("SKILLKIT_TEST_KEY_SET").map(|k| k.expose().to_string()), Some("sk-env".into()));
        assert!(ApiKey::from_env("SKILLKIT_TEST_KEY_BLANK").is_none());
        assert!(ApiKey::from_env("SKILLKIT_TEST_KEY_UNSET_XYZ").is_none());
    }
}
