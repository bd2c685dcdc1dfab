//! The Matrix pane: for every skill and agent, what the agent does with it
//! ([`skillkit::matrix`]), with the open file's unsaved text.

use crate::prelude::*;
use skillkit::matrix::Matrix;

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct RenderMatrix {
    pub sources: Vec<String>,
    /// The agents to show, in order; empty shows every agent with a loader.
    pub agents: Vec<String>,
    /// Tokens; `null` uses each agent's default.
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub context_window: Option<u64>,
    pub char_budget: Option<usize>,
    /// The open file's unsaved text, which stands for the file on disk.
    pub edit: Option<MatrixEdit>,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct MatrixEdit {
    pub path: String,
    pub text: String,
}

impl Studio {
    pub fn render_matrix(&self, args: RenderMatrix) -> Result<Matrix, AppError> {
        let mut agents = vec![];
        for id in &args.agents {
            let a = agent(id)?;
            if !skillkit::verdict::judged_by_loader(a) {
                return Err(AppError::new(ErrorCode::NoPrompt, skillkit::matrix::not_a_column(a.id)));
            }
            agents.push(a);
        }
        if agents.is_empty() {
            agents = skillkit::matrix::default_agents();
        }
        let sources = crate::resolve::real_paths(&args.sources);
        self.check_folders(&sources)?;
        // Each agent's own settings from the project (its files, `[agents.<agent>]`), as the
        // Prompt pane and `skillkit matrix` take them.
        let project = self.project_of(&sources)?;
        let mut each = Vec::with_capacity(agents.len());
        for a in &agents {
            let (settings, _) = skillkit::config::agent_settings_for(a.id, &sources, project.as_deref(), &[])
                .map_err(|m| AppError::new(ErrorCode::InvalidSettings, m))?;
            each.push(skillkit::prompt::PromptOptions {
                context_window: args.context_window,
                char_budget: args.char_budget,
                settings,
                ..Default::default()
            });
        }
        let edits: Vec<(PathBuf, String)> = args.edit.into_iter().map(|e| (PathBuf::from(e.path), e.text)).collect();
        Ok(skillkit::matrix::build_each(&sources, &agents, &each, &edits))
    }
}
