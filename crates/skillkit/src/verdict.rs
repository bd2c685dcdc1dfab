//! One verdict per agent. Under the profile of an agent that loads skills (Claude Code, Codex,
//! Gemini CLI, DeepAgents and its V1/V2 templates, harness9), a skill is valid exactly when that
//! agent's loader loads it: its fate in the agent's prompt, rendered by the same code as
//! `skillkit prompt`, is anything but [`Decision::Invalid`]. The errors are then exactly what
//! makes the agent skip the skill: one `agent-skips-skill` (SK702) error carrying the agent's own
//! message, while every other error the rules found becomes a warning that says what the agent
//! does anyway. `spec` (the strict default) and `agentskills` (skills-ref's own validation) keep
//! their rules' levels; every profile applies its level to the library-level rules. Of two
//! skills of one name in one folder, the one the agent drops is skipped, with its reason (the
//! earlier of the two, already reported when the later is read, in the verdict at the end).
//!
//! Over 600 lines for one job, an agent's verdict on a library: the loader's fate of each skill,
//! the library-level findings at the agent's levels, the installed view of nested skills and the
//! duel of two skills of one name all work on the same fates and rivals.

use crate::agent::{Agent, Level};
use crate::library::{Library, LoadOptions, Source};
use crate::lint::diagnostic::{Diagnostic, Severity};
use crate::lint::rules::library::agent_skips_skill::AgentSkipsSkill;
use crate::lint::rules::library::bundled_skill_name::BundledSkillName;
use crate::lint::rules::library::competing_descriptions::CompetingDescriptions;
use crate::lint::rules::library::duplicate_skill_name::DuplicateSkillName;
use crate::lint::rules::library::nested_skill::NestedSkill;
use crate::lint::rules::library::shadowed_skill::ShadowedSkill;
use crate::prompt::{Decision, PromptOptions};
use crate::syntax::text::Span;
use std::collections::HashMap;
use std::path::PathBuf;

/// What an agent's loader does with one skill.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Fate {
    /// The skill's folder.
    pub dir: PathBuf,
    /// Whether the agent loads it (lists it, or would but for its listing budget, a setting, or
    /// a skill of the same name in a later scope that wins; not when one of the same name in the
    /// same folder wins: the agent keeps one of the two, [`VerdictBuilder::duel`]).
    pub loaded: bool,
    /// Why not, in the agent's words where it prints any.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub reason: Option<String>,
}

/// What an agent does with a whole library, for the end of `check`'s report.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct AgentVerdict {
    pub agent: &'static str,
    pub title: &'static str,
    /// Skills checked.
    pub skills: usize,
    /// Skills the agent loads.
    pub loaded: usize,
    /// The skills it skips, with why.
    pub skipped: Vec<Fate>,
}

impl AgentVerdict {
    /// "Claude Code loads 598 of 600 skills; it skips 2:" and so on, one line.
    pub fn sentence(&self) -> String {
        let skills = |n: usize| format!("{n} skill{}", if n == 1 { "" } else { "s" });
        if self.skipped.is_empty() {
            return format!("{} loads all {} checked.", self.title, skills(self.skills));
        }
        format!("{} loads {} of {}; it skips {}:", self.title, self.loaded, skills(self.skills), self.skipped.len())
    }
}

impl Library {
    /// Discovers, reads and lints every skill of `sources` (lowest priority first) the way
    /// `agent` does ([`Library::load`] with its discovery, clash key and rules), its loader's
    /// reading remembered and its verdict applied (see the module docs).
    pub fn for_agent(sources: &[PathBuf], agent: &Agent) -> Library {
        let mut lib = Self::load(sources, LoadOptions::new(agent.discovery, agent.key), agent);
        if let Some(read) = agent.read {
            read(&lib);
        }
        judge_library(&mut lib, agent);
        lib
    }

    /// Applies a batch of file changes ([`Library::apply_changes`]) under `agent`'s profile, then
    /// its verdict again: what a library from [`Library::for_agent`] follows changes with.
    pub fn apply_changes_for_agent(
        &mut self,
        changes: &[crate::library::watch::FsChange],
        agent: &Agent,
    ) -> Vec<crate::library::LibraryEvent> {
        let events = self.apply_changes(changes, &agent.lint);
        judge_library(self, agent);
        events
    }
}

