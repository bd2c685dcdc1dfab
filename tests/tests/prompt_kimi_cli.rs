//! `skillkit prompt --agent kimi-cli` reproduces the `# Skills` section the real Kimi CLI 1.50.0
//! puts in its system prompt, byte for byte, on every captured tree
//! (`tests/oracles/capture_kimi_cli.sh`); the `ReadFile` tool the model activates a skill with, its
//! answer on a `SKILL.md`, the `/skill:NAME` message and the skills Kimi's log says it skipped
//! match too.

use e2e::goldens::{assert_same, golden, golden_jsons, open_library, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::kimi_cli;
use skillkit::library::Library;
use skillkit::prompt::Decision;

const AGENT: &str = "kimi-cli-1.50.0";
const PROJECT_ROOT: &str = "{WORK}/proj/.kimi/skills";
const USER_ROOT: &str = "{WORK}/home/.kimi/skills";
/// Trees captured for Kimi, besides the shared ones.
const MORE: [&str; 4] = ["name-order", "collation", "same-name", "kimi-edge"];

/// A capture: tree name, `--source` folders (lowest priority first), and the placeholders.
type Case = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn cases() -> Vec<Case> {
    let pkg = ("{KIMI_PKG}", kimi_cli::package_dir());
    let mut out: Vec<Case> = TREES
        .iter()
        .chain(MORE.iter())
        .map(|t| (*t, vec![tree(t)], vec![(PROJECT_ROOT, tree(t)), pkg.clone()]))
        .collect();
    let (base, project) = (tree("override-base"), tree("override-project"));
    out.push(("override", vec![base.clone(), project.clone()], vec![(USER_ROOT, base), (PROJECT_ROOT, project), pkg]));
    out
}

fn library(sources: &[String]) -> Library {
    open_library(sources, &kimi_cli::AGENT)
}

#[test]
fn every_section_is_byte_exact() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let mut args = vec!["prompt", "--agent", "kimi-cli"];
        for s in &sources {
            args.extend(["--source", s.as_str()]);
        }
        let out = skillkit(&args);
        assert_eq!(out.code, 0, "{t}: {}", out.stderr);
        let want = golden(AGENT, t, "listing.txt").unwrap_or_else(|| panic!("no golden for {t}"));
        assert_same(&out.stdout, &substitute(&want, &map), t);
        checked += 1;
    }
    assert_eq!(checked, TREES.len() + MORE.len() + 1);
}

#[test]
fn the_read_file_tool_is_the_captured_one() {
    for (t, sources, _) in cases() {
        let prompt = kimi_cli::AGENT.render(&library(&sources), &Default::default()).unwrap();
        let tools: Vec<serde_json::Value> = prompt
            .tools
            .iter()
            .map(|d| serde_json::json!({"name": d.name, "description": d.description, "parameters": d.parameters}))
            .collect();
        let want: serde_json::Value = serde_json::from_str(&golden(AGENT, t, "tool-ReadFile.json").unwrap()).unwrap();
        assert_eq!(tools, vec![want], "{t}");
    }
}

/// The captured `/skill:N some args` message and `ReadFile` answer for the first listed skill.
#[test]
fn activation_by_slash_command_and_by_reading_the_file() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let lib = library(&sources);
        let loading = kimi_cli::load(&lib);
        let text_of = |name: &str| {
            let (l, _) = loading.skills.iter().find(|(l, _)| l.name == name).unwrap_or_else(|| panic!("{t}: {name}"));
            lib.entries[l.entry].skill.text.clone()
        };
        for (name, f, v) in golden_jsons(AGENT, t, "slash-") {
            let want = substitute(v["message"].as_str().unwrap(), &map);
            assert_same(&kimi_cli::slash_message(&text_of(&name), "some args"), &want, &format!("{t}/{f}"));
            checked += 1;
        }
        for (name, f, v) in golden_jsons(AGENT, t, "read-") {
            let want = substitute(v["tool_result"].as_str().unwrap(), &map);
            assert_same(&kimi_cli::read_file(&text_of(&name)), &want, &format!("{t}/{f}"));
            checked += 1;
        }
    }
    assert!(checked >= 8, "only {checked} activation goldens");
}

/// Kimi logs `Skipping invalid skill at PATH: REASON`; the render records the same skills as
/// invalid, with the same reason (pydantic's first two lines: the count and the field).
#[test]
fn skipped_skills_are_the_ones_kimi_logs() {
    let mut skipped = 0;
    for (t, sources, _) in cases() {
        let Some(log) = golden(AGENT, t, "skipped.txt") else { continue };
        let mut want: Vec<(String, String)> = vec![];
        for line in log.lines() {
            if let Some(cont) = line.strip_prefix("  ") {
                want.last_mut().unwrap().1.push_str(&format!("\n{cont}"));
            } else {
                let (path, reason) = line.split_once("/SKILL.md: ").unwrap();
                want.push((path.rsplit('/').next().unwrap().to_string(), reason.to_string()));
            }
        }
        let prompt = kimi_cli::AGENT.render(&library(&sources), &Default::default()).unwrap();
        let mut ours: Vec<(String, String)> = prompt
            .skills
            .iter()
            .filter(|s| s.decision == Decision::Invalid)
            .map(|s| (s.folder.clone(), s.reason.clone().unwrap_or_default()))
            .collect();
        ours.sort();
        want.sort();
        assert_eq!(ours.len(), want.len(), "{t}: {ours:?} vs {want:?}");
        for ((of, or), (wf, wr)) in ours.iter().zip(&want) {
            assert_eq!(of, wf, "{t}");
            let head = |s: &str| s.lines().take(2).collect::<Vec<_>>().join("\n");
            assert_eq!(head(or), head(wr), "{t}/{of}");
        }
        skipped += want.len();
    }
    assert!(skipped >= 7, "only {skipped} skipped skills captured");
}

/// JSON says where the text goes, and every listed skill's range is its entry.
#[test]
fn json_places_the_section_in_the_system_prompt() {
    let t = tree("kimi-edge");
    let out = skillkit(&["prompt", "--agent", "kimi-cli", "--source", &t, "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["placement"], "system-prompt");
    let text = v["text"].as_str().unwrap();
    let skills = v["skills"].as_array().unwrap();
    let full: Vec<&serde_json::Value> = skills.iter().filter(|s| s["decision"] == "full").collect();
    assert!(full.len() >= 10, "{full:?}");
    for s in full {
        let r = &s["range"];
        let (a, b) = (r["start"].as_u64().unwrap() as usize, r["end"].as_u64().unwrap() as usize);
        assert!(text[a..b].starts_with(&format!("- {}\n  - Path: ", s["name"].as_str().unwrap())), "{s}");
    }
    // The project's `skill-creator` hides the built-in one.
    assert_eq!(text.matches("- skill-creator\n").count(), 1);
    assert!(text.contains(&format!("- skill-creator\n  - Path: {t}/skill-creator/SKILL.md")));
}
