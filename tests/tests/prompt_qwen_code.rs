//! `skillkit prompt --agent qwen-code` reproduces the skills `<system-reminder>` the real Qwen Code
//! 0.24.4 puts first in its first user message, byte for byte on every captured tree (goldens made
//! by `tests/oracles/capture_qwen_code.sh`), with its `skill` tool definition, the skills it skips
//! (its debug log's reasons) and its activation results.

use e2e::goldens::{assert_same, golden, golden_jsons, open_library, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::qwen_code;
use skillkit::library::Library;
use skillkit::prompt::Decision;
use std::path::{Path, PathBuf};

const AGENT: &str = "qwen-code-0.24.4";
const PROJECT_ROOT: &str = "{WORK}/proj/.qwen/skills";
const USER_ROOT: &str = "{WORK}/home/.qwen/skills";
/// Trees captured for Qwen Code besides the common ones.
const MORE_TREES: [&str; 6] =
    ["name-order", "collation", "same-name", "qwen-edge", "qwen-budget-at", "qwen-budget-over"];

/// A capture: tree name, `--source` folders, and the placeholders to substitute.
type Case = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn cases() -> Vec<Case> {
    let mut out: Vec<_> =
        TREES.iter().chain(&MORE_TREES).map(|t| (*t, vec![tree(t)], vec![(PROJECT_ROOT, tree(t))])).collect();
    let (base, project) = (tree("override-base"), tree("override-project"));
    out.push(("override", vec![base.clone(), project.clone()], vec![(USER_ROOT, base), (PROJECT_ROOT, project)]));
    out
}

fn library(sources: &[String]) -> Library {
    open_library(sources, &qwen_code::AGENT)
}

/// How every golden but the `*-bundled` ones was captured (the golden's meta.json says so).
const BUNDLED_OFF: &str = r#"skills.disabledLevels=["bundled"]"#;

/// Render options with the bundled skills off, as the goldens were captured.
fn off() -> skillkit::prompt::PromptOptions {
    let assignments = vec![BUNDLED_OFF.to_string()];
    let sources = skillkit::agent_settings::Sources { assignments: &assignments, ..Default::default() };
    let (settings, _) = skillkit::agent_settings::resolve("qwen-code", &sources).unwrap();
    skillkit::prompt::PromptOptions { settings, ..Default::default() }
}

fn render(sources: &[String]) -> String {
    render_with(sources, &["--agent-setting", BUNDLED_OFF])
}

fn render_with(sources: &[String], extra: &[&str]) -> String {
    let mut args = vec!["prompt", "--agent", "qwen-code", "--format", "text"];
    args.extend(extra);
    for s in sources {
        args.extend(["--source", s.as_str()]);
    }
    let out = skillkit(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

#[test]
fn every_listing_is_byte_exact() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let text = render(&sources);
        let want = golden(AGENT, t, "listing.txt").unwrap_or_else(|| panic!("no golden for {t}"));
        assert_same(&text, &substitute(&want, &map), t);
        checked += 1;
    }
    assert_eq!(checked, TREES.len() + MORE_TREES.len() + 1);
}

/// `.qwen/skills` beats `.agents/skills` inside the project (`agents-dup`: `minimal` in the first,
/// `qwen-agents` in the second, both holding `hello-note`).
#[test]
fn qwen_folder_beats_agents_folder() {
    let t = tempfile::tempdir().unwrap();
    let copy = |from: &str, to: &Path| {
        for e in walk(Path::new(&tree(from))) {
            let rel = e.strip_prefix(tree(from)).unwrap().to_path_buf();
            let dst = to.join(rel);
            std::fs::create_dir_all(dst.parent().unwrap()).unwrap();
            std::fs::copy(&e, dst).unwrap();
        }
    };
    let (q, a) = (t.path().join("proj/.qwen/skills"), t.path().join("proj/.agents/skills"));
    copy("minimal", &q);
    copy("qwen-agents", &a);
    for sources in [vec![a.clone(), q.clone()], vec![q.clone(), a.clone()]] {
        let s: Vec<String> = sources.iter().map(|p| p.to_string_lossy().into_owned()).collect();
        assert_same(&render(&s), &golden(AGENT, "agents-dup", "listing.txt").unwrap(), "agents-dup");
        let p = qwen_code::AGENT.render(&library(&s), &off()).unwrap();
        let shadowed: Vec<_> = p.skills.iter().filter(|s| s.decision == Decision::Shadowed).map(|s| &s.path).collect();
        assert_eq!(shadowed.len(), 1);
        assert!(shadowed[0].contains(".agents/skills/hello-note"), "{shadowed:?}");
    }
}

fn walk(dir: &Path) -> Vec<PathBuf> {
    let mut out = vec![];
    for e in std::fs::read_dir(dir).unwrap().flatten() {
        if e.file_type().unwrap().is_dir() {
            out.extend(walk(&e.path()));
        } else {
            out.push(e.path());
        }
    }
    out
}

#[test]
fn the_skill_tool_is_qwens() {
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(e2e::goldens::fixtures().join("prompt-goldens").join(AGENT).join("tool-skill.json"))
            .unwrap(),
    )
    .unwrap();
    let t = qwen_code::skill_tool();
    assert_eq!(want["name"], t.name.as_str());
    assert_eq!(want["description"], t.description.as_str());
    assert_eq!(want["parameters"], t.parameters);
}

