//! The project's configuration: `skillkit.toml`, or the `[tool.skillkit]` table of a
//! `pyproject.toml`, in the folder or the nearest folder above it that has one (as Ruff and agnix
//! find theirs). It says which agent judges the skills, where the skills are, which rules count
//! at which level, which findings to ignore under which paths, and a baseline of accepted
//! findings. `check`, `tree`, `prompt`, the language server and the app read it through
//! [`find`]; every consumer applies it to diagnostics through [`Project::adjust`], so they agree.
//! Its JSON Schema is [`SCHEMA_JSON`] (`skillkit schema --config`).
//!
//! ```toml
//! agent = "claude-code"
//! sources = ["skills"]
//! baseline = "skillkit-baseline.json"
//!
//! [rules]
//! SK601 = "off"
//! unquoted-colon = "warning"
//!
//! [per-path-ignores]
//! "skills/legacy/**" = ["reference-missing", "SK403"]
//! "vendor/**" = ["*"]
//!
//! [agents.claude-code]          # an agent's own listing settings (crate::agent_settings)
//! skillListingBudgetFraction = 0.02
//! skillOverrides = { legacy-helper = "name-only" }
//! ```

use crate::lint::diagnostic::{Diagnostic, Severity};
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

/// The JSON Schema of `skillkit.toml` (and of `[tool.skillkit]`).
pub const SCHEMA_JSON: &str = include_str!("../schema/skillkit.schema.json");

/// The file's contents as written.
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub struct Config {
    /// The agent whose profile judges the skills (`skillkit agents` lists them).
    #[serde(default)]
    pub agent: Option<String>,
    /// Skill sources, lowest priority first, relative to the file's folder: what `check`, `tree`
    /// and `prompt` read when given no path.
    #[serde(default)]
    pub sources: Vec<PathBuf>,
    /// Rule levels by code or name: `off`, `note`, `warning` or `error`.
    #[serde(default)]
    pub rules: BTreeMap<String, String>,
    /// Rules (codes or names, `*` for all) ignored for files under a glob, relative to the file's
    /// folder (`*` within a folder name, `**` across folders).
    #[serde(default)]
    pub per_path_ignores: BTreeMap<String, Vec<String>>,
    /// A baseline file of accepted findings (written by `skillkit check --write-baseline`).
    #[serde(default)]
    pub baseline: Option<PathBuf>,
    /// Each agent's own listing settings, by agent id (`[agents.claude-code]`): the keys of
    /// [`crate::agent_settings::SPECS`]. They win over the agent's own settings files and lose
    /// to the command line.
    #[serde(default)]
    pub agents: BTreeMap<String, toml::Table>,
    /// Keys this version does not know: reported as warnings, not errors, so that a newer file
    /// still works with an older `skillkit`.
    #[serde(flatten)]
    pub unknown: BTreeMap<String, toml::Value>,
}

/// A configuration file that could not be read or makes no sense: its path and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    pub path: PathBuf,
    pub message: String,
}

impl std::fmt::Display for ConfigError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.path.display(), self.message)
    }
}

/// What a rule is set to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RuleLevel {
    Off,
    Set(Severity),
}

