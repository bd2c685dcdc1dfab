//! The library × agent matrix: for every skill of a library and every agent, what the agent does
//! with it, from the same renders as `skillkit prompt` (each agent's discovery, its loader's
//! reading, its listing and budget): listed in full, with a shortened description, by name only,
//! dropped by the budget, hidden on purpose, skipped (with the agent's reason), shadowed (by which
//! copy), or not discovered at all (its folder is not one the agent reads); and whether the
//! outcome depends on chance (an agent whose result varies between runs).
//!
//! The rows are every skill file a check finds under the sources (at any depth, nested skills
//! included); each agent's column comes from its own library of the same sources. Agents that
//! discover alike share one reading of the files: the libraries are loaded once per discovery
//! policy, unlinted (only the loaders' readings matter here), and dropped before the next.

use crate::agent::Agent;
use crate::library::discover::{discover, Depth, DiscoveryPolicy};
use crate::library::{Library, Reused};
use crate::prompt::{Decision, PromptOptions, PromptSkill};
use serde::Serialize;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// What an agent does with one skill, best first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Listed with its whole description.
    Full,
    /// Listed with a shortened description.
    Shortened,
    /// Listed by name only.
    NameOnly,
    /// Left out of the listing by the agent's budget.
    Dropped,
    /// Left out on purpose (`disable-model-invocation`, a setting).
    Hidden,
    /// A skill of the same name wins.
    Shadowed,
    /// The agent's loader rejects it.
    Skipped,
    /// The agent does not look where the skill is.
    NotDiscovered,
}

impl Status {
    /// Every status, best first.
    pub const ALL: [Status; 8] = [
        Status::Full,
        Status::Shortened,
        Status::NameOnly,
        Status::Dropped,
        Status::Hidden,
        Status::Shadowed,
        Status::Skipped,
        Status::NotDiscovered,
    ];

    /// The model sees the skill in the listing (in full, shortened or by name).
    pub fn listed(self) -> bool {
        matches!(self, Status::Full | Status::Shortened | Status::NameOnly)
    }

    /// In words, as a table cell says it.
    pub fn label(self) -> &'static str {
        match self {
            Status::Full => "listed in full",
            Status::Shortened => "description shortened",
            Status::NameOnly => "name only",
            Status::Dropped => "dropped by the budget",
            Status::Hidden => "hidden",
            Status::Shadowed => "shadowed",
            Status::Skipped => "skipped",
            Status::NotDiscovered => "not discovered",
        }
    }

    fn of(decision: Decision) -> Status {
        match decision {
            Decision::Full => Status::Full,
            Decision::Truncated => Status::Shortened,
            Decision::NameOnly => Status::NameOnly,
            Decision::Dropped => Status::Dropped,
            Decision::Hidden => Status::Hidden,
            Decision::Shadowed => Status::Shadowed,
            Decision::Invalid => Status::Skipped,
        }
    }
}

/// The bar `--require` sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Bar {
    /// Listed with the whole description.
    Full,
    /// Listed at all (in full, shortened or by name).
    Listed,
}

impl Bar {
    /// Whether `cell` meets the bar: a cell whose outcome depends on chance never does.
    pub fn met_by(self, cell: &Cell) -> bool {
        cell.chance.is_none()
            && match self {
                Bar::Full => cell.status == Status::Full,
                Bar::Listed => cell.status.listed(),
            }
    }
}

/// One agent's outcome for one skill.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Cell {
    pub status: Status,
    /// Why, in the agent's words where it has any: every status but a full listing has one.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub reason: Option<String>,
    /// What makes the outcome vary between runs of the agent, when it does.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub chance: Option<String>,
}

/// One skill of the library: a row.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Row {
    /// The name the agents list it under (the first that lists it), else its folder's name.
    pub name: String,
    /// Its skill file as found through the source (symlinks kept).
    pub path: String,
    /// Its skill file's real path (the folder's symlinks resolved): the path an editor opens.
    pub file: String,
    /// Index of its source.
    pub source: usize,
    /// One cell per column, in the columns' order.
    pub cells: Vec<Cell>,
    /// The skill's folder (its real path).
    #[serde(skip)]
    #[cfg_attr(feature = "ts", ts(skip))]
    pub dir: PathBuf,
}

