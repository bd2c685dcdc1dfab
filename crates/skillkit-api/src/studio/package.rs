//! The Package pane: for the opened library, each package it ships in (the upload `.zip` of each
//! skill, a Claude Code plugin, a Codex plugin, an Agent Plugins package), what would refuse it
//! with the place, its size against the target's limits; and building them into a folder the
//! user chose ([`skillkit::package::pack`]).

use crate::events::PackageProgress;
use crate::prelude::*;
use skillkit::package::digest;
use skillkit::package::pack::{self, PackError, PackOptions, Target};
use skillkit::package::upload;

/// A package the app builds (`skillkit pack --target …`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum PackageTarget {
    /// The upload `.zip` of one skill (Claude.ai, Desktop, Teams, the Claude API).
    ClaudeAi,
    /// A Claude Code plugin in a one-plugin marketplace.
    ClaudePlugin,
    /// A Codex plugin.
    CodexPlugin,
    /// An Agent Plugins 1.0 package.
    AgentPlugin,
}

impl PackageTarget {
    pub const ALL: [PackageTarget; 4] =
        [PackageTarget::ClaudeAi, PackageTarget::ClaudePlugin, PackageTarget::CodexPlugin, PackageTarget::AgentPlugin];

    fn engine(self) -> Target {
        match self {
            PackageTarget::ClaudeAi => Target::ClaudeAi,
            PackageTarget::ClaudePlugin => Target::ClaudePlugin,
            PackageTarget::CodexPlugin => Target::CodexPlugin,
            PackageTarget::AgentPlugin => Target::AgentPlugin,
        }
    }

