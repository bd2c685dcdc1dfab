//! `skillkit check`: lint skills. Three modes, one file each: `--write-baseline` accepts every
//! finding into the baseline ([`write_baseline`]), a plain check reports each skill as it is
//! checked ([`once`]), `--watch` checks again after every change ([`watch`]). What they share
//! (the options, the baseline, the report, the exit code) is in [`context`].

pub(crate) mod context;
mod once;
mod watch;
mod write_baseline;

use crate::cli::{Color, Format};
use crate::setup::Setup;
use context::{CheckOptions, Checking};
use skillkit::check::check_sources;
use skillkit::config::Baseline;
use std::io::Write;
use std::path::PathBuf;

pub(crate) fn check(
    paths: Vec<PathBuf>,
    setup: &Setup,
    opts: CheckOptions,
    out: &mut dyn Write,
    err: &mut dyn Write,
) -> std::io::Result<i32> {
    let paths = setup.sources(paths);
    let how = super::pack::PackageCheck {
        force: opts.package,
        format: match opts.format {
            Format::Text => super::pack::ReportFormat::Text,
            Format::Json => super::pack::ReportFormat::Json,
            Format::Sarif => super::pack::ReportFormat::Sarif,
            Format::Github => super::pack::ReportFormat::Github,
        },
        strict: opts.strict,
        color: opts.color == Color::Always,
    };
    if let Some(code) = super::pack::check_packages(&paths, setup.agent, how, out, err)? {
        return Ok(code);
    }
    let baseline_path = setup.baseline_path();
    let baseline = match opts.write_baseline {
        false => match Baseline::read_if_present(&baseline_path) {
            Ok(b) => b,
            Err(e) => {
                writeln!(err, "error: {e}")?;
                return Ok(2);
            }
        },
        true => None,
    };
    let sources = match check_sources(&paths) {
        Ok(s) => s,
        Err(e) => {
            writeln!(err, "error: {e}")?;
            return Ok(2);
        }
    };
    let checking = Checking::new(setup, opts, baseline_path, baseline, sources);
    if checking.opts.write_baseline {
        return write_baseline::write_baseline(&checking, err);
    }
    if !checking.opts.watch {
        return once::once(&checking, out, err);
    }
    watch::watch(&checking, out, err)
}
