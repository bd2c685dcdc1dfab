//! A one-shot check read as a stream (`check_each` on one source) reports what the check of the
//! library read whole reports: the same skills in the same order with the same findings, and
//! under an agent's profile the same verdict, on generated trees with nesting, clashing names,
//! hidden folders, symlinks and broken files, under every profile.

use proptest::prelude::*;
use skillkit::check::{check_each, check_run_keeping, CheckSink, Checked};
use skillkit::library::Keep;
use std::path::{Path, PathBuf};

struct Collect {
    began: usize,
    skills: Vec<Checked>,
}

impl CheckSink for Collect {
    fn begin(&mut self) -> std::io::Result<()> {
        assert!(self.skills.is_empty());
        self.began += 1;
        Ok(())
    }
    fn skill(&mut self, c: Checked) -> std::io::Result<()> {
        self.skills.push(c);
        Ok(())
    }
}

/// What a report shows of a skill: its file and its findings.
type Shown = (PathBuf, Vec<String>);

fn shown(c: &Checked) -> Shown {
    let ds = c
        .diagnostics
        .iter()
        .map(|d| format!("{} {:?} {}..{} {} | {:?}", d.code, d.severity, d.span.start, d.span.end, d.message, d.help))
        .collect();
    (c.skill.path(), ds)
}

/// The skills of the check read whole, and read as a stream.
fn both(root: &Path, agent: &skillkit::Agent) -> (Vec<Shown>, Vec<Shown>) {
    both_with(root, agent, false)
}

/// [`both`], looking for competing descriptions (SK705) when `competing` says so.
fn both_with(root: &Path, agent: &skillkit::Agent, competing: bool) -> (Vec<Shown>, Vec<Shown>) {
    let sources = [root.to_path_buf()];
    let whole = if competing {
        skillkit::check::check_run_with(&sources, agent, Keep::Findings, true)
    } else {
        check_run_keeping(&sources, agent, Keep::Findings)
    };
    let mut streamed = Collect { began: 0, skills: vec![] };
    let end = skillkit::check::check_each_with(&sources, agent, Keep::Findings, competing, &mut streamed).unwrap();
    assert_eq!(streamed.began, 1);
    let issues = |i: &[skillkit::library::discover::SearchIssue]| {
        let mut v: Vec<String> = i.iter().map(|i| format!("{}: {}", i.path.display(), i.message)).collect();
        v.sort();
        v
    };
    assert_eq!(issues(&end.issues), issues(&whole.issues));
    assert_eq!(end.verdict, whole.verdict, "{}", agent.id);
    assert_eq!(end.verdict.is_some(), skillkit::verdict::judged_by_loader(agent));
    (whole.skills.iter().map(shown).collect(), streamed.skills.iter().map(shown).collect())
}

