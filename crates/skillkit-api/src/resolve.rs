//! Resolving what a request names, the same way for every front end: an agent profile by its id,
//! a project's configuration (`skillkit.toml`, or `[tool.skillkit]` in `pyproject.toml`) and the
//! agent it names. The app's commands, `skillkit`'s commands (`Setup::new`, `eval`) and its
//! language server (`skillkit lsp`) all call these, so the same bad settings get the same error
//! code and the same sentence from each.

use crate::error::{AppError, ErrorCode};
use skillkit::config::Project;
use skillkit::Agent;
use std::path::{Path, PathBuf};

/// The agent profile `id` names (`unknown-agent`, listing the known ids, otherwise).
pub fn agent(id: &str) -> Result<&'static Agent, AppError> {
    skillkit::find_agent(id).ok_or_else(|| AppError::new(ErrorCode::UnknownAgent, skillkit::agents::unknown_agent(id)))
}

/// The project configuration found above `dir` (a library's first source), if there is one
/// (`invalid-settings` when the file cannot be read or names what the engine does not know).
pub fn project(dir: &Path) -> Result<Option<Project>, AppError> {
    skillkit::config::find(dir).map_err(config_error)
}

/// The configuration `config` names, else the one found from the first of `paths`, else from
/// `cwd`: `skillkit`'s `--config` and its search.
pub fn project_for(config: Option<&Path>, paths: &[PathBuf], cwd: &Path) -> Result<Option<Project>, AppError> {
    match config {
        Some(file) => skillkit::config::load(file).map(Some).map_err(config_error),
        None => skillkit::config::find_for(paths, cwd).map_err(config_error),
    }
}

fn config_error(e: impl std::fmt::Display) -> AppError {
    AppError::new(ErrorCode::InvalidSettings, e.to_string())
}

/// The agent a front end works with: the one asked for (a command line's `--agent`, an editor's
/// setting), else the one the project's configuration names, else `default`. `None` when none of
/// them names one.
pub fn chosen_agent(
    asked: Option<&str>,
    project: Option<&Project>,
    default: Option<&str>,
) -> Option<Result<&'static Agent, AppError>> {
    let configured = project.and_then(|p| p.config.agent.as_deref());
    let id = asked.filter(|a| !a.is_empty()).or(configured).or(default)?;
    Some(agent(id))
}

/// The sources as given, as paths.
pub fn paths(sources: &[String]) -> Vec<PathBuf> {
    sources.iter().map(PathBuf::from).collect()
}

/// The real path of each source that exists, the path as given otherwise.
pub fn real_paths(sources: &[String]) -> Vec<PathBuf> {
    sources.iter().map(|s| std::fs::canonicalize(s).unwrap_or_else(|_| PathBuf::from(s))).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_unknown_agent_is_one_error_with_the_known_ids() {
        let e = agent("nobody").unwrap_err();
        assert_eq!(e.code, ErrorCode::UnknownAgent);
        assert!(e.message.starts_with("unknown agent `nobody`; known agents: "), "{}", e.message);
        assert!(e.message.contains("claude-code"), "{}", e.message);
        assert_eq!(agent("codex").unwrap().id, "codex");
    }

    #[test]
    fn the_agent_asked_for_wins_over_the_configured_one_then_the_default() {
        let tmp = tempfile::tempdir().unwrap();
        std::fs::write(tmp.path().join("skillkit.toml"), "agent = \"codex\"\n").unwrap();
        let p = project(tmp.path()).unwrap().unwrap();
        let id = |asked: Option<&str>, p: Option<&Project>, d: Option<&str>| {
            chosen_agent(asked, p, d).map(|r| r.map(|a| a.id).map_err(|e| e.code))
        };
        assert_eq!(id(Some("claude-code"), Some(&p), Some("spec")), Some(Ok("claude-code")));
        assert_eq!(id(Some(""), Some(&p), Some("spec")), Some(Ok("codex")));
        assert_eq!(id(None, None, Some("spec")), Some(Ok("spec")));
        assert_eq!(id(None, None, None), None);
        assert_eq!(id(Some("nobody"), None, None), Some(Err(ErrorCode::UnknownAgent)));
        std::fs::write(tmp.path().join("skillkit.toml"), "agent = \"nobody\"\n").unwrap();
        let e = project(tmp.path()).unwrap_err();
        assert_eq!(e.code, ErrorCode::InvalidSettings);
        assert!(e.message.contains("unknown agent `nobody`"), "{}", e.message);
        assert_eq!(project_for(None, &[tmp.path().to_path_buf()], tmp.path()).unwrap_err(), e);
    }
}