/// A configuration found and checked, ready to apply.
#[derive(Clone, Debug)]
pub struct Project {
    /// The file it came from.
    pub path: PathBuf,
    /// The folder paths in it are relative to.
    pub dir: PathBuf,
    pub config: Config,
    /// Level by rule code.
    levels: HashMap<&'static str, RuleLevel>,
    /// (glob, rule codes; empty for all).
    ignores: Vec<(glob::Pattern, Vec<&'static str>)>,
    /// What the file says that this version ignores (unknown keys).
    pub warnings: Vec<String>,
    /// The `[agents.<agent>]` tables, checked.
    pub agent_settings: BTreeMap<String, crate::agent_settings::Layer>,
}

#[derive(Deserialize)]
struct Pyproject {
    tool: Option<Tool>,
}

#[derive(Deserialize)]
struct Tool {
    skillkit: Option<Config>,
}

/// The configuration that applies in `start` (a folder, or a file whose folder is meant): the
/// first `skillkit.toml`, or `pyproject.toml` with a `[tool.skillkit]` table, found walking up
/// from it. `Ok(None)` when there is none.
pub fn find(start: &Path) -> Result<Option<Project>, ConfigError> {
    let start = if start.is_file() { start.parent().unwrap_or(start) } else { start };
    let absolute = std::path::absolute(start).unwrap_or_else(|_| start.to_path_buf());
    // A name that is there but is no regular file (a FIFO, `/dev/zero`, a folder, a dangling
    // link) is an error, not "no configuration": a library must not switch its own off unseen.
    let present = |p: &Path| std::fs::symlink_metadata(p).is_ok();
    for dir in absolute.ancestors() {
        let own = dir.join("skillkit.toml");
        if present(&own) {
            let config = read(&own, |t| toml::from_str::<Config>(t))?;
            return Project::new(own, config).map(Some);
        }
        let py = dir.join("pyproject.toml");
        if present(&py) {
            let found = read(&py, |t| toml::from_str::<Pyproject>(t))?;
            if let Some(c) = found.tool.and_then(|t| t.skillkit) {
                return Project::new(py, c).map(Some);
            }
        }
    }
    Ok(None)
}

/// The configuration for a command run on `paths` from `cwd`: found from the first path, else
/// from `cwd`.
pub fn find_for(paths: &[PathBuf], cwd: &Path) -> Result<Option<Project>, ConfigError> {
    if let Some(first) = paths.first() {
        if let Some(p) = find(&cwd.join(first))? {
            return Ok(Some(p));
        }
    }
    find(cwd)
}

fn read<T>(path: &Path, parse: impl Fn(&str) -> Result<T, toml::de::Error>) -> Result<T, ConfigError> {
    let error = |message: String| ConfigError { path: path.to_path_buf(), message };
    let text = crate::files::read_text(path, 1 << 20).map_err(|e| error(crate::files::reason(&e)))?;
    parse(&text).map_err(|e| {
        // toml's span is a byte range: say the line, as the rest of the tool does.
        let at = e.span().map(|s| text[..s.start.min(text.len())].matches('\n').count() + 1);
        error(match at {
            Some(line) => format!("line {line}: {}", e.message()),
            None => e.message().to_string(),
        })
    })
}

/// A rule named by code (any case) or kebab-case name.
fn rule_code(key: &str) -> Option<&'static str> {
    crate::lint::rules::find_rule(key).map(|r| r.meta().code)
}