    /// The folder a plugin is written to inside the chosen folder, after the library's name.
    fn suffix(self) -> &'static str {
        match self {
            PackageTarget::ClaudeAi => "claude-ai",
            PackageTarget::ClaudePlugin => "claude-plugin",
            PackageTarget::CodexPlugin => "codex-plugin",
            PackageTarget::AgentPlugin => "agent-plugin",
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PackageTargets {
    pub sources: Vec<String>,
}

/// What refuses (an error) or weakens (a warning) a package, at its place: the file, and the
/// position when the finding has one (a skill's lint findings do; an upload limit does not).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PackageFailure {
    pub path: String,
    pub code: String,
    pub severity: Severity,
    pub message: String,
    pub help: Option<String>,
    pub start: Option<Position>,
}

/// One package to build: a skill's upload archive, or a plugin of a source's skills.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PackageRow {
    pub target: PackageTarget,
    /// The skill's name (uploads) or the plugin's.
    pub name: String,
    /// The source folder it is built from.
    pub source: String,
    /// What it writes inside the chosen folder: `alpha.zip`, `skills-claude-plugin`.
    pub out: String,
    pub skills: Vec<String>,
    /// No error: the build writes it.
    pub ready: bool,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub files: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub bytes: u64,
    /// The target's limits, when it has any (the upload: 200 files, 30 MB uncompressed).
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub max_files: Option<u64>,
    #[cfg_attr(feature = "ts", ts(type = "number | null"))]
    pub max_bytes: Option<u64>,
    pub failures: Vec<PackageFailure>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct PackageView {
    pub rows: Vec<PackageRow>,
}

#[derive(Clone, Debug, Deserialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BuildPackages {
    pub sources: Vec<String>,
    /// The targets to build; every package of each is written.
    pub targets: Vec<PackageTarget>,
    /// The folder the user chose: absolute, existing. Nothing is written outside it.
    pub out: String,
    /// Replace the packages' files or folders that exist (otherwise `exists`, nothing written).
    pub overwrite: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BuiltPackage {
    pub target: PackageTarget,
    pub name: String,
    pub path: String,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub files: u64,
    #[cfg_attr(feature = "ts", ts(type = "number"))]
    pub bytes: u64,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct BuildReport {
    pub out: String,
    pub written: Vec<BuiltPackage>,
}

/// A skill as the packages take it: checked as `skillkit pack` checks it.
struct PackSkill {
    dir: PathBuf,
    file: PathBuf,
    name: String,
    errors: Vec<PackageFailure>,
    files: Result<Vec<digest::SkillFile>, String>,
}

fn failure_of(path: &Path, d: &skillkit::lint::diagnostic::Diagnostic) -> PackageFailure {
    PackageFailure {
        path: path_string(path),
        code: d.code.to_string(),
        severity: d.severity,
        message: d.message.clone(),
        help: d.help.clone(),
        start: Some(d.start),
    }
}

fn sum(files: &[digest::SkillFile]) -> (u64, u64) {
    (files.len() as u64, files.iter().map(|f| f.size).sum())
}

/// Each source with its skills, checked by the specification's rules (what `pack` refuses on).
fn skills_of(sources: &[PathBuf]) -> Result<Vec<(PathBuf, Vec<PackSkill>)>, AppError> {
    let mut out = vec![];
    for source in sources {
        let run = skillkit::check::check_paths(std::slice::from_ref(source), &skillkit::agents::SPEC)
            .map_err(|e| AppError::new(ErrorCode::Io, e.to_string()))?;
        let mut skills: Vec<PackSkill> = run
            .skills
            .iter()
            .map(|c| {
                let file = c.skill.path();
                let errors = c
                    .diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Error)
                    .map(|d| failure_of(&file, d))
                    .collect();
                PackSkill {
                    dir: c.skill.dir.clone(),
                    file,
                    name: c.skill.display_name().to_string(),
                    errors,
                    files: digest::skill_files(&c.skill.dir).map_err(|e| e.to_string()),
                }
            })
            .collect();
        skills.sort_by(|a, b| a.name.cmp(&b.name));
        out.push((source.clone(), skills));
    }
    Ok(out)
}

/// The rows of one source: an upload per skill, then each plugin of the whole source.
fn rows_of(source: &Path, skills: &[PackSkill]) -> Vec<PackageRow> {
    let mut rows = vec![];
    for s in skills {
        let mut failures = s.errors.clone();
        let (files, bytes) = match &s.files {
            Ok(list) => {
                for f in pack::upload_findings(&s.name, list) {
                    failures.push(PackageFailure {
                        path: path_string(&s.file),
                        code: f.rule.code.to_string(),
                        severity: f.severity,
                        message: f.message,
                        help: Some(f.help),
                        start: None,
                    });
                }
                sum(list)
            }
            Err(e) => {
                failures.push(files_failure(&s.file, e));
                (0, 0)
            }
        };
        rows.push(PackageRow {
            target: PackageTarget::ClaudeAi,
            name: s.name.clone(),
            source: path_string(source),
            out: format!("{}.zip", pack::kebab(&s.name)),
            skills: vec![s.name.clone()],
            ready: !failures.iter().any(|f| f.severity == Severity::Error),
            files,
            bytes,
            max_files: Some(upload::MAX_FILES as u64),
            max_bytes: Some(upload::MAX_UNCOMPRESSED_BYTES),
            failures,
        });
    }
    let base = plugin_name(source);
    for target in &PackageTarget::ALL[1..] {
        let mut failures = vec![];
        let (mut files, mut bytes) = (1, 0);
        for s in skills {
            failures.extend(s.errors.iter().cloned());
            match &s.files {
                Ok(list) => {
                    let (n, b) = sum(list);
                    files += n;
                    bytes += b;
                }
                Err(e) => failures.push(files_failure(&s.file, e)),
            }
        }
        if skills.is_empty() {
            failures.push(PackageFailure {
                path: path_string(source),
                code: "no-skill".into(),
                severity: Severity::Error,
                message: format!("no skill found under {}", source.display()),
                help: None,
                start: None,
            });
        }
        rows.push(PackageRow {
            target: *target,
            name: base.clone(),
            source: path_string(source),
            out: format!("{base}-{}", target.suffix()),
            skills: skills.iter().map(|s| s.name.clone()).collect(),
            ready: failures.is_empty(),
            files,
            bytes,
            max_files: None,
            max_bytes: None,
            failures,
        });
    }
    rows
}

fn files_failure(file: &Path, e: &str) -> PackageFailure {
    PackageFailure {
        path: path_string(file),
        code: "files".into(),
        severity: Severity::Error,
        message: e.to_string(),
        help: None,
        start: None,
    }
}

/// A plugin's name: the source folder's, in kebab-case (as `skillkit pack` names it).
fn plugin_name(source: &Path) -> String {
    pack::kebab(&source.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
}

/// The chosen folder, absolute and existing, resolved.
fn chosen_folder(out: &str) -> Result<PathBuf, AppError> {
    let p = Path::new(out);
    if !p.is_absolute() {
        return Err(AppError::new(ErrorCode::Io, format!("{out}: choose a folder by its full path")));
    }
    let real = std::fs::canonicalize(p).map_err(|e| AppError::new(ErrorCode::Io, format!("{out}: {e}")))?;
    if !real.is_dir() {
        return Err(AppError::new(ErrorCode::Io, format!("{out} is not a folder")));
    }
    Ok(real)
}

/// Removes what `overwrite` replaces: a file, or a folder (never followed through a link).
fn remove(path: &Path) -> Result<(), AppError> {
    let meta = std::fs::symlink_metadata(path)
        .map_err(|e| AppError::new(ErrorCode::Io, format!("{}: {e}", path.display())))?;
    let r = if meta.is_dir() { std::fs::remove_dir_all(path) } else { std::fs::remove_file(path) };
    r.map_err(|e| AppError::new(ErrorCode::Io, format!("{}: {e}", path.display())))
}

impl Studio {
    /// Each package of the opened library's `sources`, what would refuse it and its size.
    pub fn package_targets(&self, args: PackageTargets) -> Result<PackageView, AppError> {
        let sources = crate::resolve::real_paths(&args.sources);
        self.check_folders(&sources)?;
        let mut rows = vec![];
        for (source, skills) in skills_of(&sources)? {
            rows.extend(rows_of(&source, &skills));
        }
        Ok(PackageView { rows })
    }

    /// Writes every package of `targets` into the chosen folder: all or nothing refused (a
    /// package that fails its rules: `package-refused`; a file that exists without
    /// `overwrite`: `exists`), then one by one, each reported to the host's progress sink.
    pub fn build_packages(&self, args: BuildPackages) -> Result<BuildReport, AppError> {
        let out = chosen_folder(&args.out)?;
        let sources = crate::resolve::real_paths(&args.sources);
        self.check_folders(&sources)?;
        let mut plan = vec![];
        for (source, skills) in skills_of(&sources)? {
            for row in rows_of(&source, &skills) {
                if args.targets.contains(&row.target) {
                    let dir = skills.iter().find(|s| row.target == PackageTarget::ClaudeAi && s.name == row.name);
                    plan.push((row, source.clone(), dir.map(|s| s.dir.clone())));
                }
            }
        }
        if plan.is_empty() {
            return Err(AppError::new(
                ErrorCode::PackageRefused,
                "nothing to build: choose a target of a library with skills",
            ));
        }
        let refused: Vec<&PackageRow> = plan.iter().map(|(r, ..)| r).filter(|r| !r.ready).collect();
        if !refused.is_empty() {
            let mut e = AppError::new(
                ErrorCode::PackageRefused,
                format!(
                    "{} package(s) fail their rules; nothing was built: {}",
                    refused.len(),
                    refused.iter().map(|r| r.out.as_str()).collect::<Vec<_>>().join(", ")
                ),
            );
            for r in &refused {
                for f in r.failures.iter().filter(|f| f.severity == Severity::Error) {
                    let (line, column) = f.start.map_or((0, 0), |p| (p.line as u32, p.column as u32));
                    e.details.push(crate::error::ErrorDetail {
                        message: format!("{}: {}: {} ({})", r.out, f.path, f.message, f.code),
                        line,
                        column,
                    });
                }
            }
            return Err(e);
        }
        // Every path is one name inside the chosen folder: nothing lands outside it.
        let dest = |r: &PackageRow| out.join(&r.out);
        let mut seen = std::collections::BTreeSet::new();
        let mut existing = vec![];
        for (r, ..) in &plan {
            let d = dest(r);
            if d.parent() != Some(out.as_path()) || !seen.insert(d.clone()) {
                return Err(AppError::new(
                    ErrorCode::Io,
                    format!("{}: two packages or a bad name would write here", d.display()),
                ));
            }
            if std::fs::symlink_metadata(&d).is_ok() {
                existing.push(d);
            }
        }
        if !existing.is_empty() && !args.overwrite {
            return Err(AppError::new(
                ErrorCode::Exists,
                format!(
                    "{} exist(s): choose another folder or overwrite",
                    existing.iter().map(|p| p.display().to_string()).collect::<Vec<_>>().join(", ")
                ),
            ));
        }
        for d in &existing {
            remove(d)?;
        }
        let progress = self.host.package_progress();
        let total = plan.len() as u32;
        let mut written = vec![];
        for (i, (row, source, dir)) in plan.iter().enumerate() {
            let d = dest(row);
            let (files, bytes) = match (row.target, dir) {
                (PackageTarget::ClaudeAi, Some(dir)) => {
                    let zip = pack::zip_skill(dir, &row.name).map_err(pack_error)?;
                    std::fs::write(&d, &zip)
                        .map_err(|e| AppError::new(ErrorCode::Io, format!("{}: {e}", d.display())))?;
                    (1, zip.len() as u64)
                }
                _ => {
                    let opts =
                        PackOptions { target: row.target.engine(), out: Some(d.clone()), name: Some(row.name.clone()) };
                    let p = pack::pack(source, &opts).map_err(pack_error)?;
                    (p.files as u64, p.bytes)
                }
            };
            if let Some(sink) = &progress {
                sink(PackageProgress { done: i as u32 + 1, total, path: path_string(&d) });
            }
            written.push(BuiltPackage {
                target: row.target,
                name: row.name.clone(),
                path: path_string(&d),
                files,
                bytes,
            });
        }
        Ok(BuildReport { out: path_string(&out), written })
    }
}

fn pack_error(e: PackError) -> AppError {
    match e {
        PackError::Refused { .. } | PackError::Invalid(_) | PackError::NoSkill(_) => {
            AppError::new(ErrorCode::PackageRefused, e.to_string())
        }
        PackError::Exists(_) => AppError::new(ErrorCode::Exists, e.to_string()),
        PackError::Io(m) => AppError::new(ErrorCode::Io, m),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::host::MemoryHost;
    use crate::state::Startup;
    use crate::studio::library::OpenLibrary;
    use std::sync::{Arc, Mutex};

    fn write(root: &Path, rel: &str, text: &str) {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// A library `lib` of two skills (`alpha` clean, `beta` as given) opened on a memory host.
    fn opened(beta: &str) -> (tempfile::TempDir, String, Studio, Arc<MemoryHost>) {
        let t = tempfile::tempdir().unwrap();
        let lib = t.path().join("My Lib");
        write(&lib, "alpha/SKILL.md", "---\nname: alpha\ndescription: Packs alpha.\n---\nBody.\n");
        write(&lib, "alpha/scripts/run.sh", "echo hi\n");
        write(&lib, "beta/SKILL.md", beta);
        let lib = path_string(&lib.canonicalize().unwrap());
        let host = Arc::new(MemoryHost::default());
        let studio =
            Studio::new(Startup { sources: vec![lib.clone()], agent: "spec".into(), examples: None }, host.clone());
        studio.open_library(OpenLibrary { sources: vec![lib.clone()], agent: "spec".into() }).unwrap();
        (t, lib, studio, host)
    }

    const BETA: &str = "---\nname: beta\ndescription: Packs beta.\n---\nBody.\n";

    #[test]
    fn each_target_lists_its_packages_with_sizes_against_the_upload_limits() {
        let (_t, lib, studio, _) = opened(BETA);
        let view = studio.package_targets(PackageTargets { sources: vec![lib] }).unwrap();
        let outs: Vec<(PackageTarget, &str, bool)> =
            view.rows.iter().map(|r| (r.target, r.out.as_str(), r.ready)).collect();
        assert_eq!(
            outs,
            [
                (PackageTarget::ClaudeAi, "alpha.zip", true),
                (PackageTarget::ClaudeAi, "beta.zip", true),
                (PackageTarget::ClaudePlugin, "my-lib-claude-plugin", true),
                (PackageTarget::CodexPlugin, "my-lib-codex-plugin", true),
                (PackageTarget::AgentPlugin, "my-lib-agent-plugin", true),
            ]
        );
        let alpha = &view.rows[0];
        let alpha_bytes = "---\nname: alpha\ndescription: Packs alpha.\n---\nBody.\n".len() as u64 + 8;
        assert_eq!((alpha.files, alpha.bytes), (2, alpha_bytes));
        assert_eq!((alpha.max_files, alpha.max_bytes), (Some(200), Some(30 * 1024 * 1024)));
        assert_eq!(view.rows[2].skills, ["alpha", "beta"]);
        assert_eq!(view.rows[2].max_files, None);
    }

    #[test]
    fn a_failure_points_at_its_file_and_place_and_the_upload_limit_says_its_own_message() {
        let (t, lib, studio, _) = opened("---\nname: Beta Skill\ndescription: Packs beta.\n---\nBody.\n");
        for i in 0..200 {
            write(&t.path().join("My Lib/alpha"), &format!("data/f{i}.txt"), "x");
        }
        let view = studio.package_targets(PackageTargets { sources: vec![lib.clone()] }).unwrap();
        let beta = view.rows.iter().find(|r| r.target == PackageTarget::ClaudeAi && r.name.contains("Beta")).unwrap();
        assert!(!beta.ready);
        let f = beta.failures.iter().find(|f| f.severity == Severity::Error).unwrap();
        assert!(f.path.ends_with("beta/SKILL.md"), "{f:?}");
        assert_eq!(f.start.map(|p| p.line), Some(2), "{f:?}");
        let alpha = view.rows.iter().find(|r| r.out == "alpha.zip").unwrap();
        assert_eq!(alpha.files, 202);
        assert!(!alpha.ready);
        assert!(alpha.failures.iter().any(|f| f.message == "Zip contains too many files (maximum 200)"), "{alpha:?}");
        // A plugin holds every skill: beta's error refuses each.
        assert!(view.rows.iter().filter(|r| r.target != PackageTarget::ClaudeAi).all(|r| !r.ready));
    }

    #[test]
    fn build_writes_each_package_into_the_chosen_folder_with_progress_and_refuses_existing_ones() {
        let (_t, lib, studio, host) = opened(BETA);
        let seen = Arc::new(Mutex::new(vec![]));
        let s = seen.clone();
        host.on_package_progress(Arc::new(move |p| s.lock().unwrap().push((p.done, p.total))));
        let out = tempfile::tempdir().unwrap();
        let args = |overwrite| BuildPackages {
            sources: vec![lib.clone()],
            targets: vec![PackageTarget::ClaudeAi, PackageTarget::AgentPlugin],
            out: path_string(out.path()),
            overwrite,
        };
        let report = studio.build_packages(args(false)).unwrap();
        let names: Vec<String> = report
            .written
            .iter()
            .map(|w| Path::new(&w.path).file_name().unwrap().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["alpha.zip", "beta.zip", "my-lib-agent-plugin"]);
        assert_eq!(*seen.lock().unwrap(), [(1, 3), (2, 3), (3, 3)]);
        let zip = std::fs::read(out.path().join("alpha.zip")).unwrap();
        let back = skillkit::package::archive::read_bytes(&zip).unwrap();
        let entries: Vec<&str> = back.entries.iter().map(|e| e.name.as_str()).collect();
        assert_eq!(entries, ["alpha/SKILL.md", "alpha/scripts/run.sh"]);
        assert!(out.path().join("my-lib-agent-plugin/plugin.json").is_file());
        assert!(out.path().join("my-lib-agent-plugin/skills/beta/SKILL.md").is_file());
        // Again: refused without overwrite, nothing touched; written again with it.
        std::fs::write(out.path().join("beta.zip"), "old").unwrap();
        let e = studio.build_packages(args(false)).unwrap_err();
        assert_eq!(e.code, ErrorCode::Exists);
        assert_eq!(std::fs::read(out.path().join("beta.zip")).unwrap(), b"old");
        studio.build_packages(args(true)).unwrap();
        assert_ne!(std::fs::read(out.path().join("beta.zip")).unwrap(), b"old");
    }

    #[test]
    fn build_refuses_a_failing_package_a_relative_folder_and_sources_outside_the_library() {
        let (t, lib, studio, _) = opened("---\nname: Beta Skill\ndescription: Packs beta.\n---\nBody.\n");
        let out = tempfile::tempdir().unwrap();
        let args = |sources: Vec<String>, out: String| BuildPackages {
            sources,
            targets: vec![PackageTarget::CodexPlugin],
            out,
            overwrite: false,
        };
        let e = studio.build_packages(args(vec![lib.clone()], path_string(out.path()))).unwrap_err();
        assert_eq!(e.code, ErrorCode::PackageRefused);
        assert!(e.details.iter().any(|d| d.message.contains("beta/SKILL.md") && d.line == 2), "{e:?}");
        assert_eq!(std::fs::read_dir(out.path()).unwrap().count(), 0);
        let e = studio.build_packages(args(vec![lib.clone()], "relative/out".into())).unwrap_err();
        assert_eq!(e.code, ErrorCode::Io);
        let elsewhere = path_string(&t.path().canonicalize().unwrap());
        let e = studio.build_packages(args(vec![elsewhere], path_string(out.path()))).unwrap_err();
        assert_eq!(e.code, ErrorCode::OutsideLibrary);
    }
}
