//! `skillkit prompt --agent mistral-vibe` reproduces the `<available-skills>` block the real Mistral
//! Vibe 3.0.3 puts in its system prompt, byte for byte, on every captured tree
//! (`tests/oracles/capture_mistral_vibe.sh`); the `## Available Skills` instructions, the `skill`
//! tool, its answers and the skills Vibe reports as failed to load match too.

use e2e::goldens::{assert_same, golden, golden_jsons, open_library, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::mistral_vibe;
use skillkit::library::Library;
use skillkit::prompt::Decision;

const AGENT: &str = "mistral-vibe-3.0.3";
const PROJECT_ROOT: &str = "{WORK}/proj/.vibe/skills";
const USER_ROOT: &str = "{WORK}/home/.vibe/skills";
const VIBE_HOME: &str = "{WORK}/home/.vibe";
/// Trees captured for Vibe, besides the shared ones.
const MORE: [&str; 7] =
    ["name-order", "collation", "same-name", "copilot-escape", "copilot-invalid", "copilot-limits", "kimi-edge"];

/// A capture: tree name, `--source` folders (lowest priority first), and the placeholders.
type Case = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn cases() -> Vec<Case> {
    let home = (VIBE_HOME, mistral_vibe::vibe_home());
    let mut out: Vec<Case> = TREES
        .iter()
        .chain(MORE.iter())
        .map(|t| (*t, vec![tree(t)], vec![(PROJECT_ROOT, tree(t)), home.clone()]))
        .collect();
    let (base, project) = (tree("override-base"), tree("override-project"));
    out.push(("override", vec![base.clone(), project.clone()], vec![(USER_ROOT, base), (PROJECT_ROOT, project), home]));
    out
}

fn library(sources: &[String]) -> Library {
    open_library(sources, &mistral_vibe::AGENT)
}

#[test]
fn every_listing_is_byte_exact() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let mut args = vec!["prompt", "--agent", "mistral-vibe"];
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
fn the_instructions_and_the_skill_tool_are_the_captured_ones() {
    for (t, sources, _) in cases() {
        assert_eq!(golden(AGENT, t, "section.txt").unwrap(), mistral_vibe::SECTION, "{t}");
        let prompt = mistral_vibe::AGENT.render(&library(&sources), &Default::default()).unwrap();
        let tools: Vec<serde_json::Value> = prompt
            .tools
            .iter()
            .map(|d| serde_json::json!({"name": d.name, "description": d.description, "parameters": d.parameters}))
            .collect();
        let want: serde_json::Value = serde_json::from_str(&golden(AGENT, t, "tool-skill.json").unwrap()).unwrap();
        assert_eq!(tools, vec![want], "{t}");
    }
}

#[test]
fn skill_calls_answer_as_vibe_does() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let lib = library(&sources);
        for (name, f, v) in golden_jsons(AGENT, t, "call-") {
            let want = substitute(v["tool_result"].as_str().unwrap(), &map);
            let ours = mistral_vibe::activate(&lib, &name).unwrap_or_else(|e| panic!("{t}/{f}: {e}"));
            assert_same(&ours, &want, &format!("{t}/{f}"));
            checked += 1;
        }
    }
    assert!(checked >= 4, "only {checked} call goldens");
}

/// Vibe prints `PATH: Failed to load: REASON` on stderr; the render records the same skills as
/// invalid, with the same reason (its first two lines: pydantic's count and field, or YAML's
/// message).
#[test]
fn failed_skills_are_the_ones_vibe_reports() {
    let mut failed = 0;
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
        let prompt = mistral_vibe::AGENT.render(&library(&sources), &Default::default()).unwrap();
        let mut ours: Vec<(String, String)> = prompt
            .skills
            .iter()
            .filter(|s| s.decision == Decision::Invalid)
            .map(|s| (s.folder.clone(), s.reason.clone().unwrap_or_default()))
            // A reserved name is skipped without a word on stderr.
            .filter(|(_, r)| !r.contains("which are reserved"))
            .collect();
        ours.sort();
        want.sort();
        assert_eq!(ours.len(), want.len(), "{t}: {ours:?} vs {want:?}");
        for ((of, or), (wf, wr)) in ours.iter().zip(&want) {
            assert_eq!(of, wf, "{t}");
            let or = or.strip_prefix("Failed to load: ").unwrap_or(or);
            let head = |s: &str| s.lines().take(2).collect::<Vec<_>>().join("\n");
            if wr.starts_with("Invalid YAML frontmatter: ") {
                assert!(or.starts_with("Invalid YAML frontmatter: "), "{t}/{of}: {or}");
            } else {
                assert_eq!(head(or), head(wr), "{t}/{of}");
            }
        }
        failed += want.len();
    }
    assert!(failed >= 6, "only {failed} failed skills captured");
}

/// A library skill named like a reserved built-in is never listed, and `check` calls it invalid.
#[test]
fn reserved_built_in_names_are_skipped() {
    let prompt = mistral_vibe::AGENT.render(&library(&[tree("kimi-edge")]), &Default::default()).unwrap();
    let s = prompt.skills.iter().find(|s| s.folder == "skill-creator").unwrap();
    assert_eq!(s.decision, Decision::Invalid);
    assert!(!prompt.text.contains("<name>skill-creator</name>"));
}
