//! What `check`'s three modes share: the options, the baseline, how paths are shown, the report
//! chosen by `--format`, the exit code.

use crate::cli::{Color, Format};
use crate::render;
use crate::setup::Setup;
use skillkit::check::CheckRun;
use skillkit::config::{adjust_run, Baseline};
use skillkit::library::Keep;
use std::io::{IsTerminal, Write};
use std::path::{Path, PathBuf};

pub(crate) struct CheckOptions {
    pub(crate) format: Format,
    pub(crate) strict: bool,
    pub(crate) write_baseline: bool,
    pub(crate) color: Color,
    pub(crate) watch: bool,
    pub(crate) watch_changes: Option<usize>,
    pub(crate) package: bool,
}

/// One `check`: its setup, options, baseline and the skill folders found under its paths.
pub(crate) struct Checking<'a> {
    pub(crate) setup: &'a Setup,
    pub(crate) agent: &'static skillkit::Agent,
    pub(crate) opts: CheckOptions,
    pub(crate) baseline_path: PathBuf,
    pub(crate) baseline_dir: PathBuf,
    /// The baseline read (none with `--write-baseline`, which replaces it).
    pub(crate) baseline: Option<Baseline>,
    /// The skill folders to check (`check_sources` of the paths).
    pub(crate) sources: Vec<PathBuf>,
    display: Box<dyn Fn(&Path) -> String + 'a>,
    color: bool,
}

impl<'a> Checking<'a> {
    pub(crate) fn new(
        setup: &'a Setup,
        opts: CheckOptions,
        baseline_path: PathBuf,
        baseline: Option<Baseline>,
        sources: Vec<PathBuf>,
    ) -> Checking<'a> {
        let baseline_dir = baseline_path.parent().map(Path::to_path_buf).unwrap_or_default();
        let cwd = std::env::current_dir().unwrap_or_default();
        let display = Box::new(move |p: &Path| render::display_path(p, &cwd));
        let color = match opts.color {
            Color::Always => true,
            Color::Never => false,
            Color::Auto => {
                opts.format == Format::Text && std::io::stdout().is_terminal() && std::env::var_os("NO_COLOR").is_none()
            }
        };
        Checking { setup, agent: setup.agent, opts, baseline_path, baseline_dir, baseline, sources, display, color }
    }

    pub(crate) fn display(&self, p: &Path) -> String {
        (self.display)(p)
    }

    pub(crate) fn note_baseline(&self, n: usize, err: &mut dyn Write) -> std::io::Result<()> {
        if n > 0 {
            let s = if n == 1 { "" } else { "s" };
            writeln!(
                err,
                "note: {n} finding{s} accepted in the baseline ({}) not shown",
                self.baseline_path.display()
            )?;
        }
        Ok(())
    }

    /// The project's adjustments and the baseline, over a whole run.
    pub(crate) fn adjust(&self, run: &mut CheckRun, err: &mut dyn Write) -> std::io::Result<()> {
        let b = self.baseline.as_ref().map(|b| (b, self.baseline_dir.as_path()));
        self.note_baseline(adjust_run(self.setup.project.as_ref(), b, run).in_baseline, err)
    }

    /// The project's adjustments and the baseline, skill by skill.
    pub(crate) fn adjuster(&self) -> skillkit::config::Adjust<'_> {
        skillkit::config::Adjust::new(
            self.setup.project.as_ref(),
            self.baseline.as_ref().map(|b| (b, self.baseline_dir.as_path())),
        )
    }

    pub(crate) fn report(&self) -> Box<dyn render::Report + '_> {
        let agent = self.agent;
        let display = &*self.display;
        match self.opts.format {
            Format::Text => Box::new(render::text::Text { agent, display, color: self.color }),
            Format::Json => Box::new(render::json::Json::new(agent, display)),
            Format::Sarif => Box::new(render::sarif::Sarif::new(agent, display)),
            Format::Github => Box::new(render::github::Github { display }),
        }
    }

    pub(crate) fn exit_code(&self, s: &skillkit::check::Summary) -> i32 {
        if s.errors > 0 || (self.opts.strict && s.warnings > 0) {
            1
        } else {
            0
        }
    }

    pub(crate) fn warn(
        &self,
        issues: &[skillkit::library::discover::SearchIssue],
        err: &mut dyn Write,
    ) -> std::io::Result<()> {
        for issue in issues {
            writeln!(err, "warning: {}: {}", self.display(&issue.path), issue.message)?;
        }
        Ok(())
    }

    pub(crate) fn print(&self, run: &CheckRun, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
        self.warn(&run.issues, err)?;
        render::whole(&mut *self.report(), run, out)?;
        out.flush()?;
        Ok(self.exit_code(&run.summary()))
    }

    /// Whether to look for descriptions that compete (`competing-descriptions`, SK705): off
    /// unless the profile or the project's `[rules]` sets its level.
    pub(crate) fn competing(&self) -> bool {
        let code = skillkit::library::overlap::RULE.code;
        skillkit::library::overlap::enabled(self.agent.as_ref())
            || matches!(
                self.setup.project.as_ref().and_then(|p| p.level(code)),
                Some(skillkit::config::RuleLevel::Set(_))
            )
    }

    /// Text and SARIF reports show source lines (snippets, fix edits); the others give positions
    /// only, and a baseline records findings: the skills' bodies need not be kept for those.
    pub(crate) fn keep(&self) -> Keep {
        match self.opts.format {
            Format::Text | Format::Sarif => Keep::Findings,
            Format::Json | Format::Github => Keep::Frontmatter,
        }
    }
}
