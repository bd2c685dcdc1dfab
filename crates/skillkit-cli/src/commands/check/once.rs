//! `check`, once: each skill is reported as the check hands it over, and dropped.

use super::context::Checking;
use crate::render;
use std::io::Write;

pub(crate) fn once(c: &Checking<'_>, out: &mut dyn Write, err: &mut dyn Write) -> std::io::Result<i32> {
    // Each skill is reported as the check hands it over, and dropped.
    let mut sink = Reporting { report: c.report(), out, adjust: c.adjuster(), summary: Default::default() };
    let end = skillkit::check::check_each_with(&c.sources, c.agent, c.keep(), c.competing(), &mut sink)?;
    let Reporting { mut report, out, adjust, summary } = sink;
    c.warn(&end.issues, err)?;
    c.note_baseline(adjust.done().in_baseline, err)?;
    report.end(out, &render::End { summary, verdict: end.verdict.as_ref(), issues: &end.issues })?;
    out.flush()?;
    Ok(c.exit_code(&summary))
}

/// Where a one-shot check's skills go: the project's adjustments, the counts, the report.
struct Reporting<'a, 'o> {
    report: Box<dyn render::Report + 'a>,
    out: &'o mut dyn Write,
    adjust: skillkit::config::Adjust<'a>,
    summary: skillkit::check::Summary,
}

impl skillkit::check::CheckSink for Reporting<'_, '_> {
    fn begin(&mut self) -> std::io::Result<()> {
        self.report.begin(self.out)
    }

    fn skill(&mut self, mut c: skillkit::check::Checked) -> std::io::Result<()> {
        if !self.adjust.changes_nothing() {
            self.adjust.skill(&c.skill.path(), &mut c.diagnostics);
        }
        self.summary.add(&c);
        self.report.skill(self.out, &c)
    }
}