impl Project {
    /// Checks what the file says (rule names, levels, globs) and compiles it.
    pub fn new(path: PathBuf, config: Config) -> Result<Project, ConfigError> {
        let error = |message: String| ConfigError { path: path.clone(), message };
        let dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
        let mut levels = HashMap::new();
        for (key, level) in &config.rules {
            let code = rule_code(key)
                .ok_or_else(|| error(format!("[rules]: no rule `{key}` (`skillkit rules` lists them)")))?;
            let level = match level.as_str() {
                "off" => RuleLevel::Off,
                "note" | "info" => RuleLevel::Set(Severity::Info),
                "warning" => RuleLevel::Set(Severity::Warning),
                "error" => RuleLevel::Set(Severity::Error),
                other => {
                    return Err(error(format!(
                        "[rules]: `{key} = \"{other}\"`: a level is \"off\", \"note\", \"warning\" or \"error\""
                    )))
                }
            };
            levels.insert(code, level);
        }
        let mut ignores = vec![];
        for (glob, rules) in &config.per_path_ignores {
            let pattern =
                glob::Pattern::new(glob).map_err(|e| error(format!("[per-path-ignores]: `{glob}`: {}", e.msg)))?;
            let mut codes = vec![];
            let mut all = false;
            for r in rules {
                if r == "*" {
                    all = true;
                    continue;
                }
                codes.push(rule_code(r).ok_or_else(|| error(format!("[per-path-ignores] `{glob}`: no rule `{r}`")))?);
            }
            ignores.push((pattern, if all { vec![] } else { codes }));
        }
        if let Some(agent) = &config.agent {
            if crate::agents::find_agent(agent).is_none() {
                return Err(error(format!("agent: {}", crate::agents::unknown_agent(agent))));
            }
        }
        // The paths the file names stay inside its folder (see `crate::files`).
        for (i, source) in config.sources.iter().enumerate() {
            crate::files::confine(&dir, &dir, &format!("sources[{i}]"), &source.to_string_lossy())
                .map_err(|e| error(e.to_string()))?;
        }
        if let Some(b) = &config.baseline {
            crate::files::confine(&dir, &dir, "baseline", &b.to_string_lossy()).map_err(|e| error(e.to_string()))?;
        }
        let mut agent_settings = BTreeMap::new();
        for (id, table) in &config.agents {
            let Some(agent) = crate::agents::find_agent(id) else {
                return Err(error(format!("[agents.{id}]: {}", crate::agents::unknown_agent(id))));
            };
            let layer =
                crate::agent_settings::parse_table(agent.id, table, &format!("[agents.{id}]")).map_err(error)?;
            agent_settings.insert(agent.id.to_string(), layer);
        }
        let warnings = config
            .unknown
            .keys()
            .map(|k| format!("{}: unknown key `{k}`, ignored (a newer skillkit may read it)", path.display()))
            .collect();
        Ok(Project { path, dir, config, levels, ignores, warnings, agent_settings })
    }

    /// The configured sources as paths (relative ones taken from the file's folder).
    pub fn sources(&self) -> Vec<PathBuf> {
        self.config.sources.iter().map(|s| self.dir.join(s)).collect()
    }

    /// The configured baseline file, as a path.
    pub fn baseline(&self) -> Option<PathBuf> {
        self.config.baseline.as_ref().map(|b| self.dir.join(b))
    }

    /// The level `[rules]` sets for a rule code, if any.
    pub fn level(&self, code: &str) -> Option<RuleLevel> {
        self.levels.get(code).copied()
    }

    /// `file`'s diagnostics as the project wants them: rules set off or ignored under the file's
    /// path dropped, severities set by `[rules]` applied.
    pub fn adjust(&self, file: &Path, diagnostics: &mut Vec<Diagnostic>) {
        if self.levels.is_empty() && self.ignores.is_empty() {
            return;
        }
        let relative = relative_to(file, &self.dir);
        let options = glob::MatchOptions { require_literal_separator: true, ..Default::default() };
        let ignored: Vec<&[&'static str]> = match &relative {
            Some(rel) => self
                .ignores
                .iter()
                .filter(|(p, _)| {
                    // A glob matches the file or any folder above it ("legacy/**", "legacy/*", "legacy").
                    rel.ancestors().filter(|a| !a.as_os_str().is_empty()).any(|a| p.matches_path_with(a, options))
                })
                .map(|(_, codes)| codes.as_slice())
                .collect(),
            None => vec![],
        };
        diagnostics.retain_mut(|d| {
            if ignored.iter().any(|codes| codes.is_empty() || codes.contains(&d.code)) {
                return false;
            }
            match self.levels.get(d.code) {
                Some(RuleLevel::Off) => false,
                Some(RuleLevel::Set(s)) => {
                    d.severity = *s;
                    true
                }
                None => true,
            }
        });
    }
}

/// The default baseline file's name, in the configuration's folder (or the current one).
pub const BASELINE_FILE: &str = "skillkit-baseline.json";

/// What a project's configuration did to a check's results.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Adjusted {
    /// Findings left out because the baseline accepts them.
    pub in_baseline: usize,
}

