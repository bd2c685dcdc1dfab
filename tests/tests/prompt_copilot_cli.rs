//! `skillkit prompt --agent copilot-cli` reproduces the `<skill>` section the real GitHub Copilot
//! CLI 1.0.102 puts in its system message, byte for byte, on every captured tree
//! (`tests/oracles/capture_copilot_cli.sh`); the `skill` tool, its answers and the skills
//! `copilot skill list` reports as failed match too.

use e2e::goldens::{assert_same, golden, golden_jsons, open_library, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::copilot_cli;
use skillkit::library::Library;
use skillkit::prompt::Decision;

const AGENT: &str = "copilot-cli-1.0.102";
const PROJECT_ROOT: &str = "{WORK}/proj/.github/skills";
const USER_ROOT: &str = "{WORK}/home/.copilot/skills";
/// Trees captured for Copilot only, besides the shared ones.
const MORE: [&str; 9] = [
    "name-order",
    "collation",
    "same-name",
    "copilot-escape",
    "copilot-invalid",
    "copilot-budget",
    "copilot-limits",
    "copilot-more",
    "copilot-dup-order",
];

/// A capture: tree name, `--source` folders (lowest priority first), and the placeholders.
type Case = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn cases() -> Vec<Case> {
    let mut out: Vec<Case> =
        TREES.iter().chain(MORE.iter()).map(|t| (*t, vec![tree(t)], vec![(PROJECT_ROOT, tree(t))])).collect();
    let (base, project) = (tree("override-base"), tree("override-project"));
    out.push(("override", vec![base.clone(), project.clone()], vec![(USER_ROOT, base), (PROJECT_ROOT, project)]));
    out
}

fn library(sources: &[String]) -> Library {
    open_library(sources, &copilot_cli::AGENT)
}

#[test]
fn every_listing_is_byte_exact() {
    for (t, sources, _) in cases() {
        let mut args = vec!["prompt", "--agent", "copilot-cli"];
        for s in &sources {
            args.extend(["--source", s.as_str()]);
        }
        let out = skillkit(&args);
        assert_eq!(out.code, 0, "{t}: {}", out.stderr);
        match golden(AGENT, t, "listing.txt") {
            Some(want) => assert_same(&out.stdout, &want, t),
            None => {
                assert!(golden(AGENT, t, "no-listing.txt").is_some(), "no golden for {t}");
                assert_eq!(out.stdout, "", "{t}: Copilot sends no skills section");
            }
        }
    }
}

#[test]
fn the_skill_tool_is_offered_exactly_when_a_skill_is_listed() {
    for (t, sources, _) in cases() {
        let prompt = copilot_cli::AGENT.render(&library(&sources), &Default::default()).unwrap();
        let tools: Vec<serde_json::Value> = prompt
            .tools
            .iter()
            .map(|d| serde_json::json!({"name": d.name, "description": d.description, "parameters": d.parameters}))
            .collect();
        match golden(AGENT, t, "tool-skill.json") {
            Some(want) => {
                let want: serde_json::Value = serde_json::from_str(&want).unwrap();
                assert_eq!(tools, vec![want], "{t}");
            }
            None => {
                let offered: Vec<String> = serde_json::from_str(&golden(AGENT, t, "tools.json").unwrap()).unwrap();
                assert!(!offered.iter().any(|n| n == "skill"), "{t}: {offered:?}");
                assert!(tools.is_empty(), "{t}");
            }
        }
    }
}

#[test]
fn skill_calls_answer_as_copilot_does() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let lib = library(&sources);
        for (name, f, v) in golden_jsons(AGENT, t, "call-") {
            let result = substitute(v["tool_result"].as_str().unwrap(), &map);
            let after: Vec<String> =
                v["after"].as_array().unwrap().iter().map(|m| substitute(m["text"].as_str().unwrap(), &map)).collect();
            match copilot_cli::activate(&lib, &name) {
                Ok((ours, message)) => {
                    assert_same(&ours, &result, &format!("{t}/{f}"));
                    assert_eq!(after.len(), 1, "{t}/{f}");
                    assert_same(&message, &after[0], &format!("{t}/{f}"));
                }
                Err(ours) => {
                    assert_same(&ours, &result, &format!("{t}/{f}"));
                    assert!(after.is_empty(), "{t}/{f}: {after:?}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 7, "only {checked} call goldens");
}

/// `copilot skill list` names the skills that failed to load and why; the render records the
/// same skills as invalid, with the same reason (the YAML parser's own words aside).
#[test]
fn failed_skills_are_the_ones_skill_list_reports() {
    for (t, sources, _) in cases() {
        let Some(list) = golden(AGENT, t, "skill-list.txt") else { continue };
        let want: Vec<(String, String)> = list
            .lines()
            .filter_map(|l| l.strip_prefix("  • "))
            .map(|l| {
                let (path, reason) = l.split_once("/SKILL.md: ").unwrap();
                (path.rsplit('/').next().unwrap().to_string(), reason.to_string())
            })
            .collect();
        let prompt = copilot_cli::AGENT.render(&library(&sources), &Default::default()).unwrap();
        let mut ours: Vec<(String, String)> = prompt
            .skills
            .iter()
            .filter(|s| s.decision == Decision::Invalid)
            .map(|s| (s.folder.clone(), s.reason.clone().unwrap_or_default()))
            .collect();
        ours.sort();
        let mut want = want;
        want.sort();
        assert_eq!(ours.len(), want.len(), "{t}: {ours:?} vs {want:?}");
        for ((of, or), (wf, wr)) in ours.iter().zip(&want) {
            assert_eq!(of, wf, "{t}");
            let yaml = "failed to parse YAML frontmatter: ";
            if wr.starts_with(yaml) {
                assert!(or.starts_with(yaml), "{t}/{of}: {or}");
            } else {
                assert_eq!(or, wr, "{t}/{of}");
            }
        }
    }
}

#[test]
fn json_shows_the_budget_and_each_decision() {
    let t = tree("copilot-budget");
    let out = skillkit(&["prompt", "--agent", "copilot-cli", "--source", &t, "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["placement"], "system-prompt");
    assert_eq!(v["budget"]["limit"], 15_000);
    assert!(v["budget"]["needed"].as_u64().unwrap() > 15_000);
    let text = v["text"].as_str().unwrap();
    let skills = v["skills"].as_array().unwrap();
    let named: Vec<&str> =
        skills.iter().filter(|s| s["decision"] == "name-only").map(|s| s["name"].as_str().unwrap()).collect();
    assert!(named.contains(&"zz-tiny"), "{named:?}");
    let line = format!("Additional skills available (invoke by name): {}\n", named.join(", "));
    assert!(text.contains(&line), "{text}");
    for s in skills.iter().filter(|s| s["decision"] == "full") {
        let r = &s["range"];
        let (a, b) = (r["start"].as_u64().unwrap() as usize, r["end"].as_u64().unwrap() as usize);
        assert!(text[a..b].starts_with(&format!("<skill>\n  <name>{}</name>", s["name"].as_str().unwrap())));
    }
    let inv = tree("copilot-invalid");
    let out = skillkit(&["prompt", "--agent", "copilot-cli", "--source", &inv, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let hidden: Vec<&str> = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["decision"] == "hidden")
        .map(|s| s["name"].as_str().unwrap())
        .collect();
    assert_eq!(hidden, ["hidden"]);
}

/// The "Additional skills available" line names skills while it stays within 5,000 characters
/// (the `copilot-more` capture reaches exactly 5,000 with its last `cm-*` name); the rest are
/// counted, `... and N more`, and dropped: named nowhere.
#[test]
fn the_additional_line_names_up_to_5000_characters_and_counts_the_rest() {
    let t = tree("copilot-more");
    let out = skillkit(&["prompt", "--agent", "copilot-cli", "--source", &t, "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let text = v["text"].as_str().unwrap();
    let skills = v["skills"].as_array().unwrap();
    let of = |d: &str| -> Vec<&str> {
        skills.iter().filter(|s| s["decision"] == d).map(|s| s["name"].as_str().unwrap()).collect()
    };
    let (named, dropped) = (of("name-only"), of("dropped"));
    assert_eq!(dropped, ["cx-1", "cx-2", "cx-3", "cx-4", "cx-5"]);
    assert!(!named.is_empty() && named.iter().all(|n| n.starts_with("cm-")), "{named:?}");
    let line = format!("Additional skills available (invoke by name): {}", named.join(", "));
    assert_eq!(line.chars().count(), copilot_cli::ADDITIONAL_LINE_CHARS);
    assert!(text.contains(&format!("{line}... and 5 more\n</available_skills>")), "{text}");
    for s in skills.iter().filter(|s| s["decision"] == "dropped") {
        assert!(s.get("range").is_none(), "{s}");
        assert!(!text.contains(s["name"].as_str().unwrap()), "{s}");
    }
}
