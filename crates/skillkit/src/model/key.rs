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
    fn from_env_trims_and_skips_blank() {
        // Names unique to this test: the process environment is shared by parallel tests.
        std::env::set_var("SKILLKIT_TEST_KEY_SET", " sk-env\n");
        std::env::set_var("SKILLKIT_TEST_KEY_BLANK", "  ");
        assert_eq!(ApiKey::from_env("SKILLKIT_TEST_KEY_SET").map(|k| k.expose().to_string()), Some("sk-env".into()));
        assert!(ApiKey::from_env("SKILLKIT_TEST_KEY_BLANK").is_none());
        assert!(ApiKey::from_env("SKILLKIT_TEST_KEY_UNSET_XYZ").is_none());
    }
}