/// A check's results as the project wants them ([`Project::adjust`] on every skill; `project`
/// may be absent), then without the findings `baseline` accepts (paths relative to
/// `baseline_dir`).
pub fn adjust_run(
    project: Option<&Project>,
    baseline: Option<(&Baseline, &Path)>,
    run: &mut crate::check::CheckRun,
) -> Adjusted {
    let mut adjust = Adjust::new(project, baseline);
    if adjust.changes_nothing() {
        return Adjusted::default();
    }
    for c in &mut run.skills {
        adjust.skill(&c.skill.path(), &mut c.diagnostics);
    }
    adjust.done()
}

/// [`adjust_run`] one skill at a time, for a check reported as it goes.
pub struct Adjust<'a> {
    project: Option<&'a Project>,
    filter: Option<BaselineFilter>,
}

impl<'a> Adjust<'a> {
    pub fn new(project: Option<&'a Project>, baseline: Option<(&Baseline, &Path)>) -> Self {
        Adjust { project, filter: baseline.map(|(b, dir)| b.filter(dir)) }
    }

    /// Whether there is neither a project nor a baseline.
    pub fn changes_nothing(&self) -> bool {
        self.project.is_none() && self.filter.is_none()
    }

    /// The findings of skill file `file` as the project wants them.
    pub fn skill(&mut self, file: &Path, diagnostics: &mut Vec<Diagnostic>) {
        if let Some(p) = self.project {
            p.adjust(file, diagnostics);
        }
        if let Some(f) = self.filter.as_mut() {
            f.apply(file, diagnostics);
        }
    }

    pub fn done(self) -> Adjusted {
        Adjusted { in_baseline: self.filter.map_or(0, |f| f.dropped) }
    }
}

/// Reads a configuration file named explicitly (`--config`).
pub fn load(path: &Path) -> Result<Project, ConfigError> {
    let is_py = path.file_name().is_some_and(|n| n == "pyproject.toml");
    let config = if is_py {
        read(path, |t| toml::from_str::<Pyproject>(t))?.tool.and_then(|t| t.skillkit).unwrap_or_default()
    } else {
        read(path, |t| toml::from_str::<Config>(t))?
    };
    Project::new(std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf()), config)
}

impl Project {
    /// Every entry of a library as the project wants it ([`Project::adjust`]). Applying it again
    /// changes nothing, so it can follow each watched batch.
    pub fn adjust_library(&self, lib: &mut crate::library::Library) {
        for e in &mut lib.entries {
            let file = e.skill.path();
            self.adjust(&file, &mut e.diagnostics);
        }
    }
}

/// `path` relative to `dir` (both made absolute), or `None` when it is not below it.
fn relative_to(path: &Path, dir: &Path) -> Option<PathBuf> {
    let path = std::path::absolute(path).ok()?;
    let dir = std::path::absolute(dir).ok()?;
    path.strip_prefix(&dir).ok().map(Path::to_path_buf)
}

/// One accepted finding: where, which rule, what it said. Lines are left out on purpose, so an
/// edit above a finding does not make it new.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
pub struct BaselineEntry {
    /// The file, relative to the baseline's folder, with `/` separators.
    pub path: String,
    pub code: String,
    pub message: String,
}

/// Accepted findings (`skillkit check --write-baseline`): a check shows only findings not in it.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Baseline {
    pub version: u32,
    pub findings: Vec<BaselineEntry>,
}

