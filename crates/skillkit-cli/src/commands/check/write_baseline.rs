//! `check --write-baseline`: accept every finding of the check into the baseline file.

use super::context::Checking;
use skillkit::config::Baseline;
use skillkit::library::Keep;
use std::io::Write;
use std::path::Path;

pub(crate) fn write_baseline(c: &Checking<'_>, err: &mut dyn Write) -> std::io::Result<i32> {
    let (setup, baseline_path, baseline_dir) = (c.setup, &c.baseline_path, &c.baseline_dir);
    // Each skill's findings are taken as the check hands it over, and the skill dropped.
    let mut sink = Baselining { adjust: c.adjuster(), dir: baseline_dir, findings: vec![] };
    skillkit::check::check_each_with(&c.sources, c.agent, Keep::Frontmatter, c.competing(), &mut sink)?;
    c.note_baseline(sink.adjust.done().in_baseline, err)?;
    let b = Baseline::from_findings(sink.findings);
    // Written only inside the project (the configuration's folder, else the current one):
    // atomically, and never through a symlink that leads out.
    let within = setup.project.as_ref().map_or_else(|| baseline_dir.clone(), |p| p.dir.clone());
    if let Err(e) = skillkit::files::save(baseline_path, b.to_json().as_bytes(), &within) {
        writeln!(err, "error: the baseline was not written: {e}")?;
        return Ok(2);
    }
    let n = b.findings.len();
    writeln!(err, "wrote {n} finding{} to {}", if n == 1 { "" } else { "s" }, baseline_path.display())?;
    Ok(0)
}

/// Where the check of `--write-baseline` hands its skills: the project's adjustments, then each
/// finding into the baseline.
struct Baselining<'a> {
    adjust: skillkit::config::Adjust<'a>,
    dir: &'a Path,
    findings: Vec<skillkit::config::BaselineEntry>,
}

impl skillkit::check::CheckSink for Baselining<'_> {
    fn begin(&mut self) -> std::io::Result<()> {
        Ok(())
    }

    fn skill(&mut self, mut c: skillkit::check::Checked) -> std::io::Result<()> {
        let file = c.skill.path();
        if !self.adjust.changes_nothing() {
            self.adjust.skill(&file, &mut c.diagnostics);
        }
        self.findings.extend(skillkit::config::Baseline::entries(self.dir, &file, &c.diagnostics));
        Ok(())
    }
}
