//! `skillkit matrix`: the table, JSON and Markdown, `--require` as CI uses it, and bad input.

use e2e::{skillkit, write_tree};
use serde_json::Value;

const GOOD: &[u8] = b"---\nname: good\ndescription: Does good things. Use when asked for good things.\n---\nBody.\n";
const BROKEN: &[u8] = b"---\nname: broken\ndescription: [unclosed\n---\nBody.\n";

fn library(files: &[(&str, &[u8])]) -> tempfile::TempDir {
    let t = tempfile::tempdir().unwrap();
    write_tree(t.path(), files);
    t
}

#[test]
fn json_has_a_cell_per_skill_and_agent_with_the_reason() {
    let t = library(&[("good/SKILL.md", GOOD), ("broken/SKILL.md", BROKEN), ("plugins/p/skills/deep/SKILL.md", GOOD)]);
    let out = skillkit(&["matrix", &t.path().to_string_lossy(), "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let m: Value = serde_json::from_str(&out.stdout).unwrap();
    let columns = m["columns"].as_array().unwrap();
    let agents: Vec<&str> = columns.iter().map(|c| c["agent"].as_str().unwrap()).collect();
    assert!(agents.contains(&"claude-code") && agents.contains(&"codex") && !agents.contains(&"spec"), "{agents:?}");
    let rows = m["rows"].as_array().unwrap();
    assert_eq!(rows.len(), 3);
    for r in rows {
        assert_eq!(r["cells"].as_array().unwrap().len(), columns.len());
    }
    let claude = agents.iter().position(|a| *a == "claude-code").unwrap();
    let deep = rows.iter().find(|r| r["path"].as_str().unwrap().ends_with("deep/SKILL.md")).unwrap();
    assert_eq!(deep["cells"][claude]["status"], "not-discovered");
    let broken = rows.iter().find(|r| r["name"] == "broken").unwrap();
    let deepagents = agents.iter().position(|a| *a == "deepagents").unwrap();
    assert_eq!(broken["cells"][deepagents]["status"], "skipped");
    assert!(broken["cells"][deepagents]["reason"].as_str().unwrap().contains("YAML"));
    let good = rows.iter().find(|r| r["name"] == "good").unwrap();
    assert_eq!(good["cells"][claude]["status"], "full");
}

#[test]
fn text_is_a_table_with_a_legend_and_the_reasons() {
    let t = library(&[("good/SKILL.md", GOOD), ("broken/SKILL.md", BROKEN)]);
    let out = skillkit(&["matrix", &t.path().to_string_lossy(), "--agent", "deepagents", "--agent", "claude-code"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let text = &out.stdout;
    assert!(text.starts_with("2 skills × 2 agents\n"), "{text}");
    assert!(text.contains("● full") && text.contains("· not discovered"), "{text}");
    let good = text.lines().find(|l| l.starts_with("good ")).unwrap();
    assert_eq!(good.split_whitespace().collect::<Vec<_>>(), ["good", "●", "●"]);
    let broken = text.lines().find(|l| l.starts_with("broken ")).unwrap();
    assert_eq!(broken.split_whitespace().nth(1), Some("✗"), "{text}");
    assert!(text.contains("\nwhy:\n") && text.contains("deepagents     skipped: "), "{text}");
}

#[test]
fn markdown_is_a_table_for_a_readme() {
    let t = library(&[("good/SKILL.md", GOOD), ("broken/SKILL.md", BROKEN)]);
    let out = skillkit(&["matrix", &t.path().to_string_lossy(), "--agent", "deepagents", "--format", "markdown"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let lines: Vec<&str> = out.stdout.lines().collect();
    assert_eq!(lines[0], "| skill | DeepAgents |");
    assert_eq!(lines[1], "|---|:-:|");
    assert!(lines.contains(&"| `good` | ✅ |") && lines.contains(&"| `broken` | ❌ |"), "{}", out.stdout);
    assert!(out.stdout.contains("Made with `skillkit matrix` against DeepAgents: "));
}

#[test]
fn require_fails_exactly_when_a_skill_misses_the_bar_for_a_named_agent() {
    let t = library(&[("good/SKILL.md", GOOD), ("broken/SKILL.md", BROKEN)]);
    let lib = t.path().to_string_lossy().to_string();
    // DeepAgents skips the broken skill: `listed` is missed, and the line says why.
    let out = skillkit(&["matrix", &lib, "--agent", "deepagents", "--require", "listed", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("error: broken is not listed by deepagents: skipped: "), "{}", out.stderr);
    assert!(!out.stderr.contains("good"), "{}", out.stderr);
    // The good skill alone is listed by every agent, in full by those that list descriptions;
    // Cline lists names only, so `full` is missed there.
    let g = library(&[("good/SKILL.md", GOOD)]);
    let g = g.path().to_string_lossy().to_string();
    let out = skillkit(&["matrix", &g, "--require", "listed"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = skillkit(&["matrix", &g, "--require", "full", "--agent", "claude-code", "--agent", "codex"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let out = skillkit(&["matrix", &g, "--require", "full", "--agent", "cline"]);
    assert_eq!(out.code, 1);
    assert!(out.stderr.contains("error: good is not listed in full by cline: name only: "), "{}", out.stderr);
    // Two skills of one name: OpenCode's winner is a race, which meets no bar.
    let twins = library(&[
        ("one/SKILL.md", b"---\nname: twin\ndescription: One. Use when asked.\n---\n"),
        ("two/SKILL.md", b"---\nname: twin\ndescription: Two. Use when asked.\n---\n"),
    ]);
    let out = skillkit(&["matrix", &twins.path().to_string_lossy(), "--agent", "opencode", "--require", "listed"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stderr.contains("depends on chance"), "{}", out.stderr);
    assert!(out.stdout.lines().any(|l| l.starts_with("twin ") && l.contains('?')), "{}", out.stdout);
}

#[test]
fn bad_arguments_and_hostile_names() {
    let t = library(&[("good/SKILL.md", GOOD)]);
    let lib = t.path().to_string_lossy().to_string();
    let out = skillkit(&["matrix", &lib, "--agent", "nobody"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("unknown agent `nobody`"), "{}", out.stderr);
    let out = skillkit(&["matrix", &lib, "--agent", "spec"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("lists no skills"), "{}", out.stderr);
    let out = skillkit(&["matrix", &t.path().join("missing").to_string_lossy()]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("is not a folder"), "{}", out.stderr);
    // A skill named with terminal escapes: shown escaped in every format.
    let h = library(&[(
        "evil/SKILL.md",
        b"---\nname: \"evil\\e]0;pwned\\a\"\ndescription: Escapes. Use when asked.\n---\n",
    )]);
    for format in ["text", "json", "markdown"] {
        let out = skillkit(&["matrix", &h.path().to_string_lossy(), "--format", format, "--agent", "codex"]);
        assert!(!out.stdout.contains('\u{1b}') && !out.stdout.contains('\u{7}'), "{format}: {:?}", out.stdout);
        assert!(!out.stderr.contains('\u{1b}'), "{format}");
    }
}

#[test]
fn each_agent_takes_its_own_settings() {
    let t = library(&[
        ("good/SKILL.md", GOOD),
        ("other/SKILL.md", b"---\nname: other\ndescription: Another skill. Use when asked for the other one.\n---\n"),
    ]);
    let lib = t.path().to_string_lossy().to_string();
    let statuses = |out: &e2e::Output, agent: &str| -> Vec<String> {
        let m: Value = serde_json::from_str(&out.stdout).unwrap();
        let a = m["columns"].as_array().unwrap().iter().position(|c| c["agent"] == agent).unwrap();
        m["rows"].as_array().unwrap().iter().map(|r| r["cells"][a]["status"].as_str().unwrap().to_string()).collect()
    };
    let base = ["matrix", &lib, "--agent", "claude-code", "--agent", "codex", "--format", "json"];
    let out = skillkit(&base);
    assert_eq!(statuses(&out, "claude-code"), ["full", "full"]);
    // Claude Code's override hides one skill; Codex, which has no such setting, is untouched.
    let mut args = base.to_vec();
    args.extend(["--agent-setting", "skillOverrides.good=off"]);
    let out = skillkit(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let claude = statuses(&out, "claude-code");
    assert!(claude.contains(&"hidden".to_string()) && claude.contains(&"full".to_string()), "{claude:?}");
    assert_eq!(statuses(&out, "codex"), ["full", "full"]);
    // A setting no agent shown has is an error.
    let mut args = base.to_vec();
    args.extend(["--agent-setting", "noSuchSetting=1"]);
    let out = skillkit(&args);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no agent shown has the setting `noSuchSetting`"), "{}", out.stderr);
}
