//! `skillkit prompt`: the exact text an agent injects to advertise the library's skills.

use crate::cli::TreeFormat;
use crate::setup::{open_library, Setup};
use std::io::Write;
use std::path::PathBuf;

pub(crate) fn prompt(
    sources: Vec<PathBuf>,
    setup: &Setup,
    options: &skillkit::prompt::PromptOptions,
    format: TreeFormat,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let (agent, lib) = open_library(sources, setup);
    let Some(mut prompt) = agent.render(&lib, options) else {
        writeln!(err, "error: {}", skillkit::agents::only_lints(agent.id))?;
        return Ok(2);
    };
    match format {
        TreeFormat::Text => {
            out.write_all(prompt.text.as_bytes())?;
            // An agent that refuses as a whole (skills-ref's to-prompt) prints its error and
            // exits as it does.
            if let Some(f) = &prompt.failure {
                err.write_all(f.as_bytes())?;
                return Ok(prompt.exit_code());
            }
            // The prompt on stdout stays byte-exact; what it cannot say goes to stderr: which
            // listed skills are the agent's own, not the library's.
            let listed = |d: &skillkit::prompt::Decision| {
                use skillkit::prompt::Decision::*;
                matches!(d, Full | Truncated | NameOnly)
            };
            for s in prompt.skills.iter().filter(|s| s.source.is_none() && listed(&s.decision)) {
                writeln!(err, "note: `{}` is a built-in skill of {}, not one of the library's", s.name, agent.title)?;
            }
        }
        TreeFormat::Json => {
            prompt.count_cl100k();
            serde_json::to_writer_pretty(skillkit::syntax::shown::Json::new(&mut *out), &prompt)?;
            writeln!(out)?;
        }
    }
    Ok(0)
}
