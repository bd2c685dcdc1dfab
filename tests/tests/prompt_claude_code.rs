//! `skillkit prompt --agent claude-code` reproduces the skills listing the real Claude Code CLI
//! 2.1.332 sends, byte for byte, on every captured tree; the Skill tool and the invocation texts
//! (slash command, Skill tool result, denials) come from the profile's public functions.

use e2e::goldens::{assert_same, golden, tree, TREES};
use e2e::skillkit;
use skillkit::agents::claude_code::{self, Slash};
use std::path::PathBuf;

const AGENT: &str = "claude-code-2.1.332";

fn render(sources: &[String], extra: &[&str]) -> String {
    let mut args = vec!["prompt", "--agent", "claude-code"];
    for s in sources {
        args.extend(["--source", s.as_str()]);
    }
    args.extend_from_slice(extra);
    let out = skillkit(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

fn json(sources: &[String], extra: &[&str]) -> serde_json::Value {
    let mut extra = extra.to_vec();
    extra.extend(["--format", "json"]);
    serde_json::from_str(&render(sources, &extra)).unwrap()
}

/// The captured override: override-base was the user folder (higher priority), override-project
/// the project folder; `--source` is lowest priority first.
fn override_sources() -> Vec<String> {
    vec![tree("override-project"), tree("override-base")]
}

#[test]
fn every_single_source_tree() {
    for t in TREES {
        let want = golden(AGENT, t, "listing.txt").unwrap_or_else(|| panic!("no golden for {t}"));
        assert_same(&render(&[tree(t)], &[]), &want, t);
    }
}

/// Claude Code 2.1.330 sorts skill folders as JavaScript's `localeCompare` does (ICU, English,
/// full strength): `_` before `-` before `.`, digits before letters, accents and then case
/// (lowercase first) breaking ties, digits not read as numbers. Captured on folder names mixing
/// them (`tests/fixtures/prompt-trees/collation`).
#[test]
fn folders_are_listed_in_claude_codes_collation() {
    let want = golden(AGENT, "collation", "listing.txt").unwrap();
    assert_same(&render(&[tree("collation")], &[]), &want, "collation");
}

/// Folders declaring one `name`: Claude Code lists every folder, the first in its collation order
/// with the `(name)` suffix (`tests/fixtures/prompt-trees/same-name`, captured).
#[test]
fn folders_declaring_one_name_are_all_listed_the_first_with_the_name() {
    let want = golden(AGENT, "same-name", "listing.txt").unwrap();
    assert_same(&render(&[tree("same-name")], &[]), &want, "same-name");
}

/// Issue #39, 6b: a `name` that is one of Claude Code's built-in commands (`security-review`,
/// `init`, `workflows`, ...) is not shown: the entry is the folder alone, in the full listing, the
/// names-only listing (budget 1) and a mixed one (budget 700); a name that is only an alias
/// (`cost`), a command this mode does not enable (`upgrade`, `todos`) or a bundled skill
/// (`simplify`, bundled skills off) is shown as `folder (name)`
/// (`tests/fixtures/prompt-trees/builtin-names`, captured).
#[test]
fn a_name_that_is_a_built_in_command_leaves_the_folder_alone() {
    let t = tree("builtin-names");
    let want = golden(AGENT, "builtin-names", "listing.txt").unwrap();
    assert_same(&render(std::slice::from_ref(&t), &[]), &want, "builtin-names");
    for n in ["1", "700"] {
        let want = golden(AGENT, "builtin-names", &format!("listing-char-budget-{n}.txt")).unwrap();
        assert_same(&render(std::slice::from_ref(&t), &["--char-budget", n]), &want, n);
    }
    // The names-only capture is what the issue saw: `- audit-changes`, not `- audit-changes (security-review)`.
    let names_only = golden(AGENT, "builtin-names", "listing-char-budget-1.txt").unwrap();
    assert!(names_only.lines().any(|l| l == "- audit-changes"), "{names_only}");
    assert!(names_only.lines().any(|l| l == "- bump-plan (upgrade)"), "{names_only}");
}

#[test]
fn two_sources_the_user_folder_first_and_winning() {
    let want = golden(AGENT, "override", "listing.txt").unwrap();
    assert_same(&render(&override_sources(), &[]), &want, "override");
}

#[test]
fn the_char_budget_keeps_descriptions_while_they_fit() {
    let t = tree("budget-60");
    for n in ["4000", "8000"] {
        let want = golden(AGENT, "budget-60", &format!("listing-char-budget-{n}.txt")).unwrap();
        assert_same(&render(std::slice::from_ref(&t), &["--char-budget", n]), &want, n);
    }
}

#[test]
fn the_default_window_is_the_default_models_million_tokens() {
    // The captured default run lists all 60 in full: 30,000 characters of budget.
    let t = tree("budget-60");
    let v = json(std::slice::from_ref(&t), &[]);
    assert_eq!(v["budget"]["limit"], 30_000);
    assert_eq!(v["totals"]["context_window"], 1_000_000);
    // A 200k window gives 6,000: the listing shrinks.
    let v = json(std::slice::from_ref(&t), &["--context-window", "200000"]);
    assert_eq!(v["budget"]["limit"], 6_000);
    assert!(v["skills"].as_array().unwrap().iter().any(|s| s["decision"] == "name-only"));
}

#[test]
fn the_skill_tool_is_exact() {
    for t in TREES {
        let want: serde_json::Value = serde_json::from_str(&golden(AGENT, t, "tool-Skill.json").unwrap()).unwrap();
        let v = json(&[tree(t)], &[]);
        let tools = v["tools"].as_array().unwrap();
        assert_eq!(tools.len(), 1, "{t}");
        assert_eq!(tools[0]["name"], want["name"], "{t}");
        assert_eq!(tools[0]["description"], want["description"], "{t}");
        assert_eq!(tools[0]["parameters"], want["input_schema"], "{t}");
    }
}

#[test]
fn json_has_ranges_decisions_and_the_budget() {
    let t = tree("budget-60");
    let v = json(std::slice::from_ref(&t), &["--char-budget", "4000"]);
    let text = v["text"].as_str().unwrap();
    let skills = v["skills"].as_array().unwrap();
    assert_eq!(skills.len(), 61);
    let full: Vec<&serde_json::Value> = skills.iter().filter(|s| s["decision"] == "full").collect();
    let name_only: Vec<&serde_json::Value> = skills.iter().filter(|s| s["decision"] == "name-only").collect();
    assert_eq!((full.len(), name_only.len()), (7, 54));
    for s in skills {
        let (a, b) = (s["range"]["start"].as_u64().unwrap() as usize, s["range"]["end"].as_u64().unwrap() as usize);
        let entry = &text[a..b];
        let name = s["name"].as_str().unwrap();
        if s["decision"] == "name-only" {
            assert_eq!(entry, format!("- {name}"));
            assert!(s["reason"].as_str().unwrap().contains("4000"), "{s}");
        } else {
            assert!(entry.starts_with(&format!("- {name}: ")), "{entry}");
        }
    }
    let builtin = skills.iter().find(|s| s["name"] == "plugin-authoring").unwrap();
    assert!(builtin["source"].is_null());
    assert_eq!(builtin["decision"], "full");
    assert_eq!(v["budget"]["limit"], 4000);
    assert_eq!(v["budget"]["needed"], 25_475);
    assert_eq!(v["budget"]["unit"], "display columns");
    assert!(v["budget"]["rule"].as_str().unwrap().contains("SLASH_COMMAND_TOOL_CHAR_BUDGET"));
    assert_eq!(v["placement"], "system-message");
    assert_eq!(v["tokenizer"]["estimate"], true);
    assert_eq!(v["totals"]["bytes"].as_u64().unwrap() as usize, text.len());
    assert!(v["warnings"]
        .as_array()
        .unwrap()
        .iter()
        .any(|w| w.as_str().unwrap().starts_with("Skill listing over budget")));

    let v = json(&[tree("claude-fields")], &[]);
    let skills = v["skills"].as_array().unwrap();
    let manual = skills.iter().find(|s| s["folder"] == "manual-only").unwrap();
    assert_eq!(manual["decision"], "hidden");
    assert!(manual["reason"].as_str().unwrap().contains("disable-model-invocation"));
    assert!(manual["range"].is_null());
    let model_only = skills.iter().find(|s| s["folder"] == "model-only").unwrap();
    assert_eq!(model_only["decision"], "full");

    let v = json(&override_sources(), &[]);
    let skills = v["skills"].as_array().unwrap();
    let shadowed: Vec<&serde_json::Value> = skills.iter().filter(|s| s["decision"] == "shadowed").collect();
    assert_eq!(shadowed.len(), 1);
    assert_eq!(shadowed[0]["folder"], "lint-helper");
    assert_eq!(shadowed[0]["source"], 0);
}

/// Where the capture put each tree's skills: `{WORK}/proj/.claude/skills`, or the user folder
/// for override-base in the two-source capture.
fn captured_dir(capture: &str, source_tree: &str) -> &'static str {
    if capture == "override" && source_tree == "override-base" {
        "{WORK}/home/.claude/skills"
    } else {
        "{WORK}/proj/.claude/skills"
    }
}

fn skills_of(capture: &str) -> Vec<(String, PathBuf)> {
    let trees: Vec<&str> =
        if capture == "override" { vec!["override-base", "override-project"] } else { vec![capture] };
    let mut out = vec![];
    for t in trees {
        for e in std::fs::read_dir(tree(t)).unwrap() {
            let p = e.unwrap().path();
            if p.join("SKILL.md").exists() {
                out.push((t.to_string(), p));
            }
        }
    }
    out
}

fn load(path: &std::path::Path) -> claude_code::ClaudeSkill {
    let folder = path.file_name().unwrap().to_string_lossy().into_owned();
    let text = std::fs::read_to_string(path.join("SKILL.md")).unwrap();
    claude_code::parse_skill(&folder, &text, "SKILL.md")
}

#[test]
fn slash_commands_and_skill_tool_calls() {
    let mut checked = 0;
    let mut captures: Vec<&str> = TREES.to_vec();
    captures.push("override");
    for capture in captures {
        for (source_tree, path) in skills_of(capture) {
            let s = load(&path);
            let f = &s.name;
            // In the two-source capture, the user copy of lint-helper is the one that runs.
            if capture == "override" && f == "lint-helper" && source_tree == "override-project" {
                continue;
            }
            let base = format!("{}/{f}", captured_dir(capture, &source_tree));
            if let Some(g) = golden(AGENT, capture, &format!("slash-{f}.json")) {
                let g: serde_json::Value = serde_json::from_str(&g).unwrap();
                let what = format!("{capture}/slash-{f}");
                match claude_code::slash_command(&s, &base, "some args") {
                    Slash::Blocks(blocks) => {
                        let want: Vec<&str> =
                            g["blocks"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
                        assert_eq!(blocks.len(), want.len(), "{what}");
                        for (ours, theirs) in blocks.iter().zip(want) {
                            assert_same(ours, theirs, &what);
                        }
                    }
                    Slash::Printed(msg) => {
                        assert!(g.get("blocks").is_none(), "{what}");
                        assert_eq!(g["requests"], 0, "{what}");
                        assert_same(&format!("{msg}\n"), g["stdout"].as_str().unwrap(), &what);
                    }
                }
                checked += 1;
            }
            for (file, allowed) in [(format!("tool-{f}.json"), false), (format!("tool-{f}-allowedTools.json"), true)] {
                let Some(g) = golden(AGENT, capture, &file) else { continue };
                let g: serde_json::Value = serde_json::from_str(&g).unwrap();
                let what = format!("{capture}/{file}");
                let call = claude_code::skill_tool_call(&s, &base, Some("some args"), allowed);
                assert_same(&call.tool_result, g["tool_result"].as_str().unwrap(), &what);
                assert_eq!(call.is_error, g["is_error"].as_bool().unwrap(), "{what}");
                let want: Vec<&str> = g["blocks"].as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect();
                assert_eq!(call.blocks.len(), want.len(), "{what}");
                for (ours, theirs) in call.blocks.iter().zip(want) {
                    assert_same(ours, theirs, &what);
                }
                checked += 1;
            }
        }
    }
    // Every slash-*.json and tool-*.json golden (tool-Skill.json aside) of every capture.
    assert_eq!(checked, 89);
}

#[test]
fn every_invocation_golden_has_a_skill() {
    // No slash/tool golden is left unchecked for lack of a folder.
    let root = e2e::goldens::fixtures().join("prompt-goldens").join(AGENT);
    for capture in std::fs::read_dir(&root).unwrap() {
        let capture = capture.unwrap().path();
        if !capture.is_dir() {
            continue;
        }
        let name = capture.file_name().unwrap().to_string_lossy().into_owned();
        let folders: Vec<String> =
            skills_of(&name).into_iter().map(|(_, p)| p.file_name().unwrap().to_string_lossy().into_owned()).collect();
        for f in std::fs::read_dir(&capture).unwrap() {
            let file = f.unwrap().file_name().to_string_lossy().into_owned();
            let Some(stem) = file.strip_suffix(".json") else { continue };
            if stem == "tool-Skill" {
                continue;
            }
            let skill = stem
                .strip_prefix("slash-")
                .or_else(|| stem.strip_prefix("tool-"))
                .map(|s| s.strip_suffix("-allowedTools").unwrap_or(s))
                .unwrap();
            assert!(folders.iter().any(|f| f == skill), "{name}/{file}");
        }
    }
}
