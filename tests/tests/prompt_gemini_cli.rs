//! `skillkit prompt --agent gemini-cli` reproduces the `# Available Agent Skills` section of the
//! real Gemini CLI 0.61.0 system instruction byte for byte on every captured tree, with its
//! `activate_skill` tool definition, every activation result and the conflict warning.

use e2e::goldens::{assert_same, golden, open_library, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::gemini_cli;
use skillkit::library::Library;

const AGENT: &str = "gemini-cli-0.61.0";
const PROJECT_ROOT: &str = "{WORK}/proj/.gemini/skills";
const USER_ROOT: &str = "{WORK}/home/.gemini/skills";

/// A capture: tree name, `--source` folders, and the placeholders to substitute.
type Case = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn cases() -> Vec<Case> {
    let mut out: Vec<_> = TREES.iter().map(|t| (*t, vec![tree(t)], vec![(PROJECT_ROOT, tree(t))])).collect();
    let (base, project) = (tree("override-base"), tree("override-project"));
    out.push(("override", vec![base.clone(), project.clone()], vec![(USER_ROOT, base), (PROJECT_ROOT, project)]));
    out
}

fn library(sources: &[String]) -> Library {
    open_library(sources, &gemini_cli::AGENT)
}

fn prompt(sources: &[String]) -> skillkit::prompt::Prompt {
    gemini_cli::AGENT.render(&library(sources), &Default::default()).unwrap()
}

#[test]
fn every_listing_is_byte_exact() {
    for (t, sources, map) in cases() {
        let mut args = vec!["prompt", "--agent", "gemini-cli"];
        for s in &sources {
            args.extend(["--source", s.as_str()]);
        }
        let out = skillkit(&args);
        assert_eq!(out.code, 0, "{}", out.stderr);
        match golden(AGENT, t, "listing.txt") {
            Some(want) => assert_same(&out.stdout, &substitute(&want, &map), t),
            None => {
                assert!(golden(AGENT, t, "no-listing.txt").is_some(), "no golden for {t}");
                assert_eq!(out.stdout, "", "{t}: no section");
            }
        }
    }
}

/// Gemini CLI 0.61.0 lists skill folders in descending byte order of the folder path, so a folder
/// whose name starts another's (`foo`, `foo-bar`, `foo.x`) comes after it. Captured on
/// `tests/fixtures/prompt-trees/name-order`.
#[test]
fn folders_sharing_a_prefix_are_listed_in_geminis_order() {
    let t = tree("name-order");
    let out = skillkit(&["prompt", "--agent", "gemini-cli", "--source", &t]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let want = golden(AGENT, "name-order", "listing.txt").unwrap();
    assert_same(&out.stdout, &substitute(&want, &[(PROJECT_ROOT, t.clone())]), "name-order");
}

/// Three folders of one source declaring one `name` (`dup`, `dup-x`, `dup_y`): Gemini CLI keeps
/// the byte-smallest folder's (`tests/fixtures/prompt-trees/same-name`, captured).
#[test]
fn of_folders_declaring_one_name_gemini_keeps_the_byte_smallest() {
    let t = tree("same-name");
    let out = skillkit(&["prompt", "--agent", "gemini-cli", "--source", &t]);
    let want = golden(AGENT, "same-name", "listing.txt").unwrap();
    assert_same(&out.stdout, &substitute(&want, &[(PROJECT_ROOT, t.clone())]), "same-name");
}

#[test]
fn the_activate_skill_tool_matches() {
    for (t, sources, _) in cases() {
        let want: serde_json::Value =
            serde_json::from_str(&golden(AGENT, t, "tool-activate_skill.json").unwrap()).unwrap();
        let p = prompt(&sources);
        assert_eq!(p.tools.len(), 1, "{t}");
        let tool = &p.tools[0];
        assert_eq!(tool.name, want["name"], "{t}");
        assert_same(&tool.description, want["description"].as_str().unwrap(), t);
        assert_eq!(tool.parameters, want["parametersJsonSchema"], "{t}");
    }
}

#[test]
fn every_activation_matches() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let lib = library(&sources);
        for (stem, f, v) in e2e::goldens::golden_jsons(AGENT, t, "activate-") {
            let name = stem.as_str();
            let want = substitute(v["function_response"]["output"].as_str().unwrap(), &map);
            let ours = gemini_cli::activate(&lib, name).unwrap_or_else(|e| panic!("{t}/{f}: {e}"));
            assert_same(&ours, &want, &format!("{t}/{f}"));
            checked += 1;
        }
        assert!(gemini_cli::activate(&lib, "no-such-skill").unwrap_err().starts_with("Error: Skill \"no-such-skill\""));
    }
    assert!(checked >= 24, "only {checked} activation goldens");
}

#[test]
fn a_name_clash_warns_like_gemini() {
    for (t, sources, map) in cases() {
        let want = golden(AGENT, t, "listing.stderr.txt").map(|w| substitute(&w, &map)).unwrap_or_default();
        let ours: String = prompt(&sources).warnings.iter().map(|w| format!("{w}\n")).collect();
        assert_same(&ours, &want, t);
    }
}

#[test]
fn json_has_ranges_decisions_and_reasons() {
    let (base, project) = (tree("override-base"), tree("override-project"));
    let out =
        skillkit(&["prompt", "--agent", "gemini-cli", "--source", &base, "--source", &project, "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["placement"], "system-prompt");
    assert_eq!(v["tokenizer"]["estimate"], true);
    assert_eq!(v["tools"][0]["name"], "activate_skill");
    let text = v["text"].as_str().unwrap();
    let skills = v["skills"].as_array().unwrap();
    let full: Vec<&str> =
        skills.iter().filter(|s| s["decision"] == "full").map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(full, ["lint-helper", "base-only", "project-only"]);
    for s in skills.iter().filter(|s| s["decision"] == "full") {
        let (a, b) = (s["range"]["start"].as_u64().unwrap() as usize, s["range"]["end"].as_u64().unwrap() as usize);
        assert!(text[a..b].starts_with(&format!("  <skill>\n    <name>{}</name>", s["name"].as_str().unwrap())));
        assert!(text[a..b].ends_with("</location>\n  </skill>"));
    }
    let shadowed = skills.iter().find(|s| s["decision"] == "shadowed").unwrap();
    assert_eq!(shadowed["path"], format!("{base}/lint-helper/SKILL.md"));
    assert!(shadowed["reason"].as_str().unwrap().contains(&project));

    let out = skillkit(&["prompt", "--agent", "gemini-cli", "--source", &tree("invalid"), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let invalid: Vec<&str> = v["skills"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["decision"] == "invalid")
        .map(|s| s["folder"].as_str().unwrap())
        .collect();
    assert_eq!(invalid, ["no-name", "no-frontmatter", "no-desc"]);
}