impl Baseline {
    /// The baseline of `found` (file, its diagnostics), paths relative to `dir`.
    pub fn of<'a>(dir: &Path, found: impl IntoIterator<Item = (&'a Path, &'a [Diagnostic])>) -> Baseline {
        Self::from_findings(found.into_iter().flat_map(|(file, ds)| Self::entries(dir, file, ds)).collect())
    }

    /// The entries of the diagnostics `ds` of `file`, its path relative to `dir`.
    pub fn entries<'a>(dir: &Path, file: &Path, ds: &'a [Diagnostic]) -> impl Iterator<Item = BaselineEntry> + 'a {
        let path = key_path(file, dir);
        ds.iter().map(move |d| BaselineEntry {
            path: path.clone(),
            code: d.code.to_string(),
            message: d.message.clone(),
        })
    }

    /// The baseline of these findings, in any order.
    pub fn from_findings(mut findings: Vec<BaselineEntry>) -> Baseline {
        findings.sort();
        Baseline { version: 1, findings }
    }

    pub fn to_json(&self) -> String {
        let mut s = serde_json::to_string_pretty(self).unwrap_or_default();
        s.push('\n');
        s
    }

    /// Reads a baseline file.
    pub fn read(path: &Path) -> Result<Baseline, ConfigError> {
        Self::read_if_present(path)?
            .ok_or_else(|| ConfigError { path: path.to_path_buf(), message: "no such file".into() })
    }

    /// Reads a baseline file, `Ok(None)` when there is none; anything there that is not a
    /// readable regular file (a FIFO, a device, a folder, a dangling link) is an error.
    pub fn read_if_present(path: &Path) -> Result<Option<Baseline>, ConfigError> {
        let error = |message: String| ConfigError { path: path.to_path_buf(), message };
        let Some(text) =
            crate::files::read_text_if_present(path, 64 << 20).map_err(|e| error(crate::files::reason(&e)))?
        else {
            return Ok(None);
        };
        let b: Baseline = serde_json::from_str(&text).map_err(|e| error(format!("not a baseline: {e}")))?;
        if b.version != 1 {
            return Err(error(format!("baseline version {} is not one this skillkit reads (1)", b.version)));
        }
        Ok(Some(b))
    }

    /// A filter that drops each accepted finding once (a finding accepted twice is dropped twice).
    pub fn filter(&self, dir: &Path) -> BaselineFilter {
        let mut left: HashMap<BaselineEntry, usize> = HashMap::new();
        for f in &self.findings {
            *left.entry(f.clone()).or_default() += 1;
        }
        BaselineFilter { dir: dir.to_path_buf(), left, dropped: 0 }
    }
}

/// Drops findings of a baseline, counting them.
pub struct BaselineFilter {
    dir: PathBuf,
    left: HashMap<BaselineEntry, usize>,
    /// How many findings were dropped so far.
    pub dropped: usize,
}

impl BaselineFilter {
    pub fn apply(&mut self, file: &Path, diagnostics: &mut Vec<Diagnostic>) {
        if self.left.is_empty() {
            return;
        }
        let path = key_path(file, &self.dir);
        diagnostics.retain(|d| {
            let key = BaselineEntry { path: path.clone(), code: d.code.to_string(), message: d.message.clone() };
            match self.left.get_mut(&key) {
                Some(n) if *n > 0 => {
                    *n -= 1;
                    self.dropped += 1;
                    false
                }
                _ => true,
            }
        });
    }
}

/// A file's path in a baseline: relative to its folder where it can be, `/`-separated.
fn key_path(file: &Path, dir: &Path) -> String {
    let rel = relative_to(file, dir).unwrap_or_else(|| file.to_path_buf());
    rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/")
}

/// The settings of `agent` for a library: the agent's own files in the project (the
/// configuration's folder, else the first source's project), the configuration's
/// `[agents.<agent>]`, then `assignments` (`KEY=VALUE`, last wins). The user's own files are not
/// read (only `--user-settings` reads them). One resolution for every front end that has no
/// command line of its own (the app's Prompt and Matrix panes); `Err` for a bad assignment.
pub fn agent_settings_for(
    agent: &str,
    sources: &[std::path::PathBuf],
    project: Option<&Project>,
    assignments: &[String],
) -> Result<(crate::agent_settings::AgentSettings, Vec<String>), String> {
    use crate::agent_settings::{project_for, resolve, Sources};
    let found = Sources {
        project: project_for(project.map(|p| p.dir.as_path()), sources.first().map(std::path::PathBuf::as_path)),
        home: None,
        config: project.and_then(|p| p.agent_settings.get(agent).map(|l| (l.clone(), p.path.clone()))),
        assignments,
    };
    resolve(agent, &found)
}

#[cfg(test)]
mod tests;