/// Whether `agent`'s verdict is its loader's (see the module docs).
pub fn judged_by_loader(agent: &Agent) -> bool {
    agent.prompt.is_some() && agent.id != crate::agents::agentskills::AGENT.id
}

/// The fate under `agent`'s loader of the one skill of `lib`, a library of it alone laid out as
/// installed ([`installed_alone`]); `None` for profiles whose verdict is their rules' (see
/// [`judged_by_loader`]).
fn fate_alone(lib: &Library, agent: &Agent) -> Option<Fate> {
    if !judged_by_loader(agent) {
        return None;
    }
    let dir = lib.entries.first()?.skill.dir.clone();
    let prompt = agent.render(lib, &PromptOptions { decisions_only: true, ..PromptOptions::default() })?;
    // Any record of the skill that is not a rejection means the loader read it.
    let mut records = prompt.skills.iter().filter(|s| s.dir.as_deref() == Some(dir.as_path()));
    let first = records.next();
    Some(match first {
        None => Fate { dir, loaded: false, reason: Some(format!("{} finds no skill file it reads here", agent.title)) },
        Some(r) if r.decision == Decision::Invalid && !records.any(|s| s.decision != Decision::Invalid) => {
            Fate { dir, loaded: false, reason: Some(r.reason.as_deref().unwrap_or("not loaded").to_string()) }
        }
        Some(_) => Fate { dir, loaded: true, reason: None },
    })
}

/// Marks `fate` skipped when the skill is nested in skill `outer`'s folder and `agent` does not
/// look there.
fn nest(fate: &mut Fate, agent: &Agent, outer: Option<&std::path::Path>) {
    if let (false, Some(o)) = (agent.discovery.nested, outer) {
        fate.loaded = false;
        fate.reason = Some(format!("it does not look for skills inside another skill's folder (`{}`)", o.display()));
    }
}

/// The agent's name as people say it.
pub fn short_title(agent: &Agent) -> &'static str {
    match agent.id {
        "claude-code" => "Claude Code",
        "codex" => "Codex",
        "gemini-cli" => "Gemini CLI",
        "deepagents" => "DeepAgents",
        _ => agent.title,
    }
}

/// The four agents whose loading of a skill the warnings name ([`who_loads`]).
fn noted() -> [&'static Agent; 4] {
    [
        &crate::agents::claude_code::AGENT,
        &crate::agents::codex::AGENT,
        &crate::agents::gemini_cli::AGENT,
        &crate::agents::deepagents::AGENT,
    ]
}

