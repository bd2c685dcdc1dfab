//! What `skillkit eval`, `eval optimize` and `eval draft` share: the output formats, the exit
//! code after Ctrl+C, reading a suite with its sources, the progress bar and ratios as shown.

use crate::render::one_line;
use clap::ValueEnum;
use skillkit::eval::Suite;
use std::io::Write;
use std::path::PathBuf;

#[derive(Clone, Copy, ValueEnum, PartialEq, Eq, Debug)]
pub enum EvalFormat {
    Text,
    Json,
    Junit,
}

/// The exit code after Ctrl+C: the report of the completed runs is printed first.
pub const INTERRUPTED: i32 = 130;

/// A suite file read (skill-creator's list with `skill`) and the library sources it runs on:
/// `given`, else the suite's (confined to its folder), else the current folder. Mistakes are
/// written to `err`: `Err(2)`.
pub(crate) fn load_suite(
    path: &std::path::Path,
    skill: Option<&str>,
    given: &[PathBuf],
    err: &mut dyn Write,
) -> std::io::Result<Result<(Suite, Vec<PathBuf>), i32>> {
    let shown = one_line(&path.display().to_string()).into_owned();
    let text = match skillkit::files::read_text(path, skillkit::files::MAX_BYTES) {
        Ok(t) => t,
        Err(e) => {
            writeln!(err, "{shown}: error: cannot read: {}", skillkit::files::reason(&e))?;
            return Ok(Err(2));
        }
    };
    let suite: Suite = match skillkit::eval::suite::parse(&text, skill) {
        Ok(s) => s,
        Err(errors) => {
            for e in errors {
                writeln!(err, "{shown}:{}:{}: error: {}", e.line, e.column, e.message)?;
            }
            return Ok(Err(2));
        }
    };
    let sources = if !given.is_empty() {
        given.to_vec()
    } else if !suite.sources.is_empty() {
        match skillkit::session::script::confine_sources(&text, path, &suite.sources) {
            Ok(s) => s,
            Err(errors) => {
                for e in errors {
                    writeln!(err, "{shown}:{}:{}: error: {}", e.line, e.column, e.message)?;
                }
                return Ok(Err(2));
            }
        }
    } else {
        vec![PathBuf::from(".")]
    };
    Ok(Ok((suite, sources)))
}

/// A progress bar on standard error when it is a terminal; nothing otherwise.
pub(crate) fn progress_bar(total: u64) -> indicatif::ProgressBar {
    use std::io::IsTerminal;
    if !std::io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template("{bar:30} {pos}/{len} requests {elapsed}") {
        bar.set_style(style);
    }
    bar
}

pub(crate) fn number(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_string(), |x| format!("{x:.2}"))
}
