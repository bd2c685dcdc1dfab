//! `skillkit tree`: a library's sources, skills, what hides what, and each skill's files.

use crate::cli::TreeFormat;
use crate::render;
use crate::setup::{open_library, Setup};
use std::io::Write;
use std::path::{Path, PathBuf};

pub(crate) fn tree(
    sources: Vec<PathBuf>,
    setup: &Setup,
    format: TreeFormat,
    out: &mut dyn Write,
) -> std::io::Result<i32> {
    let (agent, lib) = open_library(sources, setup);
    let cwd = std::env::current_dir().unwrap_or_default();
    let display = |p: &Path| render::display_path(p, &cwd);
    match format {
        TreeFormat::Text => render::tree::render_text(&lib, agent, &display, out)?,
        TreeFormat::Json => render::tree::render_json(&lib, agent, &display, out)?,
    }
    Ok(if lib.sources.iter().any(|s| !s.exists) { 2 } else { 0 })
}
