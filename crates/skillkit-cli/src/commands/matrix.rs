//! `skillkit matrix`: which agents list each skill, and how.

use crate::cli::{AgentSettingArgs, MatrixFormat, RequireBar};
use crate::render;
use crate::setup::{agent_or_err, Setup};
use std::io::Write;
use std::path::PathBuf;

/// What `skillkit matrix` was asked for.
pub(crate) struct MatrixRun<'a> {
    pub(crate) agents: &'a [String],
    pub(crate) require: Option<RequireBar>,
    pub(crate) options: &'a skillkit::prompt::PromptOptions,
    pub(crate) settings: &'a AgentSettingArgs,
    pub(crate) format: MatrixFormat,
}

pub(crate) fn matrix(
    sources: Vec<PathBuf>,
    setup: &Setup,
    how: &MatrixRun<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let MatrixRun { agents, require, options, settings, format } = *how;
    let mut shown = vec![];
    for id in agents {
        let Some(agent) = agent_or_err(id, err)? else { return Ok(2) };
        if !skillkit::verdict::judged_by_loader(agent) {
            writeln!(err, "error: {}", skillkit::matrix::not_a_column(id))?;
            return Ok(2);
        }
        shown.push(agent);
    }
    if shown.is_empty() {
        shown = skillkit::matrix::default_agents();
    }
    let given = sources;
    let sources = setup.sources(given.clone());
    let cwd = std::env::current_dir().unwrap_or_default();
    if let Some(s) = sources.iter().find(|s| !s.is_dir()) {
        writeln!(err, "error: {} is not a folder", render::one_line(&render::display_path(s, &cwd)))?;
        return Ok(2);
    }
    // Each agent's own settings; an --agent-setting goes to the agents shown that have its key.
    use skillkit::agent_settings::{assignment_key, takes};
    if let Some(a) = settings.agent_setting.iter().find(|a| !shown.iter().any(|ag| takes(ag.id, a))) {
        writeln!(
            err,
            "error: --agent-setting {}: no agent shown has the setting `{}`",
            render::one_line(a),
            render::one_line(assignment_key(a))
        )?;
        return Ok(2);
    }
    let mut per_agent = Vec::with_capacity(shown.len());
    for agent in &shown {
        let mine: Vec<String> = settings.agent_setting.iter().filter(|a| takes(agent.id, a)).cloned().collect();
        match setup.agent_settings_of(agent, &given, &mine, settings, options, err)? {
            Some(s) => per_agent.push(skillkit::prompt::PromptOptions { settings: s, ..options.clone() }),
            None => return Ok(2),
        }
    }
    let m = skillkit::matrix::build_each(&sources, &shown, &per_agent, &[]);
    match format {
        MatrixFormat::Text => render::matrix::render_text(&m, out)?,
        MatrixFormat::Json => render::matrix::render_json(&m, out)?,
        MatrixFormat::Markdown => render::matrix::render_markdown(&m, out)?,
    }
    let Some(require) = require else { return Ok(0) };
    let (bar, word) = match require {
        RequireBar::Full => (skillkit::matrix::Bar::Full, "listed in full"),
        RequireBar::Listed => (skillkit::matrix::Bar::Listed, "listed"),
    };
    let misses = m.misses(bar, &[]);
    render::matrix::render_misses(&misses, word, err)?;
    Ok(if misses.is_empty() { 0 } else { 1 })
}
