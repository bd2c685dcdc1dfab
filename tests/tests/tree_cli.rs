//! `skillkit tree` on a committed two-source library: the project source overrides the base's
//! `shared-skill`, and a nested script is invisible to DeepAgents V2's first-level discovery.

use e2e::skillkit;
use serde_json::Value;

const ARGS: [&str; 5] = ["tree", "--source", "fixtures/library/base", "--source", "fixtures/library/project"];

#[test]
fn text_snapshot() {
    let out = skillkit(&ARGS);
    assert_eq!(out.code, 0, "{}", out.stderr);
    insta::assert_snapshot!("tree_text", out.stdout);
}

#[test]
fn json_reports_shadowing_and_visibility() {
    let mut args = ARGS.to_vec();
    args.extend(["--format", "json"]);
    let out = skillkit(&args);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let skills = json["skills"].as_array().unwrap();
    let base_shared = skills.iter().find(|s| s["name"] == "shared-skill" && s["source"] == 1).unwrap();
    assert_eq!(base_shared["shadowed_by"]["source"], 2);
    let project = skills.iter().find(|s| s["name"] == "shared-skill" && s["source"] == 2).unwrap();
    assert!(project["shadowed_by"].is_null());
    let files = project["files"].as_array().unwrap();
    let vis = |p: &str| files.iter().find(|f| f["path"] == p).unwrap()["visible_to"].clone();
    assert_eq!(vis("scripts/run.py"), serde_json::json!(["deepagents-v2", "gemini-cli"]));
    assert_eq!(vis("scripts/util/helper.py"), serde_json::json!(["gemini-cli"]));
    insta::assert_snapshot!("tree_json", out.stdout);
}

#[test]
fn a_missing_source_is_reported_with_exit_2() {
    let out = skillkit(&["tree", "--source", "fixtures/library/base", "--source", "fixtures/library/nope"]);
    assert_eq!(out.code, 2);
    assert!(out.stdout.contains("source folder does not exist"));
}
