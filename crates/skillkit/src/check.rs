//! A whole `check` run: resolve paths into skills, read and lint each under one profile, and
//! count the results. The CLI renders it; the app shows it.

use crate::agent::Agent;
use crate::library::discover::{DiscoveryPolicy, SearchIssue, TargetError};
use crate::library::{Keep, Library, LoadOptions, NameKey};
use crate::lint::diagnostic::{Diagnostic, Severity};
use crate::lint::{is_valid, lint};
use crate::skill::{FileProblem, Skill};
use crate::verdict::AgentVerdict;
use std::path::PathBuf;

pub struct Checked {
    /// Boxed, as in [`crate::library::Entry`]: moved from it without a copy.
    pub skill: Box<Skill>,
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
    /// What the profile's agent does with the skills, for profiles judged by their loader
    /// ([`crate::verdict`]).
    pub verdict: Option<AgentVerdict>,
}

impl CheckRun {
    pub fn summary(&self) -> Summary {
        let mut s = Summary::default();
        self.skills.iter().for_each(|c| s.add(c));
        s
    }
}

impl Summary {
    /// Counts one more skill.
    pub fn add(&mut self, c: &Checked) {
        self.skills += 1;
        if c.is_valid() {
            self.valid += 1;
        } else {
            self.invalid += 1;
        }
        self.errors += c.count(Severity::Error);
        self.warnings += c.count(Severity::Warning);
        self.infos += c.count(Severity::Info);
    }
}

/// Where [`check_each`] hands a check's results.
pub trait CheckSink {
    /// Once, before the first skill.
    fn begin(&mut self) -> std::io::Result<()>;
    /// Each skill, in report order, to be reported and dropped.
    fn skill(&mut self, checked: Checked) -> std::io::Result<()>;
}

/// What a check found besides its skills.
pub struct CheckEnd {
    /// Folders the search could not look into.
    pub issues: Vec<SearchIssue>,
    /// What the profile's agent does with the library, for profiles judged by their loader
    /// (known once every skill is read).
    pub verdict: Option<AgentVerdict>,
}

/// Checks every skill under `sources` (from [`check_sources`]) once, as [`check_run_keeping`]
/// does, handing each skill to `sink` in the same order with the same findings.
///
/// One source is read as a stream ([`crate::library::stream`]): each skill is handed over as soon
/// as it and the skills before it are linted (and, under a profile judged by its agent's loader,
/// read by that loader: whether it loads a skill depends on the skill alone,
/// [`crate::verdict::read_alone`]). Of the skills reported, only names and folders are kept, and
/// under an agent's profile the skills it skips, for the verdict; the skills in flight (at most
/// a window of them) are held whole until judged. So memory does not grow with the library.
/// Several sources (a skill may hide one of an earlier source) are read whole first, and kept as
/// `keep` says.
pub fn check_each(
    sources: &[PathBuf],
    agent: &Agent,
    keep: Keep,
    sink: &mut dyn CheckSink,
) -> std::io::Result<CheckEnd> {
    check_each_with(sources, agent, keep, crate::library::overlap::enabled(agent.as_ref()), sink)
}

/// [`check_each`], `competing` saying whether to look for descriptions that compete
/// (`competing-descriptions`, SK705, off unless the profile or the project's configuration sets
/// its level: [`crate::library::overlap::enabled`]).
pub fn check_each_with(
    sources: &[PathBuf],
    agent: &Agent,
    keep: Keep,
    competing: bool,
    sink: &mut dyn CheckSink,
) -> std::io::Result<CheckEnd> {
    let [source] = sources else { return check_whole(sources, agent, keep, competing, sink) };
    sink.begin()?;
    let mut any = false;
    // Under an agent's profile its loader reads each skill's parsed frontmatter: each skill is
    // made lean once judged, not where it is read.
    let mut judging = crate::verdict::judged_by_loader(agent).then(|| crate::verdict::VerdictBuilder::new(agent));
    let issues = crate::library::stream::read_in_order(
        source,
        DiscoveryPolicy::CHECK,
        NameKey::Frontmatter,
        agent.as_ref(),
        if judging.is_some() { Keep::All } else { keep },
        competing,
        &|e| crate::verdict::read_alone(e, agent),
        &mut |mut e, alone, outer| {
            crate::verdict::library_levels(&e.skill, outer, &mut e.diagnostics, agent);
            if let (Some(judging), Some(alone)) = (judging.as_mut(), alone) {
                e = judging.judge(e, alone, outer);
                keep.trim(&mut e.skill, &e.diagnostics);
            }
            any = true;
            sink.skill(Checked { skill: e.skill, diagnostics: e.diagnostics })
        },
    )?;
    let verdict = judging.map(crate::verdict::VerdictBuilder::finish);
    if !any && source.is_dir() {
        sink.skill(missing_skill_file(crate::read::resolve_dir(source), agent))?;
    }
    Ok(CheckEnd {
        issues: issues.into_iter().map(|i| SearchIssue { path: i.path, message: i.message }).collect(),
        verdict,
    })
}

/// [`check_each`] on the library read whole.
fn check_whole(
    sources: &[PathBuf],
    agent: &Agent,
    keep: Keep,
    competing: bool,
    sink: &mut dyn CheckSink,
) -> std::io::Result<CheckEnd> {
    let run = check_run_with(sources, agent, keep, competing);
    sink.begin()?;
    for c in run.skills {
        sink.skill(c)?;
    }
    Ok(CheckEnd { issues: run.issues, verdict: run.verdict })
}