/// One thing in a generated tree.
#[derive(Clone, Debug)]
enum Item {
    /// A skill file at this folder path, with this `name` (none: no `name` key) and body.
    Skill { path: Vec<&'static str>, name: Option<&'static str>, body: u8 },
    /// A symlink at this path to the folder at that path (relative to the root).
    Link { path: Vec<&'static str>, to: Vec<&'static str> },
    /// A `SKILL.md` that is not valid UTF-8 and not a skill.
    Broken { path: Vec<&'static str> },
    /// A skill file named `skill.md`, which some agents do not read.
    Lower { path: Vec<&'static str> },
}

fn folder() -> impl Strategy<Value = Vec<&'static str>> {
    prop::collection::vec(prop::sample::select(vec!["a", "b", "a-b", "x", ".h", "é", "node_modules"]), 1..4)
}

fn item() -> impl Strategy<Value = Item> {
    prop_oneof![
        6 => (folder(), prop::option::weighted(0.85, prop::sample::select(vec!["a", "b", "x", "a-b", "Bad_Name"])), 0u8..6)
            .prop_map(|(path, name, body)| Item::Skill { path, name, body }),
        1 => (folder(), folder()).prop_map(|(path, to)| Item::Link { path, to }),
        1 => folder().prop_map(|path| Item::Broken { path }),
        1 => folder().prop_map(|path| Item::Lower { path }),
    ]
}

fn build(root: &Path, items: &[Item]) {
    let at = |p: &[&str]| p.iter().fold(root.to_path_buf(), |d, c| d.join(c));
    for item in items {
        match item {
            Item::Skill { path, name, body } => {
                let dir = at(path);
                if std::fs::create_dir_all(&dir).is_err() {
                    continue;
                }
                let name = name.map(|n| format!("name: {n}\n")).unwrap_or_default();
                let text_body = match body {
                    0 => "Body.\n".to_string(),
                    1 => "See [the guide](references/guide.md) and [gone](missing.md).\n".to_string(),
                    2 => format!("{}\n", "A long line of words. ".repeat(400)),
                    _ => "| a | b |\n|---|---|\n| [x](x.md) | `y` |\n\n> quoted [z](z.md)\n".to_string(),
                };
                let text = match body {
                    // No description: most loaders skip it.
                    4 => format!("---\n{name}---\nNo description.\n"),
                    // YAML that does not parse.
                    5 => format!("---\n{name}description: [unclosed\n---\nBody.\n"),
                    _ => format!("---\n{name}description: Does things. Use when asked.\n---\n{text_body}"),
                };
                let _ = std::fs::write(dir.join("SKILL.md"), text);
                if *body == 1 {
                    let _ = std::fs::create_dir_all(dir.join("references"));
                    let _ = std::fs::write(dir.join("references/guide.md"), "# Guide\n");
                }
            }
            Item::Link { path, to } => {
                let link = at(path);
                if let Some(parent) = link.parent() {
                    let _ = std::fs::create_dir_all(parent);
                }
                #[cfg(unix)]
                let _ = std::os::unix::fs::symlink(at(to), &link);
            }
            Item::Broken { path } => {
                let dir = at(path);
                if std::fs::create_dir_all(&dir).is_ok() {
                    let _ = std::fs::write(dir.join("SKILL.md"), b"---\nname: \xff\xfe\n---\n");
                }
            }
            Item::Lower { path } => {
                let dir = at(path);
                if std::fs::create_dir_all(&dir).is_ok() && !dir.join("SKILL.md").exists() {
                    let _ = std::fs::write(dir.join("skill.md"), "---\nname: lower\ndescription: Does it.\n---\n");
                }
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    #[test]
    fn a_streamed_check_reports_what_the_whole_check_reports(items in prop::collection::vec(item(), 0..14)) {
        let t = tempfile::tempdir().unwrap();
        let root = t.path().join("lib");
        std::fs::create_dir_all(&root).unwrap();
        build(&root, &items);
        for agent in skillkit::AGENTS {
            let (whole, streamed) = both(&root, agent);
            prop_assert_eq!(&streamed, &whole, "{}", agent.id);
        }
        // Every generated skill has the same description: with SK705 on, every pair of
        // differently named skills competes, found alike by the stream and the whole check.
        let (whole, streamed) = both_with(&root, &skillkit::agents::SPEC, true);
        prop_assert_eq!(&streamed, &whole);
    }
}

/// Competing descriptions (SK705) are looked for only when asked, reported once on the later
/// skill in path order naming the earlier, alike in a stream and in the whole check; in a
/// library (an editor's view) on both skills. Two skills of one name are SK701's, not SK705's.
#[test]
fn competing_descriptions_are_reported_once_in_a_check_and_on_both_in_a_library() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("lib");
    let skill = |dir: &str, name: &str, description: &str| {
        std::fs::create_dir_all(root.join(dir)).unwrap();
        let text = format!("---\nname: {name}\ndescription: {description}\n---\nBody.\n");
        std::fs::write(root.join(dir).join("SKILL.md"), text).unwrap();
    };
    let fill = "Fills PDF forms. Use when the user wants to fill in a PDF form or read its form fields.";
    skill("a-fill", "fill-pdf-forms", fill);
    skill("b-notes", "notes", "Writes meeting notes. Use when the user shares a meeting transcript to summarise.");
    skill("c-edit", "edit-pdfs", "Edits PDF files. Use when the user asks to fill PDF form fields or merge PDF pages.");
    skill("d-same", "fill-pdf-forms", fill);
    let sk705 = |shown: &[Shown]| -> Vec<(String, Vec<String>)> {
        shown
            .iter()
            .map(|(p, ds)| {
                let dir = p.parent().unwrap().file_name().unwrap().to_string_lossy().into_owned();
                (dir, ds.iter().filter(|d| d.starts_with("SK705")).cloned().collect())
            })
            .collect()
    };
    let (whole, streamed) = both_with(&root, &skillkit::agents::SPEC, true);
    assert_eq!(streamed, whole);
    let found = sk705(&streamed);
    let dirs: Vec<(&str, usize)> = found.iter().map(|(d, ds)| (d.as_str(), ds.len())).collect();
    // `c-edit` competes with `a-fill`; `d-same` with `c-edit` (a-fill has its name: SK701).
    assert_eq!(dirs, [("a-fill", 0), ("b-notes", 0), ("c-edit", 1), ("d-same", 1)], "{found:#?}");
    assert!(found[2].1[0].contains("a-fill/SKILL.md`'s for the same queries"), "{found:#?}");
    assert!(found[2].1[0].contains("`pdf`") && found[2].1[0].contains("Info"), "{found:#?}");
    assert!(found[3].1[0].contains("c-edit/SKILL.md"), "{found:#?}");
    // Off unless asked.
    let (_, off) = both(&root, &skillkit::agents::SPEC);
    assert!(sk705(&off).iter().all(|(_, ds)| ds.is_empty()));
    // A library marks both skills of each pair.
    let mut lib = skillkit::library::Library::load(
        std::slice::from_ref(&root),
        skillkit::library::LoadOptions::CHECK,
        &skillkit::agents::SPEC,
    );
    assert!(lib.entries.iter().all(|e| e.diagnostics.iter().all(|d| d.code != "SK705")));
    lib.competing = true;
    lib.reload(0, &skillkit::agents::SPEC);
    let marked: Vec<usize> =
        lib.entries.iter().map(|e| e.diagnostics.iter().filter(|d| d.code == "SK705").count()).collect();
    assert_eq!(marked, [1, 0, 2, 1]);
}

#[test]
fn clashes_nesting_and_a_folder_reached_twice_come_out_as_in_the_whole_check() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("lib");
    let items = [
        Item::Skill { path: vec!["a"], name: Some("a"), body: 1 },
        Item::Skill { path: vec!["a", "x"], name: Some("x"), body: 0 },
        Item::Skill { path: vec!["a", "x", "b"], name: Some("b"), body: 0 },
        Item::Skill { path: vec!["b", "x"], name: Some("x"), body: 3 },
        Item::Skill { path: vec!["x"], name: Some("x"), body: 0 },
        Item::Link { path: vec!["0"], to: vec!["a", "x"] },
        Item::Link { path: vec!["z"], to: vec!["b", "x"] },
    ];
    std::fs::create_dir_all(&root).unwrap();
    build(&root, &items);
    let (whole, streamed) = both(&root, &skillkit::agents::SPEC);
    assert_eq!(streamed, whole);
    let real = root.canonicalize().unwrap();
    let codes = |path: &str| {
        let (_, ds) =
            streamed.iter().find(|(p, _)| p.ends_with(path)).unwrap_or_else(|| panic!("{path}: {streamed:#?}"));
        ds.iter().map(|d| d[..5].to_string()).collect::<Vec<_>>()
    };
    // `0` reaches `a/x` first in path order: the folder is reported there (by its real path),
    // once, and is not nested where it is listed; `b` inside it is.
    let shown: Vec<String> =
        streamed.iter().map(|(p, _)| p.strip_prefix(&real).unwrap().display().to_string()).collect();
    assert_eq!(shown, ["a/x/SKILL.md", "a/x/b/SKILL.md", "a/SKILL.md", "b/x/SKILL.md", "x/SKILL.md"], "{streamed:#?}");
    assert!(!codes("lib/a/x/SKILL.md").contains(&"SK703".to_string()), "{streamed:#?}");
    assert!(codes("a/x/b/SKILL.md").contains(&"SK703".to_string()), "{streamed:#?}");
    // Three skills named `x` in one source: each clash once, on the later skill.
    assert!(!codes("lib/a/x/SKILL.md").contains(&"SK701".to_string()));
    assert!(codes("b/x/SKILL.md").contains(&"SK701".to_string()));
    assert!(codes("lib/x/SKILL.md").contains(&"SK701".to_string()));
}

#[test]
fn under_an_agent_a_streamed_check_skips_what_its_loader_skips() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("lib");
    let items = [
        Item::Skill { path: vec!["a"], name: Some("a"), body: 0 },
        Item::Skill { path: vec!["a", "inner"], name: Some("inner"), body: 0 },
        Item::Skill { path: vec!["b"], name: Some("b"), body: 4 },
        Item::Skill { path: vec!["c"], name: Some("c"), body: 5 },
        Item::Skill { path: vec!["d"], name: Some("a"), body: 0 },
        Item::Lower { path: vec!["e"] },
    ];
    std::fs::create_dir_all(&root).unwrap();
    build(&root, &items);
    let sources = [root.clone()];
    let skipped = |agent: &skillkit::Agent| {
        let (whole, streamed) = both(&root, agent);
        assert_eq!(streamed, whole, "{}", agent.id);
        let mut sink = Collect { began: 0, skills: vec![] };
        let verdict = check_each(&sources, agent, Keep::Findings, &mut sink).unwrap().verdict.unwrap();
        assert_eq!(verdict.skills, 6);
        let real = root.canonicalize().unwrap();
        let skipped: Vec<(String, String)> = verdict
            .skipped
            .iter()
            .map(|f| (f.dir.strip_prefix(&real).unwrap().display().to_string(), f.reason.clone().unwrap()))
            .collect();
        assert_eq!(verdict.loaded + skipped.len(), 6);
        // Each skipped skill carries the agent's own reason as an error.
        for (dir, _) in &skipped {
            let c = sink.skills.iter().find(|c| c.skill.dir.ends_with(dir)).unwrap();
            assert_eq!(c.diagnostics[0].code, "SK702", "{dir}: {:?}", c.diagnostics);
        }
        skipped
    };
    let claude = skipped(skillkit::find_agent("claude-code").unwrap());
    let codex = skipped(skillkit::find_agent("codex").unwrap());
    // Claude Code does not look inside another skill's folder; Codex does.
    assert!(claude.iter().any(|(d, r)| d == "a/inner" && r.contains("inside another skill's folder")), "{claude:?}");
    assert!(!codex.iter().any(|(d, _)| d == "a/inner"), "{codex:?}");
    // Codex needs a description, and reads `SKILL.md` only.
    assert!(codex.iter().any(|(d, r)| d == "b" && r.contains("description")), "{codex:?}");
    assert!(codex.iter().any(|(d, r)| d == "e" && r.contains("finds no skill file")), "{codex:?}");
    // A second skill named `a` is loaded (one of the two wins), not skipped; its one error, the
    // duplicate name (known only in path order), becomes a warning that says what each agent does.
    assert!(!claude.iter().chain(&codex).any(|(d, _)| d == "d"));
    let mut sink = Collect { began: 0, skills: vec![] };
    check_each(&sources, skillkit::find_agent("codex").unwrap(), Keep::Findings, &mut sink).unwrap();
    let d = sink.skills.iter().find(|c| c.skill.dir.ends_with("d")).unwrap();
    let duplicate = d.diagnostics.iter().find(|x| x.code == "SK701").unwrap();
    assert_eq!(duplicate.severity, skillkit::Severity::Warning);
    let help = duplicate.help.as_deref().unwrap_or_default();
    assert!(help.starts_with("Claude Code, Codex, Gemini CLI and DeepAgents load this skill"), "{help}");
}

#[test]
fn a_folder_checked_twice_is_reported_once_and_does_not_hide_itself() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().join("lib");
    std::fs::create_dir_all(&root).unwrap();
    build(&root, &[Item::Skill { path: vec!["a"], name: Some("a"), body: 0 }]);
    for agent in [&skillkit::agents::SPEC, skillkit::find_agent("deepagents").unwrap()] {
        let run = check_run_keeping(&[root.clone(), root.clone()], agent, Keep::Findings);
        assert_eq!(run.skills.len(), 1, "{}", agent.id);
        let codes: Vec<&str> = run.skills[0].diagnostics.iter().map(|d| d.code).collect();
        assert!(!codes.contains(&"SK704"), "{}: {codes:?}", agent.id);
        // Given with another source, the later one still hides it.
        let other = t.path().join("other");
        build(&other, &[Item::Skill { path: vec!["a"], name: Some("a"), body: 0 }]);
        let run = check_run_keeping(&[root.clone(), other], agent, Keep::Findings);
        assert!(run.skills[0].diagnostics.iter().any(|d| d.code == "SK704"), "{}", agent.id);
    }
}
