//! The library: startup, the agent profiles, opening (and watching) a library.

use crate::file_access::Scope;
use crate::host::Notify;
use crate::prelude::*;
use crate::state::Startup;
use skillkit::AGENTS;

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct OpenLibrary {
    /// Lowest priority first.
    pub sources: Vec<String>,
    pub agent: String,
}

impl Studio {
    /// The library to open first: the remembered one, unless started on explicit sources.
    /// A library opened anew (not the remembered one) is judged by the agent its project's
    /// `skillkit.toml` (or `[tool.skillkit]`) names, as `skillkit check` there is; the remembered
    /// one keeps the agent last chosen for it.
    pub fn startup(&self) -> Result<Startup, AppError> {
        let mut startup = self.startup.clone();
        if let Some(agent) = configured_agent(&startup.sources) {
            startup.agent = agent;
        }
        Ok(match self.memory() {
            Some(file) if !self.explicit => {
                let fallback =
                    crate::last_library::LastLibrary { sources: startup.sources.clone(), agent: startup.agent.clone() };
                let l = crate::last_library::choose(crate::last_library::read(&file), fallback);
                Startup { sources: l.sources, agent: l.agent, examples: startup.examples }
            }
            _ => startup,
        })
    }

    pub fn agents(&self) -> Result<Vec<AgentInfo>, AppError> {
        Ok(AGENTS
            .iter()
            .map(|a| AgentInfo {
                id: a.id.into(),
                title: a.title.into(),
                kind: a.kind,
                label: a.label.into(),
                source: a.source.into(),
                has_prompt: a.prompt.is_some(),
                has_skill_tool: a.activation.is_some(),
            })
            .collect())
    }

    /// Opens the library, watched when the host has a sink for its changes; its
    /// sources become the folders the UI may read and save in. A project configuration that
    /// cannot be read does not stop it: the reply's `config_error` is the error, with the code
    /// and sentence `skillkit check` gives.
    pub fn open_library(&self, args: OpenLibrary) -> Result<LibraryView, AppError> {
        self.open_library_watched(args, self.notify())
    }

    /// Opens the library as the current one; with `notify`, its sources are watched and each
    /// change is applied to it and passed to `notify` (until another library is opened).
    pub fn open_library_watched(&self, args: OpenLibrary, notify: Option<Notify>) -> Result<LibraryView, AppError> {
        let agent = agent(&args.agent)?;
        let sources = crate::resolve::real_paths(&args.sources);
        self.set_scope(Scope::new(&sources).named(&crate::resolve::paths(&args.sources)));
        let (view, problem) = self.library.open(sources, agent, notify);
        if let Some(problem) = problem {
            eprintln!("skill-studio: {problem}");
        }
        // Saves cut short (a crash, kill -9) leave their temporary files: remove them.
        for (dir, names) in self.library.temporaries() {
            self.scope().remove_temporaries(&dir, &names);
        }
        if let Some(file) = self.memory().filter(|_| !self.explicit) {
            let last = crate::last_library::LastLibrary { sources: args.sources, agent: agent.id.into() };
            if let Err(e) = crate::last_library::write(&file, &last) {
                eprintln!("skill-studio: cannot remember the library: {e}");
            }
        }
        Ok(view)
    }
}

/// The agent named by the configuration of the project holding the first of `sources` (the
/// engine refuses a file naming an agent it does not know; that, like any file that cannot be
/// read, is reported when the library opens).
fn configured_agent(sources: &[String]) -> Option<String> {
    skillkit::config::find(Path::new(sources.first()?)).ok()??.config.agent
}
