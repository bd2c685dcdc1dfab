//! The project's configuration (`skillkit.toml`, `[tool.skillkit]` in `pyproject.toml`) as the
//! commands read it: the agent and the sources it names, rule levels, per-path ignores, the
//! baseline (`check --write-baseline`), `--config`, and located errors for a broken file.

use e2e::{skillkit, write_tree};
use serde_json::Value;
use std::path::Path;

/// A library with two skills: `good`, and `legacy/old` with an unquoted colon (SK301), an unknown
/// key (SK403) and a missing reference (SK601).
fn library(root: &Path) {
    write_tree(
        root,
        &[
            ("skills/good/SKILL.md", b"---\nname: good\ndescription: Formats tables. Use when asked for a table.\n---\n\n# Good\n"),
            (
                "skills/legacy/old/SKILL.md",
                b"---\nname: old\ndescription: Old thing. Use when: asked.\nversion: 1\n---\n\nSee [x](references/x.md).\n",
            ),
        ],
    );
}

fn codes(json: &Value, skill: &str) -> Vec<(String, String)> {
    let s = json["skills"].as_array().unwrap().iter().find(|s| s["path"].as_str().unwrap().contains(skill)).unwrap();
    let mut v: Vec<(String, String)> = s["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| (d["code"].as_str().unwrap().to_string(), d["severity"].as_str().unwrap().to_string()))
        .collect();
    v.sort();
    v
}

fn check_json(args: &[&str]) -> (i32, Value, String) {
    let mut all = vec!["check", "--format", "json"];
    all.extend_from_slice(args);
    let out = skillkit(&all);
    let json = serde_json::from_str(&out.stdout).unwrap_or(Value::Null);
    (out.code, json, out.stderr)
}

#[test]
fn levels_and_ignores_change_the_findings_and_the_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    library(&root);
    let skills = root.join("skills");
    let skills = skills.to_str().unwrap();
    let (code, json, _) = check_json(&[skills]);
    assert_eq!(code, 1);
    let old = codes(&json, "old");
    assert!(old.contains(&("SK301".into(), "error".into())), "{old:?}");

    std::fs::write(
        root.join("skillkit.toml"),
        "[rules]\nunquoted-colon = \"warning\"\nSK403 = \"off\"\n\n[per-path-ignores]\n\"skills/legacy/**\" = [\"reference-missing\"]\n",
    )
    .unwrap();
    let (code, json, stderr) = check_json(&[skills]);
    let old = codes(&json, "old");
    assert!(old.contains(&("SK301".into(), "warning".into())), "{old:?} {stderr}");
    assert!(!old.iter().any(|(c, _)| c == "SK403" || c == "SK601"), "{old:?}");
    assert_eq!(code, 0, "only warnings left: {stderr}");
    let (code, _, _) = check_json(&[skills, "--strict"]);
    assert_eq!(code, 1);
}

#[test]
fn the_agent_and_sources_come_from_the_configuration_unless_given() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    library(&root);
    write_tree(
        &root,
        &[(
            "pyproject.toml",
            b"[project]\nname = \"x\"\n\n[tool.skillkit]\nagent = \"codex\"\nsources = [\"skills\"]\n",
        )],
    );
    let inner = root.join("skills/good");
    // From a path below the file: its agent applies.
    let (_, json, _) = check_json(&[inner.to_str().unwrap()]);
    assert_eq!(json["agent"], "codex", "{json}");
    let (_, json, _) = check_json(&[inner.to_str().unwrap(), "--agent", "gemini-cli"]);
    assert_eq!(json["agent"], "gemini-cli");
    // `--config` names the file; no path: its sources.
    let config = root.join("pyproject.toml");
    let out = skillkit(&["--config", config.to_str().unwrap(), "tree", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("\"good\"") && out.stdout.contains("\"old\""), "{}", out.stdout);
    let out = skillkit(&["prompt", "--config", config.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("good"), "codex lists the good skill: {}", out.stdout);
    // No agent anywhere: prompt says what to do.
    let bare = tempfile::tempdir().unwrap();
    let empty = bare.path().join("skillkit.toml");
    std::fs::write(&empty, "").unwrap();
    let out = skillkit(&["prompt", "--source", bare.path().to_str().unwrap(), "--config", empty.to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no agent"), "{}", out.stderr);
    let out = skillkit(&["check", "--config", bare.path().join("missing.toml").to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("missing.toml"), "{}", out.stderr);
}

#[test]
fn a_baseline_accepts_todays_findings_and_new_ones_still_fail() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    library(&root);
    std::fs::write(root.join("skillkit.toml"), "baseline = \"accepted.json\"\n").unwrap();
    let skills = root.join("skills");
    let out = skillkit(&["check", skills.to_str().unwrap(), "--write-baseline"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("accepted.json"), "{}", out.stderr);
    let written: Value = serde_json::from_str(&std::fs::read_to_string(root.join("accepted.json")).unwrap()).unwrap();
    assert!(written["findings"].as_array().unwrap().iter().any(|f| f["path"] == "skills/legacy/old/SKILL.md"));
    let (code, json, stderr) = check_json(&[skills.to_str().unwrap()]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(codes(&json, "old"), vec![]);
    assert!(stderr.contains("accepted in the baseline"), "{stderr}");
    // A line added above the findings moves them; still accepted. A new finding is not.
    write_tree(
        &root,
        &[(
            "skills/legacy/old/SKILL.md",
            b"---\n# moved\nname: old\ndescription: Old thing. Use when: asked.\nversion: 1\nauthor: me\n---\n\nSee [x](references/x.md).\n",
        )],
    );
    let (_, json, _) = check_json(&[skills.to_str().unwrap()]);
    let old = codes(&json, "old");
    assert_eq!(old.len(), 1, "only the new unknown key: {old:?}");
    assert_eq!(old[0].0, "SK403");
}

#[test]
fn a_broken_configuration_is_a_located_error_not_a_silent_default() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    library(&root);
    std::fs::write(root.join("skillkit.toml"), "agent = \"codex\"\n[rules]\nSK601 = \"loud\"\n").unwrap();
    let out = skillkit(&["check", root.join("skills").to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("skillkit.toml") && out.stderr.contains("\"loud\""), "{}", out.stderr);
    std::fs::write(root.join("skillkit.toml"), "agent = \"codex\"\nrules = [\n").unwrap();
    let out = skillkit(&["check", root.join("skills").to_str().unwrap()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("skillkit.toml: line 2"), "{}", out.stderr);
    std::fs::write(root.join("skillkit.toml"), "agent = \"codex\"\nlater = true\n").unwrap();
    let out = skillkit(&["check", root.join("skills").to_str().unwrap()]);
    assert!(out.stderr.contains("unknown key `later`"), "{}", out.stderr);
}
