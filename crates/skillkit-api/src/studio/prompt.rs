//! The Prompt pane: the exact text an agent injects.

use crate::prelude::*;

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RenderPrompt {
    pub sources: Vec<String>,
    pub agent: String,
    /// Tokens; `null` uses the agent's default.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub context_window: Option<u64>,
    pub char_budget: Option<usize>,
    /// Skills already loaded (agents that mark them).
    pub loaded: Vec<String>,
    /// The agent's own listing settings, `KEY=VALUE` as `skillkit prompt --agent-setting` takes
    /// them; they win over the project's own settings files of the agent (`.claude/settings.json`)
    /// and its `skillkit.toml`'s `[agents.<agent>]`.
    pub agent_settings: Vec<String>,
}

impl Studio {
    pub fn render_prompt(&self, args: RenderPrompt) -> Result<PromptView, AppError> {
        let agent = agent(&args.agent)?;
        // The current library when the sources are its own (kept up to date by the watcher).
        let sources = crate::resolve::real_paths(&args.sources);
        self.check_folders(&sources)?;
        let project = self.project_of(&sources)?;
        let (settings, _) =
            skillkit::config::agent_settings_for(agent.id, &sources, project.as_deref(), &args.agent_settings)
                .map_err(|m| AppError::new(ErrorCode::InvalidSettings, m))?;
        let options = skillkit::prompt::PromptOptions {
            context_window: args.context_window,
            char_budget: args.char_budget,
            loaded: args.loaded,
            decisions_only: false,
            settings,
        };
        let render = |lib: &Library| agent.render(lib, &options);
        let rendered = match self.library.with(&sources, agent, render) {
            Some(r) => r,
            None => render(&Library::for_agent(&sources, agent)),
        };
        rendered
            .map(PromptView::from)
            .ok_or_else(|| AppError::new(ErrorCode::NoPrompt, skillkit::agents::only_lints(agent.id)))
    }
}
