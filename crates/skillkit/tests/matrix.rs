//! The library × agent matrix ([`skillkit::matrix`]) says of every skill what each agent's own
//! render says: built with one reading shared by every agent, it must agree cell by cell with a
//! library opened for that agent alone, on every prompt tree, on a tree of the hard cases
//! (nesting, hidden folders, links, duplicates across sources) and on the two trees together.

use skillkit::library::Library;
use skillkit::matrix::{build, default_agents, Bar, Status};
use skillkit::prompt::{Decision, PromptOptions};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

fn trees() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fixtures/prompt-trees")
}

fn skill(root: &Path, folder: &str, text: &str) {
    let dir = root.join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), text).unwrap();
}

fn plain(name: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name} things. Use when asked about {name}.\n---\nBody.\n")
}

/// Nesting, a hidden folder, a link install, a deep plugin layout, a broken skill, and the same
/// name in a second source.
fn hard_cases(root: &Path) -> Vec<PathBuf> {
    let (a, b) = (root.join("a"), root.join("b"));
    skill(&a, "outer", &plain("outer"));
    skill(&a, "outer/inner", &plain("inner"));
    skill(&a, ".hidden-one", &plain("hidden-one"));
    skill(&a, "plugins/p/skills/deep", &plain("deep"));
    skill(&a, "broken", "---\nname: broken\ndescription: [unclosed\n---\n");
    skill(&a, "Wrong_Name", &plain("Wrong_Name"));
    skill(&a, "shared", &plain("shared"));
    skill(&b, "shared", &plain("shared"));
    skill(&b, "only-b", &plain("only-b"));
    #[cfg(unix)]
    std::os::unix::fs::symlink("outer/inner", a.join("linked")).unwrap();
    vec![a, b]
}

/// What each agent's own library says of each skill folder: the best decision of its records.
fn alone(sources: &[PathBuf], agent: &'static skillkit::Agent) -> HashMap<(usize, PathBuf), Status> {
    let lib = Library::for_agent(sources, agent);
    let prompt = agent.render(&lib, &PromptOptions { decisions_only: true, ..Default::default() }).unwrap();
    let mut out: HashMap<(usize, PathBuf), Status> = HashMap::new();
    for s in &prompt.skills {
        let (Some(source), Some(dir)) = (s.source, s.dir.clone()) else { continue };
        let st = match s.decision {
            Decision::Full => Status::Full,
            Decision::Truncated => Status::Shortened,
            Decision::NameOnly => Status::NameOnly,
            Decision::Dropped => Status::Dropped,
            Decision::Hidden => Status::Hidden,
            Decision::Shadowed => Status::Shadowed,
            Decision::Invalid => Status::Skipped,
        };
        let e = out.entry((source, dir)).or_insert(st);
        *e = (*e).min(st);
    }
    out
}

fn agrees(sources: &[PathBuf]) -> usize {
    let agents = default_agents();
    let m = build(sources, &agents, &PromptOptions::default());
    assert_eq!(m.columns.len(), agents.len());
    let mut cells = 0;
    for (a, agent) in agents.iter().enumerate() {
        let own = alone(sources, agent);
        for row in &m.rows {
            let cell = &row.cells[a];
            let want = own.get(&(row.source, row.dir.clone())).copied().unwrap_or(Status::NotDiscovered);
            assert_eq!(cell.status, want, "{} in {}: {} ({:?})", agent.id, sources[0].display(), row.path, cell.reason);
            if cell.status != Status::Full {
                assert!(
                    cell.reason.as_deref().is_some_and(|r| !r.is_empty()),
                    "{}: {} has no reason",
                    agent.id,
                    row.path
                );
            }
            cells += 1;
        }
        // Every skill the agent's own render lists is a row.
        for key in own.keys() {
            assert!(m.rows.iter().any(|r| (r.source, r.dir.clone()) == *key), "{}: {key:?} has no row", agent.id);
        }
    }
    cells
}

#[test]
fn every_cell_is_what_the_agents_own_render_says_on_every_prompt_tree() {
    let mut cells = 0;
    for tree in std::fs::read_dir(trees()).unwrap() {
        let tree = tree.unwrap().path();
        if tree.is_dir() {
            cells += agrees(&[tree]);
        }
    }
    assert!(cells > 500, "{cells} cells");
    // Two sources: the later one wins a name.
    cells = agrees(&[trees().join("override-base"), trees().join("override-project")]);
    assert!(cells > 0);
}