/// The budget an agent applied, as its column shows it.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct ColumnBudget {
    pub limit: usize,
    pub needed: usize,
    pub unit: String,
    pub rule: String,
}

/// One agent: a column.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Column {
    pub agent: String,
    pub title: String,
    /// A short name with the version it matches ("Claude Code 2.1").
    pub label: String,
    /// The program and version the profile reproduces.
    pub source: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "ts", ts(optional))]
    pub budget: Option<ColumnBudget>,
    /// How many of the rows have each status, in [`Status::ALL`]'s order.
    pub counts: Vec<usize>,
    /// Rows whose outcome depends on chance.
    pub by_chance: usize,
    /// The agent's own skills it lists besides the library's.
    pub built_in: Vec<String>,
    /// What the agent reports while loading.
    pub warnings: Vec<String>,
}

/// The whole matrix.
#[derive(Clone, Debug, Serialize)]
#[cfg_attr(feature = "ts", derive(ts_rs::TS))]
pub struct Matrix {
    /// The sources, as given, lowest priority first.
    pub sources: Vec<String>,
    pub columns: Vec<Column>,
    pub rows: Vec<Row>,
}

/// A skill that misses a bar for an agent.
#[derive(Clone, Debug)]
pub struct Miss<'a> {
    pub row: &'a Row,
    pub column: &'a Column,
    pub cell: &'a Cell,
}

impl Matrix {
    /// The cells of the columns of `agents` (every column when empty) that miss `bar`.
    pub fn misses(&self, bar: Bar, agents: &[&str]) -> Vec<Miss<'_>> {
        let mut out = vec![];
        for row in &self.rows {
            for (column, cell) in self.columns.iter().zip(&row.cells) {
                if (agents.is_empty() || agents.contains(&column.agent.as_str())) && !bar.met_by(cell) {
                    out.push(Miss { row, column, cell });
                }
            }
        }
        out
    }

    /// The row of the skill whose file is `path` (as found, or its real path).
    pub fn row_of(&self, path: &Path) -> Option<usize> {
        self.rows.iter().position(|r| Path::new(&r.path) == path || r.dir.join("SKILL.md") == path)
    }
}

/// The one sentence for an agent that cannot be a matrix column (it lists no skills), with the
/// agents that can: the CLI and the app say it this way.
pub fn not_a_column(id: &str) -> String {
    let with: Vec<&str> = default_agents().iter().map(|a| a.id).collect();
    format!("`{id}` lists no skills; agents with a listing: {}", with.join(", "))
}

/// The agents a matrix shows by default: every profile judged by its loader.
pub fn default_agents() -> Vec<&'static Agent> {
    crate::agents::AGENTS.iter().copied().filter(|a| crate::verdict::judged_by_loader(a)).collect()
}