/// Every skill Qwen Code skipped (its debug log: `Failed to parse skill at DIR: REASON`) is one
/// skillkit calls invalid with the same reason, and no other skill is.
#[test]
fn skipped_skills_match_the_debug_log() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let want: Vec<String> = golden(AGENT, t, "skips.txt")
            .map(|s| substitute(&s, &map))
            .unwrap_or_default()
            .lines()
            .map(str::to_string)
            .collect();
        let p = qwen_code::AGENT.render(&library(&sources), &off()).unwrap();
        let mut ours: Vec<String> = p
            .skills
            .iter()
            .filter(|s| s.decision == Decision::Invalid)
            .map(|s| {
                let dir = Path::new(&s.path).parent().unwrap().to_string_lossy().into_owned();
                format!("Failed to parse skill at {dir}: {}", s.reason.as_deref().unwrap_or_default())
            })
            .collect();
        ours.sort();
        assert_eq!(ours, want, "{t}");
        checked += want.len();
    }
    assert!(checked >= 10, "only {checked} skips");
}

/// The `skill` tool's results: a skill's base directory and body, and the refusals (hidden,
/// conditional, unknown).
#[test]
fn activation_results_match() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let lib = library(&sources);
        for (name, f, v) in golden_jsons(AGENT, t, "call-") {
            let want = substitute(v["tool_result"].as_str().unwrap(), &map);
            let ours = match qwen_code::activate_with(&lib, &name.replace('_', " "), false) {
                Ok(s) | Err(s) => s,
            };
            assert_same(&ours, &want, &format!("{t}/{f}"));
            checked += 1;
        }
    }
    assert!(checked >= 10, "only {checked} tool goldens");
}

/// Over 8,000 UTF-16 units every description is cut to its first line: `qwen-budget-at` holds
/// exactly 8,000 (one astral character counted twice) and is listed whole, `qwen-budget-over`
/// 8,001 and is cut; the budget is an input.
#[test]
fn the_budget_counts_utf16_units() {
    let at = qwen_code::AGENT.render(&library(&[tree("qwen-budget-at")]), &off()).unwrap();
    assert!(at.skills.iter().all(|s| s.decision == Decision::Full));
    let over = qwen_code::AGENT.render(&library(&[tree("qwen-budget-over")]), &off()).unwrap();
    assert!(over.skills.iter().all(|s| s.decision == Decision::Truncated), "{:?}", over.skills);
    let opts = skillkit::prompt::PromptOptions { char_budget: Some(8001), ..off() };
    let loose = qwen_code::AGENT.render(&library(&[tree("qwen-budget-over")]), &opts).unwrap();
    assert!(loose.skills.iter().all(|s| s.decision == Decision::Full));
}

/// The tree without skills gives Qwen Code's own "No skills" reminder; the JSON says where it goes.
#[test]
fn no_skills_and_the_placement() {
    assert_eq!(render(&[tree("empty")]), qwen_code::NO_SKILLS);
    let out = skillkit(&["prompt", "--agent", "qwen-code", "--format", "json", "--source", &tree("minimal")]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["placement"], "user-message", "{v}");
}

/// A session answers `skill(name)` with the captured tool result, a second call with Qwen Code's
/// "already loaded", and a hidden name with "not found".
#[test]
fn sessions_answer_as_qwen_code() {
    use skillkit::session::{Session, Settings, Step};
    let t = tree("minimal");
    let mut s = Session::new(&qwen_code::AGENT, &[PathBuf::from(&t)], Settings::default());
    let first = s.apply(Step::Invoke { skill: "hello-note".into(), args: None }).outcome.clone();
    let want = golden(AGENT, "minimal", "call-hello-note.json").unwrap();
    let want: serde_json::Value = serde_json::from_str(&want).unwrap();
    assert_same(
        &first.result,
        &substitute(want["tool_result"].as_str().unwrap(), &[(PROJECT_ROOT, t.clone())]),
        "first call",
    );
    assert!(!first.is_error);
    let second = s.apply(Step::Invoke { skill: "hello-note".into(), args: None }).outcome.clone();
    assert_eq!(second.result, "Skill \"hello-note\" is already loaded in context.");
    let mut s = Session::new(&qwen_code::AGENT, &[PathBuf::from(tree("qwen-edge"))], Settings::default());
    let hidden = s.apply(Step::Invoke { skill: "hidden".into(), args: None }).outcome.clone();
    assert!(hidden.is_error && hidden.result.starts_with("Skill \"hidden\" not found. Available skills: "));
    // Qwen Code's default keeps its bundled skills: the refusal names them too.
    assert!(hidden.result.contains("batch, "), "{}", hidden.result);
}

