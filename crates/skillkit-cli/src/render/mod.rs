//! One renderer per output format. Each writes a check's report as the check goes
//! ([`Report`]): a head, each skill as the engine hands it over, then what is known only at the
//! end (the summary, the folders the search could not look into).
//!
//! A library is hostile input: the human renderers (text, tree, session, eval's text) write
//! through [`skillkit::syntax::shown::Lines`], so that no control character from a skill reaches the
//! terminal and no line reads as a CI runner's command, and show each one-line value (a name, a
//! path, an id) through [`one_line`] first, so that a newline in it cannot start a line of its
//! own. The data formats (JSON, SARIF, JUnit, GitHub's workflow commands) escape by their own
//! rules; JSON and SARIF are written through [`skillkit::syntax::shown::Json`], so that a CI runner reads
//! no legacy command (`##[`) in them either.

pub mod github;
pub mod json;
pub mod matrix;
pub mod sarif;
pub mod session;
pub mod text;
pub mod tree;

use skillkit::syntax::shown::{escape, Allow};
use skillkit::verdict::AgentVerdict;
use std::borrow::Cow;
use std::path::Path;

/// One line of untrusted text (a name, a path, a case id) as shown to a person: every control
/// character escaped, newline and tab too.
pub fn one_line(text: &str) -> Cow<'_, str> {
    escape(text, Allow::NONE)
}

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
