//! `skillkit simulate`: run a session script, with a model for its `user` steps when one is
//! given, and print the transcript.

use crate::cli::TreeFormat;
use crate::provider::ProviderArgs;
use crate::render;
use skillkit::find_agent;
use std::io::Write;
use std::path::{Path, PathBuf};

/// `simulate`'s live options.
pub(crate) struct Live<'a> {
    pub(crate) model: ProviderArgs,
    pub(crate) max_rounds: usize,
    pub(crate) save: Option<PathBuf>,
    pub(crate) cancel: &'a skillkit::model::Cancel,
}

pub(crate) fn simulate(
    script: &Path,
    format: TreeFormat,
    live: &Live<'_>,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let shown = script.display().to_string();
    let text = match skillkit::files::read_text(script, skillkit::files::MAX_BYTES) {
        Ok(t) => t,
        Err(e) => {
            writeln!(err, "{shown}: error: cannot read: {}", skillkit::files::reason(&e))?;
            return Ok(2);
        }
    };
    let parsed = match skillkit::simulate::parse_script(&text) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                writeln!(err, "{shown}:{}:{}: error: {}", e.line, e.column, e.message)?;
            }
            return Ok(2);
        }
    };
    let agent = find_agent(&parsed.agent).expect("the script parser accepts only known agents");
    let sources = match skillkit::session::script::confine_sources(&text, script, &parsed.sources) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                writeln!(err, "{shown}:{}:{}: error: {}", e.line, e.column, e.message)?;
            }
            return Ok(2);
        }
    };
    let built = match live.model.given().then(|| live.model.build()) {
        Some(Err(e)) => {
            writeln!(err, "{e}")?;
            return Ok(2);
        }
        Some(Ok(built)) => Some(built),
        None => None,
    };
    let model = built.as_ref().map(|(config, provider)| skillkit::live::LiveModel {
        provider: provider.as_ref(),
        config,
        cancel: live.cancel,
        max_rounds: live.max_rounds,
    });
    let agent_settings = skillkit::simulate::script_agent_settings(&parsed, script);
    let ran = skillkit::live::run_with(
        agent,
        &sources,
        parsed.settings.clone(),
        agent_settings,
        parsed.steps.clone(),
        model.as_ref(),
    );
    let session = ran.session;
    if let Some(path) = &live.save {
        let saved = skillkit::session::script::Script { steps: ran.steps.clone(), ..parsed.clone() };
        // A path typed on the command line: saved atomically in its folder.
        let folder = skillkit::session::script::folder_of(path);
        if let Err(e) = skillkit::files::save(path, saved.to_text().as_bytes(), folder) {
            writeln!(err, "error: the script was not saved: {e}")?;
            return Ok(2);
        }
    }
    for source in session.library.sources.iter().filter(|s| !s.exists) {
        writeln!(err, "warning: source {} does not exist", source.path.display())?;
    }
    match format {
        TreeFormat::Text => render::session::render_text(&session, &parsed.sources, out)?,
        TreeFormat::Json => render::session::render_json(&session, &parsed.sources, out)?,
    }
    if let Some(e) = ran.error {
        writeln!(err, "error: the model could not answer: {e}")?;
        return Ok(2);
    }
    Ok(0)
}