/// The matrix of the skills under `sources` (lowest priority first) and `agents` (in this
/// order), each agent's render made with `options` (its context window, budget settings).
pub fn build(sources: &[PathBuf], agents: &[&'static Agent], options: &PromptOptions) -> Matrix {
    build_with(sources, agents, options, &[])
}

/// [`build`], with unsaved texts: each `(skill file, text)` stands for that file's text on disk
/// (the editor's buffer, as the author types).
pub fn build_with(
    sources: &[PathBuf],
    agents: &[&'static Agent],
    options: &PromptOptions,
    edits: &[(PathBuf, String)],
) -> Matrix {
    let each = vec![options.clone(); agents.len()];
    build_each(sources, agents, &each, edits)
}

/// [`build_with`], each agent's render made with its own options (`options[i]` for `agents[i]`:
/// its own listing settings).
pub fn build_each(
    sources: &[PathBuf],
    agents: &[&'static Agent],
    options: &[PromptOptions],
    edits: &[(PathBuf, String)],
) -> Matrix {
    // The rows' search and each discovery policy's list the same folders: once each.
    crate::library::discover::sharing_listings(|| build_shared(sources, agents, options, edits))
}

/// [`build_each`], its searches sharing their folder listings.
fn build_shared(
    sources: &[PathBuf],
    agents: &[&'static Agent],
    options: &[PromptOptions],
    edits: &[(PathBuf, String)],
) -> Matrix {
    assert_eq!(options.len(), agents.len(), "one options per agent");
    // Edits name skill files as the editor has them: found by their folders' real paths.
    let edits: Vec<(PathBuf, &str)> = edits
        .iter()
        .filter_map(|(path, text)| {
            let real = crate::read::resolve_dir(path.parent()?).join(path.file_name()?);
            Some((real, text.as_str()))
        })
        .collect();
    let mut rows = rows_of(sources);
    let mut index: HashMap<(usize, PathBuf), usize> =
        rows.iter().enumerate().map(|(i, r)| ((r.source, r.dir.clone()), i)).collect();
    let outer = nesting(&rows);
    let options: Vec<PromptOptions> =
        options.iter().map(|o| PromptOptions { decisions_only: true, ..o.clone() }).collect();
    let mut columns: Vec<Option<Column>> = vec![None; agents.len()];
    let mut cells: Vec<Vec<Option<Cell>>> = vec![vec![None; agents.len()]; rows.len()];
    let mut named: Vec<Option<String>> = vec![None; rows.len()];
    // Agents that discover alike read one library; the next library takes the skills this one
    // read instead of reading them again.
    let mut groups: Vec<(DiscoveryPolicy, Vec<usize>)> = vec![];
    for (a, agent) in agents.iter().enumerate() {
        match groups.iter_mut().find(|(p, _)| *p == agent.discovery) {
            Some((_, members)) => members.push(a),
            None => groups.push((agent.discovery, vec![a])),
        }
    }
    let reused = Reused::default();
    for (policy, members) in groups {
        let mut lib = Library::load_reusing(sources, policy, agents[members[0]].key, &reused);
        for (path, text) in &edits {
            if let Some(i) = lib.entry_at(path).filter(|i| lib.entries[*i].skill.text != *text) {
                lib.set_text(i, text, &crate::lint::profile::LintProfile::DEFAULT);
            }
        }
        for a in members {
            let agent = agents[a];
            lib.rekey(agent.key);
            if let Some(read) = agent.read {
                read(&lib);
            }
            let Some(prompt) = agent.render(&lib, &options[a]) else { continue };
            let mut built_in = vec![];
            for s in &prompt.skills {
                let (Some(source), Some(dir)) = (s.source, s.dir.as_ref()) else {
                    if s.source.is_none() && Status::of(s.decision).listed() {
                        built_in.push(s.name.clone());
                    }
                    continue;
                };
                let r = *index.entry((source, dir.clone())).or_insert_with(|| {
                    rows.push(Row {
                        name: s.name.clone(),
                        path: s.path.clone(),
                        file: crate::prompt::path_string(&dir.join("SKILL.md")),
                        source,
                        cells: vec![],
                        dir: dir.clone(),
                    });
                    cells.push(vec![None; agents.len()]);
                    named.push(None);
                    rows.len() - 1
                });
                let cell = cell_of(s);
                if cell.status.listed() && named[r].is_none() {
                    named[r] = Some(s.name.clone());
                }
                // A folder reached twice (a link and a nesting) keeps its better outcome.
                match &cells[r][a] {
                    Some(c) if c.status <= cell.status => {}
                    _ => cells[r][a] = Some(cell),
                }
            }
            // Each agent's readings serve its own render only: dropped, so that memory holds one
            // agent's at a time.
            for e in &mut lib.entries {
                e.readings.clear();
            }
            columns[a] = Some(Column {
                agent: agent.id.to_string(),
                title: crate::verdict::short_title(agent).to_string(),
                label: agent.label.to_string(),
                source: agent.source.to_string(),
                budget: prompt.budget.as_ref().map(|b| ColumnBudget {
                    limit: b.limit,
                    needed: b.needed,
                    unit: b.unit.to_string(),
                    rule: b.rule.clone(),
                }),
                counts: vec![],
                by_chance: 0,
                built_in,
                warnings: prompt.warnings.clone(),
            });
        }
        lib.give_back(&reused);
    }
    let outer_len = outer.len();
    for (r, row) in rows.iter_mut().enumerate() {
        if let Some(name) = named[r].take() {
            row.name = name;
        }
        let out = if r < outer_len { outer[r].as_deref() } else { None };
        row.cells = (0..agents.len())
            .map(|a| cells[r][a].take().unwrap_or_else(|| not_discovered(agents[a], sources, row, out)))
            .collect();
    }
    let columns: Vec<Column> = columns
        .into_iter()
        .enumerate()
        .map(|(a, c)| {
            let mut c = c.unwrap_or_else(|| Column {
                agent: agents[a].id.to_string(),
                title: crate::verdict::short_title(agents[a]).to_string(),
                label: agents[a].label.to_string(),
                source: agents[a].source.to_string(),
                budget: None,
                counts: vec![],
                by_chance: 0,
                built_in: vec![],
                warnings: vec![],
            });
            c.counts = Status::ALL.iter().map(|s| rows.iter().filter(|r| r.cells[a].status == *s).count()).collect();
            c.by_chance = rows.iter().filter(|r| r.cells[a].chance.is_some()).count();
            c
        })
        .collect();
    Matrix { sources: sources.iter().map(|s| crate::prompt::path_string(s)).collect(), columns, rows }
}

fn cell_of(s: &PromptSkill) -> Cell {
    let status = Status::of(s.decision);
    let reason = match (&s.reason, status) {
        (Some(r), _) => Some(r.clone()),
        (None, Status::Full) => None,
        (None, st) => Some(st.label().to_string()),
    };
    Cell { status, reason, chance: s.chance.clone() }
}

/// Every skill file a check finds under the sources: each folder once per source, where it is
/// installed when a link at the top of the source also reaches it (as `check` keeps it).
fn rows_of(sources: &[PathBuf]) -> Vec<Row> {
    let mut rows = vec![];
    for (i, source) in sources.iter().enumerate() {
        let found = discover(source, DiscoveryPolicy::CHECK).skills;
        let installs = crate::library::installs::Installs::of(source);
        let listed: std::collections::HashSet<PathBuf> = found.iter().map(|f| f.listed_as.clone()).collect();
        let mut seen = std::collections::HashSet::new();
        for f in found {
            let nested = f.listed_as.ancestors().skip(1).any(|a| listed.contains(a));
            if installs.gives_way(&f.listed_as, &f.dir, nested) {
                continue;
            }
            if !seen.insert(f.dir.clone()) {
                continue;
            }
            let name = f.dir.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            rows.push(Row {
                name,
                path: crate::prompt::path_string(&f.listed_as.join(f.file)),
                file: crate::prompt::path_string(&f.dir.join(f.file)),
                source: i,
                cells: vec![],
                dir: f.dir,
            });
        }
    }
    rows
}

/// For each row, the folder (as listed) of the row it is nested in, if any.
fn nesting(rows: &[Row]) -> Vec<Option<PathBuf>> {
    let listed: HashMap<(usize, PathBuf), usize> = rows
        .iter()
        .enumerate()
        .filter_map(|(i, r)| Some(((r.source, Path::new(&r.path).parent()?.to_path_buf()), i)))
        .collect();
    rows.iter()
        .map(|r| {
            let folder = Path::new(&r.path).parent()?;
            folder.ancestors().skip(1).find_map(|a| listed.get(&(r.source, a.to_path_buf())).map(|_| a.to_path_buf()))
        })
        .collect()
}

/// Why `agent` never found `row`: the first of its discovery's limits the skill's place breaks.
fn not_discovered(agent: &Agent, sources: &[PathBuf], row: &Row, outer: Option<&Path>) -> Cell {
    let title = crate::verdict::short_title(agent);
    let folder = Path::new(&row.path).parent().unwrap_or(Path::new(""));
    let below = folder.strip_prefix(&sources[row.source]).unwrap_or(folder);
    let depth = below.components().count();
    let policy = agent.discovery;
    let hidden = below.components().any(|c| c.as_os_str().to_string_lossy().starts_with('.'));
    let reason = if depth == 0 {
        format!("{title} looks for skills in the folders inside a skills folder, not in the folder itself")
    } else if let (Some(o), false) = (outer, policy.nested) {
        format!("{title} does not look for skills inside another skill's folder (`{}`)", crate::prompt::path_string(o))
    } else if hidden && !policy.include_hidden {
        format!("{title} does not look into hidden folders")
    } else {
        match policy.depth {
            Depth::Children if depth > 1 => {
                format!("{title} looks only at the folders directly inside a skills folder; this one is {depth} levels down")
            }
            Depth::Recursive { max_depth, .. } if depth > max_depth => {
                format!("{title} looks at most {max_depth} levels down; this one is {depth}")
            }
            _ => format!("{title} does not find this skill file here"),
        }
    };
    Cell { status: Status::NotDiscovered, reason: Some(reason), chance: None }
}
