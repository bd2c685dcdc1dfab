//! The project's configuration: `skillkit.toml`, or the `[tool.skillkit]` table of a
//! `pyproject.toml`, in the folder or the nearest folder above it that has one. So far it holds
//! the default agent; keys this version does not know are left for later versions to read.
//!
//! ```toml
//! agent = "claude-code"
//! ```

use std::path::{Path, PathBuf};

#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Deserialize)]
pub struct Config {
    /// The agent whose profile judges the skills (`skillkit agents` lists them).
    #[serde(default)]
    pub agent: Option<String>,
}

/// A configuration file that could not be read: its path and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

#[derive(serde::Deserialize)]
struct Pyproject {
    tool: Option<Tool>,
}

#[derive(serde::Deserialize)]
struct Tool {
    skillkit: Option<Config>,
}

/// The configuration that applies in `start` (a folder): the first `skillkit.toml`, or
/// `pyproject.toml` with a `[tool.skillkit]` table, found walking up from it. `Ok(None)` when
/// there is none.
pub fn find(start: &Path) -> Result<Option<(PathBuf, Config)>, ConfigError> {
    for dir in start.ancestors() {
        let own = dir.join("skillkit.toml");
        if own.is_file() {
            return read(&own, |t| toml::from_str::<Config>(t)).map(|c| Some((own, c)));
        }
        let py = dir.join("pyproject.toml");
        if py.is_file() {
            let found = read(&py, |t| toml::from_str::<Pyproject>(t))?;
            if let Some(c) = found.tool.and_then(|t| t.skillkit) {
                return Ok(Some((py, c)));
            }
        }
    }
    Ok(None)
}

fn read<T>(path: &Path, parse: impl Fn(&str) -> Result<T, toml::de::Error>) -> Result<T, ConfigError> {
    let error = |message: String| ConfigError { path: path.to_path_buf(), message };
    let meta = std::fs::metadata(path).map_err(|e| error(e.to_string()))?;
    if meta.len() > 1 << 20 {
        return Err(error("larger than 1 MiB: not read".into()));
    }
    let text = std::fs::read_to_string(path).map_err(|e| error(e.to_string()))?;
    parse(&text).map_err(|e| error(e.message().to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nearest_file_wins_and_pyproject_needs_its_table() {
        let dir = tempfile::tempdir().unwrap();
        let inner = dir.path().join("a/b");
        std::fs::create_dir_all(&inner).unwrap();
        assert_eq!(find(&inner).unwrap(), None);
        std::fs::write(dir.path().join("skillkit.toml"), "agent = \"codex\"\n[rules]\nSK601 = \"off\"\n").unwrap();
        let (path, c) = find(&inner).unwrap().unwrap();
        assert_eq!((path, c.agent.as_deref()), (dir.path().join("skillkit.toml"), Some("codex")));
        std::fs::write(dir.path().join("a/pyproject.toml"), "[project]\nname = \"x\"\n").unwrap();
        assert_eq!(
            find(&inner).unwrap().unwrap().1.agent.as_deref(),
            Some("codex"),
            "no [tool.skillkit]: keep walking"
        );
        std::fs::write(dir.path().join("a/pyproject.toml"), "[tool.skillkit]\nagent = \"gemini-cli\"\n").unwrap();
        assert_eq!(find(&inner).unwrap().unwrap().1.agent.as_deref(), Some("gemini-cli"));
        std::fs::write(dir.path().join("a/b/skillkit.toml"), "agent = [").unwrap();
        let e = find(&inner).unwrap_err();
        assert!(e.path.ends_with("a/b/skillkit.toml") && !e.message.is_empty(), "{e}");
    }
}
