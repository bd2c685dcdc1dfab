//! `skillkit prompt --agent cline` reproduces the description of the `skills` tool the real Cline
//! CLI 3.0.65 offers the model (its listing is the tail, `Available skills: a, b.`) byte for byte
//! on every captured tree (goldens made by `tests/oracles/capture_cline.sh`), with the tool's
//! schema and its answers.
//!
//! Cline lists skills in the file system's raw directory order, which differs between file
//! systems and machines. Each golden keeps the order Cline read (`readdir.txt`): the profile is
//! held to the golden with that order replayed (on any machine), and `skillkit prompt` itself
//! (which reads the folder's own order) wherever this machine lists the folder in that order.

use e2e::goldens::{assert_same, fixtures, golden, open_library, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::cline;
use skillkit::library::Library;
use skillkit::prompt::{Decision, RenderInput};
use std::collections::HashMap;
use std::path::{Path, PathBuf};

const AGENT: &str = "cline-3.0.65";
const PROJECT_ROOT: &str = "{WORK}/proj/.cline/skills";
const RULES_ROOT: &str = "{WORK}/proj/.clinerules/skills";
/// Trees captured for Cline besides the common ones.
const MORE: [&str; 5] = ["collation", "name-order", "same-name", "opencode-edge", "copilot-invalid"];

/// A capture: tree name, `--source` folders (in Cline's reading order), and the placeholders.
type Case = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn cases() -> Vec<Case> {
    let mut out: Vec<Case> =
        TREES.iter().chain(MORE.iter()).map(|t| (*t, vec![tree(t)], vec![(PROJECT_ROOT, tree(t))])).collect();
    let (base, project) = (tree("override-base"), tree("override-project"));
    out.push(("override", vec![base.clone(), project.clone()], vec![(RULES_ROOT, base), (PROJECT_ROOT, project)]));
    // Kept out of prompt-trees (other profiles' tests would trip on its hidden folder and
    // duplicates): Cline's own cases.
    let e = edge();
    out.push(("cline-edge", vec![e.clone()], vec![(PROJECT_ROOT, e)]));
    out
}

fn edge() -> String {
    let d = fixtures().join("cline-edge");
    d.canonicalize().unwrap_or(d).to_string_lossy().into_owned()
}

fn library(sources: &[String]) -> Library {
    open_library(sources, &cline::AGENT)
}

/// The directory order Cline read, per source folder (placeholders replaced).
fn recorded_order(t: &str, map: &[(&'static str, String)]) -> HashMap<PathBuf, Vec<String>> {
    let text = golden(AGENT, t, "readdir.txt").unwrap_or_else(|| panic!("{t}: no readdir.txt"));
    let mut out: HashMap<PathBuf, Vec<String>> = HashMap::new();
    for line in text.lines() {
        let (folder, name) = line.split_once('\t').unwrap_or_else(|| panic!("{t}: bad line {line:?}"));
        let (_, real) = map.iter().find(|(k, _)| *k == folder).unwrap_or_else(|| panic!("{t}: folder {folder}"));
        out.entry(PathBuf::from(real)).or_default().push(name.to_string());
    }
    out
}

/// The loading with the recorded directory order replayed.
fn replayed(t: &str, sources: &[String], map: &[(&'static str, String)]) -> (Library, cline::Loading) {
    let order = recorded_order(t, map);
    let lib = library(sources);
    let loading = cline::load_in(&lib, &|p: &Path| order.get(p).cloned().unwrap_or_default());
    (lib, loading)
}

fn golden_text(t: &str) -> Option<String> {
    match golden(AGENT, t, "description.txt") {
        Some(d) => Some(d),
        None => {
            assert!(golden(AGENT, t, "no-tool.txt").is_some(), "{t}: no golden");
            None
        }
    }
}

#[test]
fn every_description_is_byte_exact_with_clines_directory_order() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let (lib, loading) = replayed(t, &sources, &map);
        let input = RenderInput { library: &lib, options: &Default::default() };
        let prompt = cline::render_loading(&input, loading);
        match golden_text(t) {
            Some(want) => {
                assert_same(&prompt.text, &want, t);
                assert_eq!(prompt.tools.len(), 1, "{t}");
                assert_same(&prompt.tools[0].description, &want, t);
            }
            None => {
                assert_eq!(prompt.text, "", "{t}: Cline offers no skills tool");
                assert!(prompt.tools.is_empty(), "{t}");
                let offered: Vec<String> = serde_json::from_str(&golden(AGENT, t, "tools.json").unwrap()).unwrap();
                assert!(!offered.iter().any(|n| n == "skills"), "{t}: {offered:?}");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, TREES.len() + MORE.len() + 2);
}

/// `skillkit prompt` reads each folder's own order: on a machine that lists the folders as Cline
/// did when it was captured (the same file system), its output is the golden byte for byte.
#[test]
fn skillkit_prompt_prints_the_description_where_the_directory_order_is_the_captured_one() {
    let (mut same, mut other) = (0, vec![]);
    for (t, sources, map) in cases() {
        let order = recorded_order(t, &map);
        let local = order.iter().all(|(p, names)| {
            let mine: Vec<String> = cline::readdir_order(p).into_iter().filter(|n| names.contains(n)).collect();
            &mine == names
        });
        if !local {
            other.push(t);
            continue;
        }
        let mut args = vec!["prompt", "--agent", "cline", "--format", "text"];
        for s in &sources {
            args.extend(["--source", s.as_str()]);
        }
        let out = skillkit(&args);
        assert_eq!(out.code, 0, "{t}: {}", out.stderr);
        assert_same(&out.stdout, &golden_text(t).unwrap_or_default(), t);
        same += 1;
    }
    if !other.is_empty() {
        eprintln!("this file system lists {other:?} in another order than the capture's: held by the replay test only");
    }
    assert!(same + other.len() == cases().len());
}

#[test]
fn the_skills_tool_is_clines() {
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(fixtures().join("prompt-goldens").join(AGENT).join("tool-skills.json")).unwrap(),
    )
    .unwrap();
    let t = cline::skill_tool(golden(AGENT, "minimal", "description.txt").unwrap());
    assert_eq!(want["name"], t.name.as_str());
    assert_eq!(want["description"], t.description.as_str());
    assert_eq!(want["parameters"], t.parameters);
}

/// Every folder Cline reads lists the same skills; `.claude/skills` folders are not read.
#[test]
fn the_five_folders_and_not_claudes() {
    let minimal = golden(AGENT, "minimal", "description.txt").unwrap();
    for s in ["project", "project-clinerules", "project-agents", "user", "user-agents"] {
        let d = golden(AGENT, "scopes", &format!("description-{s}.txt")).unwrap_or_else(|| panic!("{s}"));
        assert_same(&d, &minimal, s);
    }
    for s in ["project-claude", "user-claude"] {
        assert!(golden(AGENT, "scopes", &format!("no-tool-{s}.txt")).is_some(), "{s}");
    }
}

/// Every captured tool result (`tool-<name>.txt`: the mock called skills({skill: name})).
#[test]
fn every_tool_result_is_byte_exact() {
    let mut n = 0;
    for (t, sources, map) in cases() {
        let dir = fixtures().join("prompt-goldens").join(AGENT).join(t);
        let Ok(rd) = std::fs::read_dir(&dir) else { continue };
        let (_, loading) = replayed(t, &sources, &map);
        for f in rd.flatten() {
            let f = f.file_name().to_string_lossy().into_owned();
            let Some(name) = f.strip_prefix("tool-").and_then(|f| f.strip_suffix(".txt")) else { continue };
            let want = substitute::<&str>(&golden(AGENT, t, &f).unwrap(), &[]);
            let ours = match cline::activate_in(&loading, name, None) {
                Ok(s) | Err(s) => s,
            };
            assert_same(&ours, &want, &format!("{t}/{f}"));
            n += 1;
        }
    }
    assert!(n >= 20, "{n} tool results");
}

/// A later folder wins the content, the first keeps the position; two spellings of one name in
/// one folder depend on the directory order (the record says so).
#[test]
fn duplicates_keep_the_first_place_and_the_last_content() {
    let (base, project) = (tree("override-base"), tree("override-project"));
    let lib = library(&[base, project.clone()]);
    let prompt = cline::AGENT.render(&lib, &Default::default()).unwrap();
    let shadowed: Vec<_> = prompt.skills.iter().filter(|s| s.decision == Decision::Shadowed).collect();
    assert_eq!(shadowed.len(), 1);
    assert!(shadowed[0].reason.as_deref().unwrap().contains(&project), "{:?}", shadowed[0].reason);
    assert!(prompt.warnings.is_empty(), "Cline prints nothing: {:?}", prompt.warnings);
    let lib = library(&[edge()]);
    let prompt = cline::AGENT.render(&lib, &Default::default()).unwrap();
    let s = prompt.skills.iter().find(|s| s.decision == Decision::Shadowed).expect("a case-insensitive duplicate");
    assert!(s.reason.as_deref().unwrap().contains("directory order"), "{:?}", s.reason);
    let hidden: Vec<&str> =
        prompt.skills.iter().filter(|s| s.decision == Decision::Hidden).map(|s| s.name.as_str()).collect();
    assert_eq!(hidden.len(), 2, "{hidden:?}");
    let invalid: Vec<&str> =
        prompt.skills.iter().filter(|s| s.decision == Decision::Invalid).map(|s| s.folder.as_str()).collect();
    for f in ["dup-key", "empty-body", "disabled-string", "list-desc"] {
        assert!(invalid.contains(&f), "{f} not skipped: {invalid:?}");
    }
}

/// Arguments follow the name (read in Cline's code: `<command-args>` after `<command-name>`).
#[test]
fn args_are_passed_after_the_name() {
    let lib = library(&[tree("minimal")]);
    let text = cline::activate(&lib, "HELLO-NOTE", Some("  now ")).unwrap();
    assert!(text.starts_with("<command-name>hello-note</command-name>\n<command-args>now</command-args>\n"), "{text}");
}

/// A session: `skills` with and without args, an unknown name, and a slash command (sent as
/// typed in `cline "PROMPT"`).
#[test]
fn a_session_answers_as_cline() {
    let dir = e2e::repo_tempdir();
    let script = dir.path().join("cline.yaml");
    std::fs::write(
        &script,
        format!(
            "agent: cline\nsources: [{:?}]\nsteps:\n  - invoke: hello-note\n  - invoke: nope\n  - slash: /hello-note be brief\n",
            tree("minimal")
        ),
    )
    .unwrap();
    let out = skillkit(&["simulate", script.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let r: Vec<&str> = v["turns"].as_array().unwrap().iter().map(|t| t["result"].as_str().unwrap()).collect();
    assert_same(r[0], &golden(AGENT, "minimal", "tool-hello-note.txt").unwrap(), "invoke");
    assert_eq!(r[1], "Skill \"nope\" not found. Available skills: hello-note");
    assert_eq!(r[2], "/hello-note be brief");
}