#[test]
fn the_hard_cases_agree_and_say_why() {
    let t = tempfile::tempdir().unwrap();
    let sources = hard_cases(t.path());
    agrees(&sources);
    let agents = default_agents();
    let m = build(&sources, &agents, &PromptOptions::default());
    let col = |id: &str| m.columns.iter().position(|c| c.agent == id).unwrap();
    let row = |path_end: &str| m.rows.iter().find(|r| r.path.ends_with(path_end)).unwrap();
    let claude = col("claude-code");
    // The plugin-layout skill: too deep for Claude Code, which says so.
    let deep = &row("plugins/p/skills/deep/SKILL.md").cells[claude];
    assert_eq!(deep.status, Status::NotDiscovered);
    assert!(deep.reason.as_deref().unwrap().contains("levels down"), "{deep:?}");
    // The nested skill is reached through its link install at the top: listed by Claude Code,
    // and one row, not two.
    assert_eq!(m.rows.iter().filter(|r| r.dir.ends_with("outer/inner")).count(), 1);
    #[cfg(unix)]
    assert!(row("linked/SKILL.md").cells[claude].status.listed());
    // The skill of the first source that the second one's copy hides names the winner.
    let shared = m.rows.iter().find(|r| r.source == 0 && r.path.ends_with("shared/SKILL.md")).unwrap();
    let deepagents = col("deepagents");
    assert_eq!(shared.cells[deepagents].status, Status::Shadowed);
    assert!(shared.cells[deepagents].reason.is_some());
    // The hidden folder: Gemini CLI does not look into it, DeepAgents does.
    let hidden = row(".hidden-one/SKILL.md");
    assert_eq!(hidden.cells[col("gemini-cli")].status, Status::NotDiscovered);
    assert!(hidden.cells[col("gemini-cli")].reason.as_deref().unwrap().contains("hidden"));
    assert!(hidden.cells[col("deepagents")].status.listed());
    // The bar: every agent misses `full` somewhere here; `listed` for one agent names its misses.
    assert!(!m.misses(Bar::Full, &[]).is_empty());
    let misses = m.misses(Bar::Listed, &["deepagents"]);
    assert!(misses.iter().all(|x| x.column.agent == "deepagents"));
    assert!(misses.iter().any(|x| x.row.path.ends_with("broken/SKILL.md")), "{:?}", m.rows);
    assert!(!misses.iter().any(|x| x.row.path.ends_with("only-b/SKILL.md")));
    // The counts add up to the rows in every column.
    for c in &m.columns {
        assert_eq!(c.counts.iter().sum::<usize>(), m.rows.len(), "{}", c.agent);
    }
}

#[test]
fn an_outcome_that_depends_on_chance_says_so_and_misses_every_bar() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "one", &plain("twin"));
    skill(t.path(), "two", &plain("twin"));
    // OpenCode's winner is a race between parallel reads; Cline's, the directory order.
    let agents = [skillkit::find_agent("opencode").unwrap(), skillkit::find_agent("cline").unwrap()];
    let m = build(&[t.path().to_path_buf()], &agents, &PromptOptions::default());
    assert_eq!(m.rows.len(), 2);
    for a in 0..2 {
        assert!(m.rows.iter().all(|r| r.cells[a].chance.is_some()), "{a}: {:?}", m.rows);
        assert_eq!(m.columns[a].by_chance, 2);
    }
    assert_eq!(m.misses(Bar::Listed, &[]).len(), 4);
    // Across sources, both decide by the order of the sources: no chance.
    let u = tempfile::tempdir().unwrap();
    skill(u.path(), "one", &plain("twin"));
    let m = build(
        &[t.path().join("one").parent().unwrap().to_path_buf(), u.path().to_path_buf()],
        &agents[1..],
        &PromptOptions::default(),
    );
    let winner = m.rows.iter().find(|r| r.source == 1).unwrap();
    assert!(winner.cells[0].status.listed() && winner.cells[0].chance.is_none(), "{:?}", m.rows);
}

#[test]
fn budgets_and_the_bar_full() {
    // budget-60 holds more than the default budgets of some agents list in full.
    let m = build(&[trees().join("budget-60")], &default_agents(), &PromptOptions::default());
    let codex = m.columns.iter().position(|c| c.agent == "codex").unwrap();
    assert!(m.columns[codex].budget.is_some());
    // A small context window forces Codex to shorten descriptions: `full` is then missed.
    let small = PromptOptions { context_window: Some(8_000), ..Default::default() };
    let m = build(&[trees().join("budget-60")], &[skillkit::find_agent("codex").unwrap()], &small);
    assert!(m.rows.iter().any(|r| r.cells[0].status == Status::Shortened || r.cells[0].status == Status::NameOnly));
    assert!(!m.misses(Bar::Full, &[]).is_empty());
}