/// A source folder under which no skill was found, as a skill folder missing its SKILL.md (as
/// `skills-ref validate` reports it).
fn missing_skill_file(root: PathBuf, agent: &Agent) -> Checked {
    let skill = Skill::unreadable(root, "SKILL.md", FileProblem::Missing);
    Checked { diagnostics: lint(&skill, agent), skill: Box::new(skill) }
}

/// The diagnostics of a skill file's text as an editor holds it (unsaved), at `path`: its
/// folder's `resources` (scanned afresh when `None`), judged as the agent's loader would judge the
/// skill alone ([`crate::verdict::lint_alone`]). The app's editor and `skillkit lsp` both lint
/// through this.
pub fn lint_text(
    path: &std::path::Path,
    text: String,
    agent: &Agent,
    resources: Option<crate::resources::Resources>,
) -> Vec<Diagnostic> {
    let dir = path.parent().unwrap_or(std::path::Path::new("."));
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut skill = Skill::parse(dir, &file, text);
    skill.resources =
        resources.or_else(|| Some(crate::resources::scan(dir, &file, crate::resources::ScanOptions::default())));
    crate::verdict::lint_alone(&skill, agent)
}

/// Turn `check` arguments into library sources: folders as they are, a `SKILL.md` as its folder.
pub fn check_sources(paths: &[PathBuf]) -> Result<Vec<PathBuf>, TargetError> {
    paths
        .iter()
        .map(|p| {
            let meta = std::fs::metadata(p).map_err(|_| TargetError::NotFound(p.clone()))?;
            if meta.is_dir() {
                return Ok(p.clone());
            }
            if crate::read::is_skill_file(p) {
                Ok(crate::session::script::folder_of(p).to_path_buf())
            } else {
                Err(TargetError::NotASkillFile(p.clone()))
            }
        })
        .collect()
}

impl CheckRun {
    /// The run's view of a library opened on `check` sources: every skill once (a skill reached
    /// through two arguments is listed once), each duplicate name once (on the later skill), and
    /// a folder under which no skill was found as a skill folder missing its SKILL.md (as
    /// `skills-ref validate` reports it).
    pub fn from_library(lib: &Library, agent: &Agent) -> CheckRun {
        Self::from_library_owned(lib.clone(), agent)
    }

    /// [`CheckRun::from_library`] without copying: the library's skills move into the run.
    pub fn from_library_owned(mut lib: Library, agent: &Agent) -> CheckRun {
        // A report gives each clash once, on the later skill, as it does when read as a stream.
        lib.resolve_clashes(false);
        let verdict = crate::verdict::judge_library(&mut lib, agent);
        let mut run = CheckRun { skills: vec![], issues: vec![], verdict };
        for (i, src) in lib.sources.iter().enumerate() {
            if src.exists && !lib.entries.iter().any(|e| e.source == i) {
                run.skills.push(missing_skill_file(src.root.clone(), agent));
            }
        }
        run.issues = lib.issues.into_iter().map(|i| SearchIssue { path: i.path, message: i.message }).collect();
        let mut seen = std::collections::HashSet::with_capacity_and_hasher(
            lib.entries.len(),
            foldhash::fast::RandomState::default(),
        );
        let first: Vec<bool> = lib.entries.iter().map(|e| seen.insert(e.skill.dir.as_path())).collect();
        drop(seen);
        run.skills.reserve(lib.entries.len());
        for (e, first) in lib.entries.into_iter().zip(first) {
            if first {
                run.skills.push(Checked { skill: e.skill, diagnostics: e.diagnostics });
            }
        }
        run
    }
}

/// Check every skill found under `paths` with `agent`'s rules ([`DiscoveryPolicy::CHECK`]).
pub fn check_paths(paths: &[PathBuf], agent: &Agent) -> Result<CheckRun, TargetError> {
    Ok(check_run(&check_sources(paths)?, agent))
}

/// Check every skill under `sources` (from [`check_sources`]) once, keeping results lean.
pub fn check_run(sources: &[PathBuf], agent: &Agent) -> CheckRun {
    check_run_keeping(sources, agent, Keep::Findings)
}

/// [`check_run`], keeping of each skill's text what `keep` says: a report that shows no source
/// lines needs only positions ([`Keep::Frontmatter`]).
pub fn check_run_keeping(sources: &[PathBuf], agent: &Agent, keep: Keep) -> CheckRun {
    check_run_with(sources, agent, keep, crate::library::overlap::enabled(agent.as_ref()))
}

/// [`check_run_keeping`], `competing` saying whether to look for descriptions that compete (see
/// [`check_each_with`]).
pub fn check_run_with(sources: &[PathBuf], agent: &Agent, keep: Keep, competing: bool) -> CheckRun {
    if !crate::verdict::judged_by_loader(agent) {
        let mut lib = Library::load(sources, LoadOptions::CHECK.keeping(keep), agent);
        lib.competing = competing;
        return CheckRun::from_library_owned(lib, agent);
    }
    // The agent's loader reads each skill's parsed frontmatter: the skills are made lean only
    // once it has.
    let mut lib = Library::load(sources, LoadOptions::CHECK, agent);
    lib.competing = competing;
    let mut run = CheckRun::from_library_owned(lib, agent);
    for c in &mut run.skills {
        keep.trim(&mut c.skill, &c.diagnostics);
    }
    run
}
