//! What the commands share: the configuration and agent a command runs with ([`Setup`]), the
//! agent's listing settings, and the library opened as that agent discovers it.

use crate::cli::AgentSettingArgs;
use std::io::Write;
use std::path::{Path, PathBuf};

/// What a command takes from the command line and the project's configuration: the agent, and
/// the configuration to apply to findings and to take sources from.
pub(crate) struct Setup {
    pub(crate) agent: &'static skillkit::Agent,
    pub(crate) project: Option<skillkit::config::Project>,
}

impl Setup {
    /// The configuration (`--config`, else found from the first path, else from the current
    /// folder) and the agent (`--agent`, else the configuration's, else `default`). `None` after
    /// saying why on `err` (a broken configuration, an unknown or missing agent).
    pub(crate) fn new(
        config: Option<&Path>,
        paths: &[PathBuf],
        agent: Option<String>,
        default: Option<&str>,
        err: &mut dyn Write,
    ) -> std::io::Result<Option<Setup>> {
        let cwd = std::env::current_dir().unwrap_or_default();
        let project = match skillkit_api::resolve::project_for(config, paths, &cwd) {
            Ok(p) => p,
            Err(e) => {
                writeln!(err, "{e}")?;
                return Ok(None);
            }
        };
        for w in project.iter().flat_map(|p| &p.warnings) {
            writeln!(err, "warning: {w}")?;
        }
        let configured = project.as_ref().and_then(|p| p.config.agent.clone());
        let Some(id) = agent.or(configured).or(default.map(str::to_string)) else {
            writeln!(err, "error: no agent: name one with --agent, or as `agent` in skillkit.toml")?;
            return Ok(None);
        };
        let Some(agent) = agent_or_err(&id, err)? else { return Ok(None) };
        Ok(Some(Setup { agent, project }))
    }

    /// The agent's listing settings: its own settings files (the project's; the user's with
    /// `--user-settings`), then skillkit.toml's `[agents.AGENT]`, then the command line (with
    /// `--context-window` and `--char-budget` where the agent has a setting for them). `None`
    /// after saying why on `err`; the files the agent would not load are warnings.
    pub(crate) fn agent_settings(
        &self,
        given: &[PathBuf],
        args: &AgentSettingArgs,
        options: &skillkit::prompt::PromptOptions,
        err: &mut dyn Write,
    ) -> std::io::Result<Option<skillkit::agent_settings::AgentSettings>> {
        self.agent_settings_of(self.agent, given, &args.agent_setting, args, options, err)
    }

    /// [`Setup::agent_settings`] for `agent`, with `assignments` from the command line.
    pub(crate) fn agent_settings_of(
        &self,
        agent: &skillkit::Agent,
        given: &[PathBuf],
        assignments: &[String],
        args: &AgentSettingArgs,
        options: &skillkit::prompt::PromptOptions,
        err: &mut dyn Write,
    ) -> std::io::Result<Option<skillkit::agent_settings::AgentSettings>> {
        use skillkit::agent_settings::{self as settings, Scalar};
        let id = agent.id;
        let sources = self.sources(given.to_vec());
        let project = settings::project_for(
            self.project.as_ref().map(|p| p.dir.as_path()),
            sources.first().map(PathBuf::as_path),
        );
        let home = match &args.user_settings {
            Some(d) if d.as_os_str() == "~" => settings::home_dir(),
            Some(d) => Some(d.clone()),
            None => None,
        };
        let config = self.project.as_ref().and_then(|p| p.agent_settings.get(id).map(|l| (l.clone(), p.path.clone())));
        let found = settings::Sources { project, home, config, assignments };
        let (mut resolved, warnings) = match settings::resolve(id, &found) {
            Ok(r) => r,
            Err(e) => {
                writeln!(err, "error: {e}")?;
                return Ok(None);
            }
        };
        for w in warnings {
            writeln!(err, "warning: {w}")?;
        }
        let has = |key: &str| settings::specs_of(id).any(|s| s.key == key);
        if let (Some(n), true) = (options.context_window, has(settings::CONTEXT_WINDOW)) {
            resolved.set_scalar(settings::CONTEXT_WINDOW, Scalar::Count(n), "--context-window");
        }
        if let (Some(n), true) = (options.char_budget, has(settings::CHAR_BUDGET)) {
            resolved.set_scalar(settings::CHAR_BUDGET, Scalar::Count(n as u64), "--char-budget");
        }
        Ok(Some(resolved))
    }

    /// The paths given, else the configuration's sources, else the current folder.
    pub(crate) fn sources(&self, given: Vec<PathBuf>) -> Vec<PathBuf> {
        if !given.is_empty() {
            return given;
        }
        let configured = self.project.as_ref().map(|p| p.sources()).unwrap_or_default();
        if configured.is_empty() {
            vec![PathBuf::from(".")]
        } else {
            configured
        }
    }

    /// The baseline file: the configuration's, else skillkit-baseline.json beside it (or in the
    /// current folder).
    pub(crate) fn baseline_path(&self) -> PathBuf {
        match &self.project {
            Some(p) => p.baseline().unwrap_or_else(|| p.dir.join(skillkit::config::BASELINE_FILE)),
            None => PathBuf::from(skillkit::config::BASELINE_FILE),
        }
    }
}

/// The library of `sources` (else the configuration's, else the current folder) as the agent
/// discovers it, its findings as the configuration wants them.
pub(crate) fn open_library(
    sources: Vec<PathBuf>,
    setup: &Setup,
) -> (&'static skillkit::Agent, skillkit::library::Library) {
    let mut lib = skillkit::library::Library::for_agent(&setup.sources(sources), setup.agent);
    if let Some(p) = &setup.project {
        p.adjust_library(&mut lib);
    }
    (setup.agent, lib)
}

pub(crate) fn agent_or_err(id: &str, err: &mut dyn Write) -> std::io::Result<Option<&'static skillkit::Agent>> {
    match skillkit_api::resolve::agent(id) {
        Ok(agent) => Ok(Some(agent)),
        Err(e) => writeln!(err, "{e}").map(|()| None),
    }
}
