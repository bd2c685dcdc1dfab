//! One renderer per output format. Each writes a check's report as the check goes
//! ([`Report`]): a head, each skill as the engine hands it over, then what is known only at the
//! end (the summary, the folders the search could not look into).

pub mod github;
pub mod json;
pub mod sarif;
pub mod session;
pub mod text;
pub mod tree;

use skillkit::verdict::AgentVerdict;
use std::path::Path;

/// A path as users want to see it: relative to the current folder when inside it, with `/`.
pub fn display_path(p: &Path, cwd: &Path) -> String {
    let rel = p.strip_prefix(cwd).unwrap_or(p);
    let s = rel.to_string_lossy().replace('\\', "/");
    if s.is_empty() {
        ".".to_string()
    } else {
        s
    }
}

/// The displayed path of a skill's file.
pub fn skill_file(c: &skillkit::check::Checked, display: &dyn Fn(&Path) -> String) -> String {
    display(&c.skill.path())
}

/// A check's report, written as the check goes.
pub trait Report {
    /// Before the first skill.
    fn begin(&mut self, out: &mut dyn std::io::Write) -> std::io::Result<()>;
    fn skill(&mut self, out: &mut dyn std::io::Write, checked: &skillkit::check::Checked) -> std::io::Result<()>;
    fn end(&mut self, out: &mut dyn std::io::Write, end: &End<'_>) -> std::io::Result<()>;
}

/// What a report ends with.
pub struct End<'a> {
    pub summary: skillkit::check::Summary,
    /// What the profile's agent does with the library, when its loader judges the check.
    pub verdict: Option<&'a AgentVerdict>,
    /// Folders the search could not look into.
    pub issues: &'a [skillkit::library::discover::SearchIssue],
}

/// A whole check run through `report`.
pub fn whole(
    report: &mut dyn Report,
    run: &skillkit::check::CheckRun,
    out: &mut dyn std::io::Write,
) -> std::io::Result<()> {
    report.begin(out)?;
    for c in &run.skills {
        report.skill(out, c)?;
    }
    report.end(out, &End { summary: run.summary(), verdict: run.verdict.as_ref(), issues: &run.issues })
}
