//! A whole `check` run: resolve paths into skills, read and lint each under one profile, and
//! count the results. The CLI renders it; the app shows it.

use crate::agent::Agent;
use crate::diagnostic::{Diagnostic, Severity};
use crate::discover::{find_skills, SearchIssue, SearchLimits, TargetError};
use crate::lint::{is_valid, lint};
use crate::read::read_skill_file;
use crate::skill::{FileProblem, Skill};
use std::path::PathBuf;

pub struct Checked {
    pub skill: Skill,
    pub diagnostics: Vec<Diagnostic>,
}

impl Checked {
    pub fn is_valid(&self) -> bool {
        is_valid(&self.diagnostics)
    }
    pub fn count(&self, severity: Severity) -> usize {
        self.diagnostics.iter().filter(|d| d.severity == severity).count()
    }
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Summary {
    pub skills: usize,
    pub valid: usize,
    pub invalid: usize,
    pub errors: usize,
    pub warnings: usize,
    pub infos: usize,
}

pub struct CheckRun {
    pub skills: Vec<Checked>,
    /// Folders the search could not look into (unreadable, symlink loops, broken links).
    pub issues: Vec<SearchIssue>,
}

impl CheckRun {
    pub fn summary(&self) -> Summary {
        let mut s = Summary { skills: self.skills.len(), ..Default::default() };
        for c in &self.skills {
            if c.is_valid() {
                s.valid += 1;
            } else {
                s.invalid += 1;
            }
            s.errors += c.count(Severity::Error);
            s.warnings += c.count(Severity::Warning);
            s.infos += c.count(Severity::Info);
        }
        s
    }
}

/// Check every skill found under `paths` with `agent`'s rules. A folder under which no skill is
/// found is reported as a skill folder missing its SKILL.md.
pub fn check_paths(paths: &[PathBuf], agent: &Agent) -> Result<CheckRun, TargetError> {
    let mut run = CheckRun { skills: vec![], issues: vec![] };
    let mut found = vec![];
    for p in paths {
        let search = find_skills(p, SearchLimits::default())?;
        if search.skills.is_empty() {
            // Asked to check a folder that holds no skill: as `skills-ref validate`, that is a
            // skill folder without its SKILL.md.
            let skill = Skill::unreadable(crate::read::resolve_dir(p), "SKILL.md", FileProblem::Missing);
            run.skills.push(Checked { diagnostics: lint(&skill, agent), skill });
        }
        found.extend(search.skills);
        run.issues.extend(search.issues);
    }
    found.dedup();
    for f in found {
        let skill = read_skill_file(&f.dir, f.file);
        let diagnostics = lint(&skill, agent);
        run.skills.push(Checked { skill, diagnostics });
    }
    Ok(run)
}
