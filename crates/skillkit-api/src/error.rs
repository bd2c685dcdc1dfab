//! The one error type that crosses to the UI: a stable code the UI can switch on, a message for
//! people, and located details where the input had several mistakes (session scripts).

use serde::Serialize;

/// What went wrong, as a stable kebab-case code. New codes may be added; existing ones never
/// change meaning.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// No agent profile has that id.
    UnknownAgent,
    /// The profile only lints; it injects no prompt (`spec`).
    NoPrompt,
    /// A path outside every opened source: the app reads and writes only there.
    OutsideLibrary,
    /// Not a `SKILL.md` path.
    NotASkillFile,
    /// The session script has mistakes (see `details`).
    InvalidScript,
    /// Reading or writing a file failed.
    Io,
    /// The frontmatter field cannot be set from the form (a list, a mapping, a bad key).
    NotEditable,
    /// The new skill would not pass every profile's checks, its folder exists, or its source is
    /// not one of the opened library's (see `details` for the checks' messages).
    InvalidNewSkill,
    /// The file changed on disk since the editor read it; the save was not made.
    Conflict,
    /// The eval suite has mistakes (see `details`), or names sources without the compared skill.
    InvalidSuite,
    /// The agent offers the model no skill tool, so its triggering cannot be evaluated.
    NoSkillTool,
    /// No API key for a provider's own API: none stored, none in the environment.
    NoKey,
    /// The system keyring refused (no Secret Service running, access denied).
    Keyring,
    /// The model's provider failed for good (unreachable, a refused key, an unknown model).
    Provider,
    /// An eval is already running; cancel it first.
    Busy,
    /// A provider setting is out of range or missing (the model, runs, a base URL), or an agent's
    /// listing setting is unknown or out of range.
    InvalidSettings,
    /// A package would fail its target's rules (see `details`): nothing was built.
    PackageRefused,
    /// A package's file or folder exists and overwriting was not asked: nothing was built.
    Exists,
    /// The host refused the call itself (a command not granted, malformed arguments). The UI
    /// maps such rejections to this code.
    Internal,
}

impl ErrorCode {
    /// The code as it crosses to the UI and as the CLI and the language server print it
    /// (`unknown-agent`).
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::UnknownAgent => "unknown-agent",
            ErrorCode::NoPrompt => "no-prompt",
            ErrorCode::OutsideLibrary => "outside-library",
            ErrorCode::NotASkillFile => "not-a-skill-file",
            ErrorCode::InvalidScript => "invalid-script",
            ErrorCode::Io => "io",
            ErrorCode::NotEditable => "not-editable",
            ErrorCode::InvalidNewSkill => "invalid-new-skill",
            ErrorCode::Conflict => "conflict",
            ErrorCode::InvalidSuite => "invalid-suite",
            ErrorCode::NoSkillTool => "no-skill-tool",
            ErrorCode::NoKey => "no-key",
            ErrorCode::Keyring => "keyring",
            ErrorCode::Provider => "provider",
            ErrorCode::Busy => "busy",
            ErrorCode::InvalidSettings => "invalid-settings",
            ErrorCode::PackageRefused => "package-refused",
            ErrorCode::Exists => "exists",
            ErrorCode::Internal => "internal",
        }
    }
}

/// "1 mistake", "3 mistakes": how many a file has, in words.
pub fn mistakes(n: usize) -> String {
    format!("{n} mistake{}", if n == 1 { "" } else { "s" })
}

/// A located mistake in the input, 1-based.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ErrorDetail {
    pub message: String,
    pub line: u32,
    pub column: u32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct AppError {
    pub code: ErrorCode,
    pub message: String,
    pub details: Vec<ErrorDetail>,
}

impl AppError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> AppError {
        AppError { code, message: message.into(), details: vec![] }
    }

    /// An error about a file the engine read (a session script, an eval suite), with its located
    /// mistakes as details.
    pub fn located(code: ErrorCode, message: String, errors: Vec<skillkit::session::script::ScriptError>) -> AppError {
        AppError {
            code,
            message,
            details: errors
                .into_iter()
                .map(|e| ErrorDetail { message: e.message, line: e.line as u32, column: e.column as u32 })
                .collect(),
        }
    }

    pub fn io(what: &str, path: &std::path::Path, e: &std::io::Error) -> AppError {
        AppError::new(ErrorCode::Io, format!("{what} {}: {e}", path.display()))
    }
}

impl From<skillkit::scope::ScopeError> for AppError {
    fn from(e: skillkit::scope::ScopeError) -> AppError {
        use skillkit::scope::ScopeError;
        let code = match e {
            ScopeError::Outside { .. } => ErrorCode::OutsideLibrary,
            ScopeError::Conflict { .. } => ErrorCode::Conflict,
            _ => ErrorCode::Io,
        };
        AppError::new(code, e.to_string())
    }
}

/// `error[unknown-agent]: unknown agent `x`; known agents: …`: the line `skillkit` prints on its
/// error output and its language server shows, the same for the same mistake.
impl std::fmt::Display for AppError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "error[{}]: {}", self.code.as_str(), self.message)
    }
}

impl std::error::Error for AppError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_code_prints_as_it_serializes() {
        use ErrorCode::*;
        let all = [
            UnknownAgent,
            NoPrompt,
            OutsideLibrary,
            NotASkillFile,
            InvalidScript,
            Io,
            NotEditable,
            InvalidNewSkill,
            Conflict,
            InvalidSuite,
            NoSkillTool,
            NoKey,
            Keyring,
            Provider,
            Busy,
            InvalidSettings,
            PackageRefused,
            Exists,
            Internal,
        ];
        for code in all {
            assert_eq!(serde_json::to_value(code).unwrap(), code.as_str(), "{code:?}");
        }
        let e = AppError::new(InvalidSettings, "runs per case: 1 to 100");
        assert_eq!(e.to_string(), "error[invalid-settings]: runs per case: 1 to 100");
    }
}