/// "Claude Code, Codex and Gemini CLI load this skill, DeepAgents skips it; the specification
/// forbids this": what the four agents ([`noted`]) do with a skill, each agent's name with
/// whether it loads it.
fn who_loads(all: &[(&'static str, bool)]) -> String {
    let list = |names: &[&str]| match names {
        [] => String::new(),
        [one] => (*one).to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    };
    let loads: Vec<&str> = all.iter().filter(|(_, l)| *l).map(|(n, _)| *n).collect();
    let skips: Vec<&str> = all.iter().filter(|(_, l)| !*l).map(|(n, _)| *n).collect();
    let verb = |n: usize, one: &'static str, many: &'static str| if n == 1 { one } else { many };
    let mut s = format!("{} {} this skill", list(&loads), verb(loads.len(), "loads", "load"));
    if !skips.is_empty() {
        s.push_str(&format!(", {} {} it", list(&skips), verb(skips.len(), "skips", "skip")));
    }
    s.push_str("; the specification forbids this");
    s
}

/// For each entry, the folder of the skill it is nested in (the nearest one), if any: the skill
/// listed at the nearest folder above its own in the library (as a search finds it, symlinks
/// kept: a link to a folder inside another skill's is a skill of its own where it is listed).
pub fn nested_in(lib: &Library) -> Vec<Option<PathBuf>> {
    let listed: HashMap<&std::path::Path, usize> =
        lib.entries.iter().enumerate().map(|(i, e)| (e.listed_as.as_path(), i)).collect();
    lib.entries
        .iter()
        .map(|e| {
            let outer = e.listed_as.ancestors().skip(1).find_map(|a| listed.get(a))?;
            Some(lib.entries[*outer].skill.dir.clone())
        })
        .collect()
}

/// The agents (with a loader) that discover a skill nested in another skill's folder.
pub fn nested_discovered_by() -> Vec<&'static str> {
    crate::agents::AGENTS.iter().filter(|a| judged_by_loader(a) && a.discovery.nested).map(|a| a.id).collect()
}

/// The library as the agent would find its skills once installed where it looks: each skill in
/// a source that is its own parent folder. `check` finds skills at any depth (nested in plugin
/// folders, inside other skills); the loaders read a skill folder inside a source. Where the
/// agent's own discovery would not reach a skill is reported apart (the nesting marks).
pub fn as_installed(lib: &Library) -> Library {
    let mut view = lib.clone();
    let mut sources: Vec<Source> = vec![];
    let mut index: HashMap<PathBuf, usize> = HashMap::new();
    for e in &mut view.entries {
        let (parent, relisted) = installed_at(e);
        e.source = *index.entry(parent.clone()).or_insert_with(|| {
            sources.push(Source::new(&parent));
            sources.len() - 1
        });
        e.shadowed_by = None;
        if let Some(at) = relisted {
            e.listed_as = at;
        }
    }
    view.sources = sources;
    view.issues.clear();
    view
}

/// Where entry `e` is installed for a verdict: the folder it is listed in (`.` for a bare folder
/// name, as `check good` lists it), and, when its listed path names no folder of its own (`check
/// .` in a skill's folder), the skill's real folder to list it at instead, in its real parent.
/// (An empty source path is no folder, and DeepAgents and harness9 skip a source that is none.)
fn installed_at(e: &crate::library::Entry) -> (PathBuf, Option<PathBuf>) {
    let listed = &e.listed_as;
    if listed.file_name().is_none() {
        let parent = e.skill.dir.parent().map_or_else(|| e.skill.dir.clone(), std::path::Path::to_path_buf);
        return (parent, Some(e.skill.dir.clone()));
    }
    match listed.parent() {
        Some(p) if !p.as_os_str().is_empty() => (p.to_path_buf(), None),
        _ => (PathBuf::from("."), None),
    }
}

/// Applies `agent`'s verdict to every entry's diagnostics (see the module docs) and returns
/// what the agent does with the library, for profiles judged by their loader.
pub fn judge_library(lib: &mut Library, agent: &Agent) -> Option<AgentVerdict> {
    let outer = nested_in(lib);
    for (i, e) in lib.entries.iter_mut().enumerate() {
        library_levels(&e.skill, outer[i].as_deref(), &mut e.diagnostics, agent);
    }
    let shadowed = &ShadowedSkill::META;
    let hidden: Vec<Option<(String, PathBuf)>> = lib
        .entries
        .iter()
        .map(|e| {
            let by = &lib.entries[e.shadowed_by?];
            // A folder given twice (`check a a`) does not hide itself.
            (by.source != e.source && by.skill.dir != e.skill.dir).then(|| (by.key.clone(), by.skill.path()))
        })
        .collect();
    for (e, hidden) in lib.entries.iter_mut().zip(hidden) {
        e.diagnostics.retain(|d| d.code != shadowed.code);
        let Some((name, by)) = hidden else { continue };
        let severity = match agent.level(shadowed) {
            Level::Off => continue,
            Level::Default => shadowed.severity,
            Level::Set(s) => s,
        };
        let span = e.skill.frontmatter.get("name").map_or_else(|| frontmatter_start(&e.skill), |f| f.value.span);
        let message = format!("`{}` in a later source hides this skill (both are named `{name}`)", by.display());
        let help = "edits here change nothing the agent sees: rename one of the two, or delete this one";
        let d = shadowed.diagnostic(&e.skill, severity, span, message, help);
        e.diagnostics.push(d);
    }
    if !judged_by_loader(agent) {
        return None;
    }
    // Each skill as the stream judges it: read alone by the agent's loader (what it does with a
    // skill depends on the skill alone), then judged in order. A folder given twice (`check a a`)
    // counts once in the verdict.
    let mut verdict = VerdictBuilder { seen: Some(std::collections::HashSet::new()), ..VerdictBuilder::new(agent) };
    lib.entries = std::mem::take(&mut lib.entries)
        .into_iter()
        .zip(&outer)
        .map(|(e, outer)| match read_alone(e, agent) {
            (e, Some(fates)) => verdict.judge(e, fates, outer.as_deref()),
            (e, None) => e,
        })
        .collect();
    Some(verdict.finish())
}

/// What `agent` makes of the library-level findings of one skill: the nested-skill finding when
/// it lies inside the folder of skill `outer`, and the duplicate-name and competing-descriptions
/// findings at their levels.
/// Shadowing across sources is [`judge_library`]'s.
pub(crate) fn library_levels(
    skill: &crate::skill::Skill,
    outer: Option<&std::path::Path>,
    diagnostics: &mut Vec<Diagnostic>,
    agent: &Agent,
) {
    let nested = &NestedSkill::META;
    diagnostics.retain(|d| d.code != nested.code);
    if let Some(o) = outer {
        let severity = match agent.level(nested) {
            Level::Off => None,
            Level::Default => Some(nested.severity),
            Level::Set(s) => Some(s),
        };
        if let Some(severity) = severity {
            let message = format!(
                "this skill is inside the folder of skill `{}`: Codex discovers it; Claude Code, Gemini CLI and DeepAgents do not",
                o.display()
            );
            let help = "move it next to the outer skill, or make it a plain resource of it";
            diagnostics.push(nested.diagnostic(skill, severity, frontmatter_start(skill), message, help));
        }
    }
    bundled_name(skill, diagnostics, agent);
    for rule in [&DuplicateSkillName::META, &CompetingDescriptions::META] {
        match agent.level(rule) {
            Level::Default => {}
            Level::Off => diagnostics.retain(|d| d.code != rule.code),
            Level::Set(s) => diagnostics.iter_mut().filter(|d| d.code == rule.code).for_each(|d| d.severity = s),
        }
    }
}

/// The agents that bundle skills of their own: profile id, title, the names, and what wins.
fn bundlers() -> [(&'static str, &'static str, Vec<&'static str>, &'static str); 3] {
    use crate::agents::{claude_code, letta_code, qwen_code};
    let claude = claude_code::BUNDLED
        .iter()
        .chain(claude_code::BUNDLED_COMMANDS)
        .map(|(n, _)| *n)
        .chain([claude_code::BUILTIN_NAME])
        .collect();
    let qwen = qwen_code::BUNDLED.iter().map(|b| b.name).chain(qwen_code::BUNDLED_HIDDEN.iter().copied()).collect();
    let letta = letta_code::BUNDLED.iter().map(|(n, _)| *n).collect();
    [
        (
            "claude-code",
            "Claude Code 2.1.332",
            claude,
            "Claude Code lists the library's skill in the bundled one's place (`disableBundledSkills: true` turns its bundled skills off)",
        ),
        (
            "qwen-code",
            "Qwen Code 0.24.4",
            qwen,
            "Qwen Code ranks project and user skills above bundled ones (`skills.disabledLevels: [\"bundled\"]` turns them off)",
        ),
        (
            "letta-code",
            "Letta Code 0.32.18",
            letta,
            "Letta Code lets any skill folder replace a bundled skill of the same id (`--no-bundled-skills` turns them off)",
        ),
    ]
}

/// `bundled-skill-name` (SK706): the skill has the name of a skill an agent bundles. Under
/// `spec` and `agentskills` every such agent is named; under one of them, that one alone.
fn bundled_name(skill: &crate::skill::Skill, diagnostics: &mut Vec<Diagnostic>, agent: &Agent) {
    let meta = &BundledSkillName::META;
    diagnostics.retain(|d| d.code != meta.code);
    let severity = match agent.level(meta) {
        Level::Off => return,
        Level::Default => meta.severity,
        Level::Set(s) => s,
    };
    let every = matches!(agent.id, "spec" | "agentskills");
    let names = [skill.dir_name.as_str(), skill.display_name()];
    let mut hit: Option<&str> = None;
    let mut who = vec![];
    let mut wins = vec![];
    for (id, title, bundled, what) in bundlers() {
        if !every && agent.id != id {
            continue;
        }
        if let Some(n) = names.iter().find(|n| bundled.contains(n)) {
            hit.get_or_insert(n);
            who.push(title);
            wins.push(what);
        }
    }
    let Some(n) = hit else { return };
    let agents = match who.as_slice() {
        [one] => one.to_string(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
        [] => return,
    };
    let span = skill.frontmatter.get("name").map_or_else(|| frontmatter_start(skill), |f| f.value.span);
    let message = format!(
        "`{n}` is the name of a skill {agents} bundle{}: where this skill is installed it replaces theirs, silently",
        if who.len() == 1 { "s" } else { "" }
    );
    let help = format!("{}; rename this skill unless replacing the bundled one is the point", wins.join("; "));
    diagnostics.push(meta.diagnostic(skill, severity, span, message, help));
}

/// One skill's diagnostics under its fate.
/// `note`, when given, says what each agent does with the skill (see [`judge_library`]).
pub fn judge(
    skill: &crate::skill::Skill,
    diagnostics: &mut Vec<Diagnostic>,
    agent: &Agent,
    fate: &Fate,
    note: Option<&str>,
) {
    let meta = &AgentSkipsSkill::META;
    diagnostics.retain(|d| d.code != meta.code);
    for d in diagnostics.iter_mut().filter(|d| d.severity == Severity::Error) {
        d.severity = Severity::Warning;
        let note = if fate.loaded {
            note.map_or_else(
                || format!("{} loads this skill all the same; the specification forbids it", agent.title),
                str::to_string,
            )
        } else {
            format!("{} skips this skill: its own reason is {}", agent.title, meta.code)
        };
        d.help = Some(match d.help.take() {
            Some(help) => format!("{note}; {help}"),
            None => note,
        });
    }
    if fate.loaded {
        return;
    }
    let severity = match agent.level(meta) {
        Level::Off => return,
        Level::Default => meta.severity,
        Level::Set(s) => s,
    };
    let reason = fate.reason.as_deref().unwrap_or("not loaded");
    let d = meta.diagnostic(
        skill,
        severity,
        frontmatter_start(skill),
        format!("{} does not load this skill: {reason}", agent.title),
        format!("this is {}'s own reason; fix it and the skill loads", agent.title),
    );
    diagnostics.insert(0, d);
}

/// Where a library-level finding about the whole skill points: the start of its frontmatter.
fn frontmatter_start(skill: &crate::skill::Skill) -> Span {
    skill.split.yaml.map_or(Span::empty(0), |y| Span::new(y.start, y.start))
}

/// The diagnostics of one skill on its own (the editor's unsaved text) under `agent`: its rules,
/// then, for profiles judged by their loader, the agent's verdict on it as if it were installed
/// in its folder's parent.
pub fn lint_alone(skill: &crate::skill::Skill, agent: &Agent) -> Vec<Diagnostic> {
    let mut diagnostics = crate::lint::lint(skill, agent);
    judge_alone(skill, &mut diagnostics, agent);
    diagnostics
}

/// The agent's verdict on one skill alone (see [`lint_alone`]) applied to `diagnostics`, the
/// skill's rule findings; nothing for profiles that are not judged by their loader.
pub fn judge_alone(skill: &crate::skill::Skill, diagnostics: &mut Vec<Diagnostic>, agent: &Agent) {
    if !judged_by_loader(agent) {
        return;
    }
    let entry = crate::library::Entry {
        source: 0,
        listed_as: skill.dir.clone(),
        skill: Box::new(skill.clone()),
        diagnostics: vec![],
        key: skill.display_name().to_string(),
        shadowed_by: None,
        readings: Default::default(),
    };
    let (_, fate) = installed_alone(entry, |lib| fate_alone(lib, agent));
    if let Some(fate) = fate {
        judge(skill, diagnostics, agent, &fate, None);
    }
}

/// `f` on a library of entry `e` alone, installed in the parent of the folder it is listed at
/// (as [`as_installed`] lays each skill out, and as its source: no copy to make); then the entry
/// back as it was (its source, what hides it, where it is listed), without the readings `f` made.
fn installed_alone<T>(e: crate::library::Entry, f: impl FnOnce(&Library) -> T) -> (crate::library::Entry, T) {
    let (parent, relisted) = installed_at(&e);
    let (readings, source, shadowed_by) = (e.readings.len(), e.source, e.shadowed_by);
    let mut e = crate::library::Entry { source: 0, shadowed_by: None, ..e };
    let listed = relisted.map(|at| std::mem::replace(&mut e.listed_as, at));
    let lib = Library {
        sources: vec![Source::new(&parent)],
        policy: crate::library::discover::DiscoveryPolicy::CHECK,
        key: crate::library::NameKey::Frontmatter,
        entries: vec![e],
        issues: vec![],
        competing: false,
    };
    let out = f(&lib);
    let mut e = lib.entries.into_iter().next().expect("the entry put in");
    e.readings.truncate(readings);
    e.source = source;
    e.shadowed_by = shadowed_by;
    if let Some(listed) = listed {
        e.listed_as = listed;
    }
    (e, out)
}

/// What the agents' loaders make of one skill of a check read as a stream, before its place in
/// the library is known: worked out by [`read_alone`] where the skill is read, on every core,
/// and judged in report order by [`VerdictBuilder::judge`].
pub struct SkillFates {
    /// What the profile's agent does with the skill installed alone.
    fate: Fate,
    /// What the four agents the warnings name ([`noted`]) do with it, worked out when the skill
    /// has errors (the only findings they are named in).
    others: Option<Vec<(&'static Agent, Fate)>>,
}

/// What `agent` and, when the skill has errors, the four agents the warnings name make of entry
/// `e` installed alone: whether it reads and loads the skill depends on the skill alone (a
/// listing budget or a skill of the same name that wins leaves it loaded), so this is its fate
/// in the whole library too, nesting aside. `None` for profiles judged by their rules.
pub fn read_alone(e: crate::library::Entry, agent: &Agent) -> (crate::library::Entry, Option<SkillFates>) {
    if !judged_by_loader(agent) {
        return (e, None);
    }
    let errors = e.diagnostics.iter().any(|d| d.severity == Severity::Error);
    let (e, alone) = installed_alone(e, |lib| {
        let fate = fate_alone(lib, agent)?;
        let others = errors.then(|| others_alone(lib, agent, &fate));
        Some(SkillFates { fate, others })
    });
    (e, alone)
}

/// What the four agents [`noted`] make of the one skill of `lib`, `fate` being `agent`'s.
fn others_alone(lib: &Library, agent: &Agent, fate: &Fate) -> Vec<(&'static Agent, Fate)> {
    noted()
        .into_iter()
        .filter_map(|a| {
            let f = if a.id == agent.id { Some(fate.clone()) } else { fate_alone(lib, a) };
            Some((a, f?))
        })
        .collect()
}

/// Which of two skills of one name an agent drops ([`duel_of`]).
enum Side {
    Earlier,
    Later,
}

/// Which of `earlier` (judged before) and `later`, both loaded by `agent` and installed in
/// `parent`, the agent's loader drops when it finds the two there, with its reason; `None` when
/// it lists both. The earlier skill is read again from its folder (a stream keeps no skill it
/// has reported; duplicates are rare).
fn duel_of(
    agent: &Agent,
    parent: &std::path::Path,
    earlier: &Rival,
    later: &crate::skill::Skill,
    later_listed: &std::path::Path,
) -> Option<(Side, String)> {
    let first = crate::read::read_skill(&earlier.dir);
    let entry = |skill: crate::skill::Skill, listed_as: &std::path::Path| crate::library::Entry {
        source: 0,
        listed_as: listed_as.to_path_buf(),
        key: skill.display_name().to_string(),
        skill: Box::new(skill),
        diagnostics: vec![],
        shadowed_by: None,
        readings: Default::default(),
    };
    let lib = Library {
        sources: vec![Source::new(parent)],
        policy: crate::library::discover::DiscoveryPolicy::CHECK,
        key: crate::library::NameKey::Frontmatter,
        entries: vec![entry(first, &earlier.listed_as), entry(later.clone(), later_listed)],
        issues: vec![],
        competing: false,
    };
    let prompt = agent.render(&lib, &PromptOptions { decisions_only: true, ..PromptOptions::default() })?;
    let shadowed = prompt.skills.iter().find(|s| s.decision == Decision::Shadowed)?;
    let dir = shadowed.dir.as_deref()?;
    let reason = shadowed.reason.clone().unwrap_or_else(|| "a skill of the same name wins".into());
    if dir == earlier.dir {
        Some((Side::Earlier, reason))
    } else if dir == later.dir {
        Some((Side::Later, reason))
    } else {
        None
    }
}

/// An agent's verdict on a library, being built: each skill judged in report order (as a stream
/// reports it, or as [`judge_library`] goes through a library read whole), what the agent skips
/// kept for the end ([`VerdictBuilder::finish`]).
pub struct VerdictBuilder<'a> {
    agent: &'a Agent,
    skills: usize,
    loaded: usize,
    skipped: Vec<Fate>,
    /// The folders counted, when one can come twice (a library read whole from several
    /// sources, `check a a`): each counts once. A stream meets each folder once.
    seen: Option<std::collections::HashSet<PathBuf>>,
    /// The skills judged loaded so far, by the folder they are installed in and their name
    /// case-folded: where two meet, the agent may keep only one ([`VerdictBuilder::duel`]). Names and
    /// folders only, as a stream keeps.
    rivals: HashMap<(PathBuf, String), Vec<Rival>>,
}

/// A loaded skill another of the same name may meet ([`VerdictBuilder::duel`]).
struct Rival {
    dir: PathBuf,
    listed_as: PathBuf,
}

impl<'a> VerdictBuilder<'a> {
    pub fn new(agent: &'a Agent) -> Self {
        VerdictBuilder { agent, skills: 0, loaded: 0, skipped: vec![], seen: None, rivals: HashMap::new() }
    }

    /// Judges entry `e`, in report order (a stream's, or [`judge_library`]'s on a library read
    /// whole): `fates` is what [`read_alone`] made of it, `outer` the folder of the skill it is
    /// nested in, and its library-level findings are at their levels ([`library_levels`]).
    pub fn judge(
        &mut self,
        e: crate::library::Entry,
        fates: SkillFates,
        outer: Option<&std::path::Path>,
    ) -> crate::library::Entry {
        let SkillFates { mut fate, others } = fates;
        nest(&mut fate, self.agent, outer);
        let mut e = e;
        let counted = self.seen.as_ref().is_none_or(|seen| !seen.contains(&fate.dir));
        if fate.loaded && counted {
            self.duel(&e, &mut fate);
        }
        let mut note = None;
        if e.diagnostics.iter().any(|d| d.severity == Severity::Error) {
            // A skill whose only error is a library-level one (a duplicate name) was read
            // without the others' fates.
            let others = match others {
                Some(o) => o,
                None => {
                    let (back, o) = installed_alone(e, |lib| others_alone(lib, self.agent, &fate));
                    e = back;
                    o
                }
            };
            let all: Vec<(&'static str, bool)> = others
                .into_iter()
                .map(|(a, mut f)| {
                    nest(&mut f, a, outer);
                    (short_title(a), f.loaded)
                })
                .collect();
            note = Some(who_loads(&all));
        }
        judge(&e.skill, &mut e.diagnostics, self.agent, &fate, note.as_deref());
        if self.seen.as_mut().is_some_and(|seen| !seen.insert(fate.dir.clone())) {
            return e;
        }
        self.skills += 1;
        if fate.loaded {
            self.loaded += 1;
        } else {
            self.skipped.push(fate);
        }
        e
    }

    /// Entry `e`, which the agent loads, against the skills of the same name (case-folded)
    /// judged before it in the folder it is installed in: the agent's own loader, on the two
    /// alone, says which it lists (the later in its order, the first, or by chance; or both).
    /// When it drops `e`, `fate` says so, with the agent's reason; when it drops the earlier one
    /// (already reported: a report gives each skill as soon as it is read), the verdict counts
    /// that one skipped.
    fn duel(&mut self, e: &crate::library::Entry, fate: &mut Fate) {
        let (parent, relisted) = installed_at(e);
        let listed_as = relisted.unwrap_or_else(|| e.listed_as.clone());
        let key = (parent.clone(), e.skill.display_name().to_lowercase());
        let rivals = self.rivals.entry(key).or_default();
        let mut i = 0;
        while i < rivals.len() {
            let rival = &rivals[i];
            if rival.dir == e.skill.dir {
                return;
            }
            let Some(dropped) = duel_of(self.agent, &parent, rival, &e.skill, &listed_as) else {
                i += 1;
                continue;
            };
            match dropped {
                (Side::Later, reason) => {
                    fate.loaded = false;
                    fate.reason = Some(reason);
                    return;
                }
                (Side::Earlier, reason) => {
                    let rival = rivals.remove(i);
                    self.loaded -= 1;
                    self.skipped.push(Fate { dir: rival.dir, loaded: false, reason: Some(reason) });
                }
            }
        }
        rivals.push(Rival { dir: e.skill.dir.clone(), listed_as });
    }

    /// What the agent does with the library.
    pub fn finish(self) -> AgentVerdict {
        AgentVerdict {
            agent: self.agent.id,
            title: self.agent.title,
            skills: self.skills,
            loaded: self.loaded,
            skipped: self.skipped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A valid skill in `dir`, listed at `listed`.
    fn entry(dir: &std::path::Path, listed: &std::path::Path) -> crate::library::Entry {
        let text = "---\nname: good\ndescription: Does good things. Use when asked.\n---\nBody.\n".to_string();
        let skill = crate::skill::Skill::parse(dir, "SKILL.md", text);
        crate::library::Entry {
            source: 0,
            listed_as: listed.to_path_buf(),
            key: "good".into(),
            skill: Box::new(skill),
            diagnostics: vec![],
            shadowed_by: None,
            readings: Default::default(),
        }
    }

    /// A source given as a bare folder name (`check good`) or as `.` in the skill's own folder
    /// is installed in a folder that exists: DeepAgents and harness9 skip a source that does not,
    /// and skipped every such skill.
    #[test]
    fn a_skill_listed_as_a_bare_name_or_as_dot_is_installed_in_a_real_folder() {
        let t = tempfile::tempdir().unwrap();
        let dir = t.path().join("good");
        std::fs::create_dir_all(&dir).unwrap();
        for (listed, parent, relisted) in [
            (PathBuf::from("good"), PathBuf::from("."), None),
            (PathBuf::from("."), t.path().to_path_buf(), Some(dir.clone())),
            (dir.clone(), t.path().to_path_buf(), None),
        ] {
            assert_eq!(installed_at(&entry(&dir, &listed)), (parent, relisted), "{}", listed.display());
            for agent in [&crate::agents::deepagents::AGENT, &crate::agents::harness9::AGENT] {
                // Put back as it was: where it is listed, its source, what hides it.
                let given = crate::library::Entry { source: 3, shadowed_by: Some(7), ..entry(&dir, &listed) };
                let (back, alone) = read_alone(given, agent);
                assert_eq!((&back.listed_as, back.source, back.shadowed_by), (&listed, 3, Some(7)));
                let fate = alone.unwrap().fate;
                assert!(fate.loaded, "{} on `{}`: {:?}", agent.id, listed.display(), fate.reason);
            }
        }
    }

    /// `bundled-skill-name`: a skill named as an agent's bundled skill is reported with the
    /// agents that bundle it under `spec`, with that agent alone under its profile, not under
    /// another agent's; a name of its own is not.
    #[test]
    fn a_skill_named_as_a_bundled_one_is_reported_with_the_agents_that_bundle_it() {
        let t = tempfile::tempdir().unwrap();
        let find = |name: &str, agent: &Agent| {
            let dir = t.path().join(name);
            std::fs::create_dir_all(&dir).unwrap();
            std::fs::write(
                dir.join("SKILL.md"),
                format!("---\nname: {name}\ndescription: Tidies diffs.\n---\nBody.\n"),
            )
            .unwrap();
            let skill = crate::read::read_skill(&dir);
            let mut diagnostics = vec![];
            library_levels(&skill, None, &mut diagnostics, agent);
            diagnostics.into_iter().filter(|d| d.code == "SK706").map(|d| d.message).collect::<Vec<_>>()
        };
        let spec = &crate::agents::SPEC;
        assert_eq!(
            find("simplify", spec),
            ["`simplify` is the name of a skill Claude Code 2.1.332 and Qwen Code 0.24.4 bundle: where this skill is installed it replaces theirs, silently"]
        );
        assert_eq!(find("workflow-authoring", spec).len(), 1);
        assert!(find("workflow-authoring", spec)[0]
            .contains("Claude Code 2.1.332, Qwen Code 0.24.4 and Letta Code 0.32.18 bundle:"));
        assert_eq!(find("acquiring-skills", crate::find_agent("letta-code").unwrap()).len(), 1);
        assert!(find("acquiring-skills", crate::find_agent("claude-code").unwrap()).is_empty());
        assert!(find("simplify", crate::find_agent("codex").unwrap()).is_empty());
        assert!(find("plugin-authoring", crate::find_agent("claude-code").unwrap())[0]
            .contains("Claude Code 2.1.332 bundles:"));
        assert!(find("simplify-diff", spec).is_empty());
    }
}