/// Trees captured with Qwen Code's bundled skills on (its default; `BUNDLED=1`), as `<tree>-bundled`.
const BUNDLED_TREES: [&str; 5] = ["minimal", "qwen-budget-at", "qwen-budget-over", "bundled-names", "empty"];

/// With the bundled skills on (no setting: the default), every listing is byte-exact: the 14
/// bundled entries sorted in among the library's, the library's copy of a bundled name listed in
/// its place, the bundled entries counted against the 8,000 units but never shortened.
#[test]
fn listings_with_the_bundled_skills_are_byte_exact() {
    for t in BUNDLED_TREES {
        let golden_dir = format!("{t}-bundled");
        let want = golden(AGENT, &golden_dir, "listing.txt").unwrap_or_else(|| panic!("no golden for {golden_dir}"));
        let want = substitute(&want, &[(PROJECT_ROOT, tree(t))]);
        assert_same(&render_with(&[tree(t)], &[]), &want, &golden_dir);
        // The same through the agent's own setting, spelled out.
        assert_same(&render_with(&[tree(t)], &["--agent-setting", "skills.disabledLevels=[]"]), &want, &golden_dir);
        for (name, f, v) in golden_jsons(AGENT, &golden_dir, "call-") {
            let want = substitute(v["tool_result"].as_str().unwrap(), &[(PROJECT_ROOT, tree(t))]);
            let ours = match qwen_code::activate(&library(&[tree(t)]), &name) {
                Ok(s) | Err(s) => s,
            };
            assert_same(&ours, &want, &format!("{golden_dir}/{f}"));
        }
    }
}

/// The verdicts say what the bundled skills did: a bundled skill gives way to the library's skill
/// of its name (named as the winner), and a description the bundled entries pushed over the budget
/// says so.
#[test]
fn bundled_skills_in_the_verdicts() {
    let p = qwen_code::AGENT.render(&library(&[tree("bundled-names")]), &Default::default()).unwrap();
    let replaced: Vec<_> =
        p.skills.iter().filter(|s| s.decision == Decision::Shadowed).map(|s| s.name.as_str()).collect();
    assert_eq!(replaced, ["browser-use", "simplify", "workflow-authoring"]);
    let why = p.skills.iter().find(|s| s.decision == Decision::Shadowed).unwrap().reason.clone().unwrap();
    assert!(why.contains("bundled `browser-use` gives way to the library's `browser-use`"), "{why}");
    let ours = p.skills.iter().find(|s| s.name == "simplify" && s.decision == Decision::Full).unwrap();
    assert!(ours.path.ends_with("simplify/SKILL.md"), "{}", ours.path);
    let at = qwen_code::AGENT.render(&library(&[tree("qwen-budget-at")]), &Default::default()).unwrap();
    let cut: Vec<_> = at.skills.iter().filter(|s| s.decision == Decision::Truncated).collect();
    assert_eq!(cut.len(), 20, "{:?}", at.skills);
    assert!(cut[0].reason.as_deref().unwrap().contains("without them it would fit"), "{:?}", cut[0].reason);
    let bundled = at.skills.iter().filter(|s| s.source.is_none()).count();
    assert_eq!(bundled, qwen_code::BUNDLED.len());
    // Switched off in the project's own .qwen/settings.json, as Qwen Code reads it.
    let t = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(t.path().join(".qwen/skills/hello-note")).unwrap();
    std::fs::write(t.path().join(".git"), "").unwrap();
    std::fs::copy(
        Path::new(&tree("minimal")).join("hello-note/SKILL.md"),
        t.path().join(".qwen/skills/hello-note/SKILL.md"),
    )
    .unwrap();
    let src = t.path().join(".qwen/skills").to_string_lossy().into_owned();
    assert!(render_with(std::slice::from_ref(&src), &[]).contains("<location>\nbundled\n"));
    std::fs::write(t.path().join(".qwen/settings.json"), r#"{"skills": {"disabledLevels": ["bundled"]}}"#).unwrap();
    let text = render_with(&[src], &[]);
    assert!(!text.contains("bundled") && text.contains("hello-note"), "{text}");
}
