//! `skillkit preview`: the sanitized HTML the app previews for a skill's body.

use crate::cli::PreviewFormat;
use crate::render;
use std::io::Write;
use std::path::Path;

pub(crate) fn preview(
    path: &Path,
    format: PreviewFormat,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    use skillkit::skill::{FileProblem, MAX_FILE_BYTES};
    let dir = match skillkit::check::check_sources(&[path.to_path_buf()]) {
        Ok(mut dirs) => dirs.remove(0),
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    let skill = skillkit::read::read_skill(&dir);
    let cwd = std::env::current_dir().unwrap_or_default();
    let shown = render::display_path(&skill.path(), &cwd);
    let blocked = skill.file_problems.iter().find_map(|p| match p {
        // Shown with U+FFFD where the bytes are not UTF-8, as the editor shows it.
        FileProblem::InvalidUtf8 { .. } => None,
        FileProblem::Missing => Some(format!("no SKILL.md in {}", render::display_path(&dir, &cwd))),
        FileProblem::NotAFile { kind } => Some(format!("{shown} is a {kind}, not a file")),
        FileProblem::Unreadable { error } => Some(format!("cannot read {shown}: {error}")),
        FileProblem::TooLarge { size } => {
            Some(format!("{shown} is {size} bytes, over the {} bytes a skill file may have", MAX_FILE_BYTES))
        }
        FileProblem::Binary { offset } => Some(format!("{shown} is a binary file (a NUL byte at {offset})")),
    });
    if let Some(why) = blocked {
        writeln!(err, "error: {why}")?;
        return Ok(2);
    }
    let preview = skillkit::preview::render(&skill.dir, &skill.text, skillkit::preview::PreviewLimits::default());
    if let Some(r) = &preview.refused {
        writeln!(err, "warning: {}: {}", shown, r.message())?;
    }
    match format {
        PreviewFormat::Html => out.write_all(preview.html.as_bytes())?,
        PreviewFormat::Json => {
            serde_json::to_writer_pretty(skillkit::syntax::shown::Json::new(&mut *out), &preview)?;
            writeln!(out)?;
        }
    }
    Ok(0)
}
