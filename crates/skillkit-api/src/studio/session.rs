//! The Session pane: sessions run step by step or from a script.

use crate::prelude::*;

pub use skillkit::session::Policy;

#[derive(Clone, Debug, Default, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct SessionSettings {
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub context_window: Option<u64>,
    pub max_loaded_skills: Option<usize>,
    pub policy: Policy,
    pub char_budget: Option<usize>,
    /// Claude Code permission rules, e.g. `Bash(git:*)`.
    pub allow: Vec<String>,
}

impl SessionSettings {
    /// The engine's settings: the agent's defaults where a value is not given.
    pub fn to_engine(&self) -> skillkit::session::Settings {
        let mut settings = skillkit::session::Settings {
            context_window: self.context_window,
            policy: self.policy,
            char_budget: self.char_budget,
            allow: self.allow.clone(),
            ..Default::default()
        };
        if let Some(n) = self.max_loaded_skills {
            settings.max_loaded_skills = n;
        }
        settings
    }
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunSession {
    pub sources: Vec<String>,
    pub agent: String,
    pub settings: SessionSettings,
    pub steps: Vec<Step>,
}

/// A session whose last `user` steps the model answers (a live turn).
#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunSessionLive {
    pub session: RunSession,
    /// The model (the Evals pane's settings; the key from the keyring or the environment).
    pub provider: crate::settings::ProviderSettings,
}

/// A live session: the transcript, the steps as run (the model's turns added, so a saved script
/// replays without the model) and, when the model could not answer, why.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct LiveSessionView {
    pub view: SessionView,
    pub steps: Vec<Step>,
    pub error: Option<String>,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RunSessionScript {
    /// Where the script is (its `sources` are relative to its folder).
    pub path: String,
    pub text: String,
}

impl Studio {
    pub fn run_session(&self, args: RunSession) -> Result<SessionView, AppError> {
        let agent = agent(&args.agent)?;
        if agent.prompt.is_none() {
            return Err(AppError::new(ErrorCode::NoPrompt, skillkit::agents::only_lints(agent.id)));
        }
        let sources = crate::resolve::paths(&args.sources);
        self.check_folders(&sources)?;
        let settings = args.settings.to_engine();
        Ok(simulate(agent, &sources, settings, args.steps))
    }

    /// Runs the session with the model answering each `user` step that no `model` step answers
    /// yet (`skillkit::live`): its skill-tool calls run in the simulator, other tools are answered
    /// "not run in simulation".
    pub fn run_session_live(&self, args: RunSessionLive) -> Result<LiveSessionView, AppError> {
        let RunSessionLive { session, provider } = args;
        let agent = agent(&session.agent)?;
        if agent.prompt.is_none() {
            return Err(AppError::new(ErrorCode::NoPrompt, skillkit::agents::only_lints(agent.id)));
        }
        let sources = crate::resolve::paths(&session.sources);
        self.check_folders(&sources)?;
        let (config, _) = self.provider_config(&provider)?;
        let client = skillkit::model::provider(&config);
        let cancel = skillkit::model::Cancel::new();
        let model = skillkit::live::LiveModel {
            provider: client.as_ref(),
            config: &config,
            cancel: &cancel,
            max_rounds: crate::settings::DEFAULT_MAX_ROUNDS,
        };
        let live = skillkit::live::run(agent, &sources, session.settings.to_engine(), session.steps, Some(&model));
        Ok(LiveSessionView {
            view: view(agent, &live.session),
            steps: live.steps,
            error: live.error.map(|e| e.to_string()),
        })
    }

    /// The project configuration (`skillkit.toml`) of a library of `sources`, found as opening
    /// the library finds it (above the first source).
    pub(crate) fn project_of(
        &self,
        sources: &[PathBuf],
    ) -> Result<Option<std::sync::Arc<skillkit::config::Project>>, AppError> {
        let Some(first) = sources.first() else { return Ok(None) };
        Ok(crate::resolve::project(first)?.map(std::sync::Arc::new))
    }
}

pub(crate) fn simulate(
    agent: &'static skillkit::Agent,
    sources: &[PathBuf],
    settings: skillkit::session::Settings,
    steps: Vec<skillkit::session::Step>,
) -> SessionView {
    view(agent, &skillkit::simulate::run(agent, sources, settings, steps))
}

/// The view of a session that ran.
fn view(agent: &skillkit::Agent, session: &skillkit::session::Session) -> SessionView {
    SessionView {
        agent: agent.id.into(),
        initial_prompt: session.initial_prompt.clone(),
        turns: session.turns.iter().map(Turn::from).collect(),
        prompt: session.prompt_text(),
        loaded: session.loaded.clone(),
    }
}
