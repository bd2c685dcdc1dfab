//! `skillkit prompt --agent deepagents` reproduces the section the real DeepAgents 0.7.32 appends
//! to the system prompt, byte for byte, on every captured tree (real-path sources).

use e2e::goldens::{assert_same, golden, substitute, tree, TREES};
use e2e::skillkit;

const AGENT: &str = "deepagents-0.7.32";

fn render(sources: &[String]) -> String {
    let mut args = vec!["prompt", "--agent", "deepagents"];
    for s in sources {
        args.extend(["--source", s.as_str()]);
    }
    let out = skillkit(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

#[test]
fn every_single_source_tree() {
    for t in TREES {
        let path = tree(t);
        let want = golden(AGENT, t, "section-real.txt").unwrap_or_else(|| panic!("no golden for {t}"));
        assert_same(&render(std::slice::from_ref(&path)), &substitute(&want, &[("{TREE}", &path)]), t);
    }
}

#[test]
fn two_sources_later_wins_in_the_earlier_slot() {
    let (base, project) = (tree("override-base"), tree("override-project"));
    let want = golden(AGENT, "override", "section-real.txt").unwrap();
    let tree_placeholder = base.strip_suffix("-base").unwrap();
    assert_same(&render(&[base.clone(), project]), &substitute(&want, &[("{TREE}", tree_placeholder)]), "override");
}

#[test]
fn a_missing_source_is_a_load_warning_in_the_text() {
    let t = tree("all-fields");
    let out = skillkit(&["prompt", "--agent", "deepagents", "--source", &t, "--source", "/skills/nope/"]);
    assert_eq!(out.code, 0);
    let want = golden(AGENT, "all-fields", "section-missing-source.txt").unwrap();
    // The capture used virtual paths (/skills/user/ for the tree); compare the warning block.
    let block =
        |s: &str| s[s.find("<skill_load_warnings>").unwrap()..s.find("</skill_load_warnings>").unwrap()].to_string();
    assert_same(&block(&out.stdout), &block(&want), "missing source");
}

#[test]
fn json_has_ranges_decisions_and_counts() {
    let t = tree("invalid");
    let out = skillkit(&["prompt", "--agent", "deepagents", "--source", &t, "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let text = v["text"].as_str().unwrap();
    let skills = v["skills"].as_array().unwrap();
    let listed: Vec<&serde_json::Value> = skills.iter().filter(|s| s["decision"] == "full").collect();
    assert_eq!(listed.len(), 2);
    for s in &listed {
        let r = &s["range"];
        let (a, b) = (r["start"].as_u64().unwrap() as usize, r["end"].as_u64().unwrap() as usize);
        assert!(text[a..b].starts_with(&format!("- **{}**: ", s["name"].as_str().unwrap())));
        assert!(s["tokens"].as_u64().unwrap() > 5);
    }
    let invalid: Vec<&str> =
        skills.iter().filter(|s| s["decision"] == "invalid").map(|s| s["folder"].as_str().unwrap()).collect();
    assert_eq!(invalid, ["colon-desc", "empty-desc", "no-desc", "no-frontmatter", "no-name"]);
    let colon = skills.iter().find(|s| s["folder"] == "colon-desc").unwrap();
    assert!(colon["reason"].as_str().unwrap().starts_with("Invalid YAML in "), "{colon}");
    assert_eq!(v["totals"]["bytes"].as_u64().unwrap() as usize, text.len());
    assert!(v["totals"]["tokens"]["o200k_base"].as_u64().unwrap() > 400);
    assert_eq!(v["placement"], "system-prompt");
}
