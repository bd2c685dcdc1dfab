//! `skillkit prompt --agent claude-code` reproduces the skills listing the real Claude Code CLI
//! 2.1.332 sends, byte for byte, on every captured tree; the Skill tool and the invocation texts
//! (slash command, Skill tool result, denials) come from the profile's public functions.

use e2e::goldens::{assert_same, golden, tree, TREES};
use e2e::skillkit;
use skillkit::agents::claude_code::{self, Slash};
use std::path::PathBuf;

const AGENT: &str = "claude-code-2.1.332";

/// How every golden outside `settings-bundled-*` was captured (CLAUDE_CODE_DISABLE_BUNDLED_SKILLS=1,
/// meta.json): the same as Claude Code's own setting `disableBundledSkills: true`.
const BUNDLED_OFF: [&str; 2] = ["--agent-setting", "disableBundledSkills=true"];

/// The render with the bundled skills off, as the goldens were captured.
fn render(sources: &[String], extra: &[&str]) -> String {
    let mut extra = extra.to_vec();
    extra.extend(BUNDLED_OFF);
    render_as_is(sources, &extra)
}

/// The render with nothing added (the bundled skills on unless `extra` says otherwise).
fn render_as_is(sources: &[String], extra: &[&str]) -> String {
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
        if name.starts_with("settings-") {
            continue; // listings under non-default settings only (their own test above)
        }
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

/// The settings captures (`tests/oracles/capture_settings.sh`): `settings-<case>/` holds the
/// listing and what the real Claude Code 2.1.330 was given: `settings.json` (its `--settings`
/// flag), `user.json`, `project.json`, `local.json` (written to `~/.claude/settings.json`,
/// `<project>/.claude/settings.json`, `<project>/.claude/settings.local.json`).
fn settings_cases() -> Vec<String> {
    let dir = e2e::goldens::fixtures().join("prompt-goldens").join(AGENT);
    let mut out: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with("settings-"))
        .collect();
    out.sort();
    out
}

/// Runs the case the way a user of skillkit would give the same settings: the agent's files in
/// a project (skillkit.toml beside them) and a home folder, the flag settings as
/// `--agent-setting KEY=JSON`. Returns (stdout, stderr, exit code).
fn render_settings_case(case: &str, extra: &[&str]) -> (String, String, i32) {
    let meta: serde_json::Value = serde_json::from_str(&golden(AGENT, case, "case.json").unwrap()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    let (project, home) = (dir.path().join("proj"), dir.path().join("home"));
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::create_dir_all(home.join(".claude")).unwrap();
    std::fs::write(project.join("skillkit.toml"), "").unwrap();
    for (file, to) in [
        ("user.json", home.join(".claude/settings.json")),
        ("project.json", project.join(".claude/settings.json")),
        ("local.json", project.join(".claude/settings.local.json")),
    ] {
        if let Some(text) = golden(AGENT, case, file) {
            std::fs::write(to, text).unwrap();
        }
    }
    let config = project.join("skillkit.toml").to_string_lossy().into_owned();
    let home_arg = home.to_string_lossy().into_owned();
    let source = tree(meta["tree"].as_str().unwrap());
    let mut args: Vec<String> = ["--config", &config, "prompt", "--agent", "claude-code", "--source", &source]
        .iter()
        .map(|s| s.to_string())
        .collect();
    args.extend(["--user-settings".to_string(), home_arg]);
    if let Some(flag) = golden(AGENT, case, "settings.json") {
        let v: serde_json::Value = serde_json::from_str(&flag).unwrap();
        for (k, v) in v.as_object().unwrap() {
            args.extend(["--agent-setting".to_string(), format!("{k}={v}")]);
        }
    }
    if meta["bundled_skills"] != "kept" {
        args.extend(BUNDLED_OFF.iter().map(|s| s.to_string()));
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    let refs: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = skillkit(&refs);
    (out.stdout, out.stderr, out.code)
}

/// Every settings capture is reproduced byte for byte: budget fraction (0.002, 0.005, 0.05), the
/// description cap (100; 20 on a CJK and emoji description, cut in UTF-16 units), skillOverrides
/// with each of its four values (alone, with a small budget, on the built-in skill),
/// disableBundledSkills, and the three settings files merged (local over project over user,
/// skillOverrides skill by skill).
#[test]
fn non_default_settings_give_claude_codes_own_listing() {
    let cases = settings_cases();
    assert!(cases.len() >= 12, "{cases:?}");
    for case in cases {
        if case == "settings-max-desc-invalid" {
            continue; // below: Claude Code refuses the whole file
        }
        let (text, stderr, code) = render_settings_case(&case, &[]);
        assert_eq!(code, 0, "{case}: {stderr}");
        assert_same(&text, &golden(AGENT, &case, "listing.txt").unwrap(), &case);
    }
}

/// `skillListingMaxDescChars: 0` makes Claude Code leave the whole settings file out (captured:
/// "These settings did not load…"); in a project's `.claude/settings.json` skillkit does the same
/// and says so, and on the command line the value is refused with where it was written.
#[test]
fn a_bad_value_drops_the_agents_file_and_is_an_error_on_the_command_line() {
    let case = "settings-max-desc-invalid";
    let meta: serde_json::Value = serde_json::from_str(&golden(AGENT, case, "case.json").unwrap()).unwrap();
    assert!(meta["stderr"].as_str().unwrap().contains("(skillListingMaxDescChars)"));
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    std::fs::write(dir.path().join("skillkit.toml"), "").unwrap();
    std::fs::write(dir.path().join(".claude/settings.json"), golden(AGENT, case, "settings.json").unwrap() + "")
        .unwrap();
    let config = dir.path().join("skillkit.toml").to_string_lossy().into_owned();
    let long = tree("long-desc");
    let out = skillkit(&[
        "--config",
        &config,
        "prompt",
        "--agent",
        "claude-code",
        "--source",
        &long,
        BUNDLED_OFF[0],
        BUNDLED_OFF[1],
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_same(&out.stdout, &golden(AGENT, case, "listing.txt").unwrap(), case);
    assert!(out.stderr.contains("settings.json (skillListingMaxDescChars)"), "{}", out.stderr);
    let out = skillkit(&[
        "prompt",
        "--agent",
        "claude-code",
        "--source",
        &tree("long-desc"),
        "--agent-setting",
        "skillListingMaxDescChars=0",
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("--agent-setting skillListingMaxDescChars=0: skillListingMaxDescChars must be a whole number greater than 0"),
        "{}",
        out.stderr
    );
}

/// `--format json` says which value each setting had and where it came from, and what each
/// override did to its skill.
#[test]
fn json_carries_the_effective_settings_with_their_origin() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(dir.path().join(".claude")).unwrap();
    std::fs::write(
        dir.path().join("skillkit.toml"),
        "[agents.claude-code]\nskillListingMaxDescChars = 100\nskillOverrides = { budget-skill-03 = \"user-invocable-only\" }\n",
    )
    .unwrap();
    std::fs::write(
        dir.path().join(".claude/settings.json"),
        r#"{"skillOverrides": {"budget-skill-02": "name-only", "budget-skill-04": "off"}, "skillListingMaxDescChars": 50}"#,
    )
    .unwrap();
    let config = dir.path().join("skillkit.toml").to_string_lossy().into_owned();
    let t = tree("budget-60");
    let out = skillkit(&[
        "--config",
        &config,
        "prompt",
        "--agent",
        "claude-code",
        "--source",
        &t,
        "--agent-setting",
        "skillListingBudgetFraction=0.002",
        "--format",
        "json",
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let setting = |k: &str| v["settings"].as_array().unwrap().iter().find(|s| s["key"] == k).unwrap().clone();
    let frac = setting("skillListingBudgetFraction");
    assert_eq!((frac["value"].as_f64(), frac["default"].as_f64()), (Some(0.002), Some(0.01)));
    assert_eq!(frac["origin"]["kind"], "command-line");
    let max = setting("skillListingMaxDescChars");
    assert_eq!(max["value"], 100);
    assert_eq!(max["origin"]["kind"], "config");
    assert!(max["origin"]["path"].as_str().unwrap().ends_with("skillkit.toml"));
    let ov = setting("skillOverrides");
    assert_eq!(ov["skills"]["budget-skill-02"]["value"], "name-only");
    assert_eq!(ov["skills"]["budget-skill-02"]["origin"]["kind"], "agent-file");
    assert!(ov["skills"]["budget-skill-02"]["origin"]["path"].as_str().unwrap().ends_with(".claude/settings.json"));
    assert_eq!(ov["skills"]["budget-skill-03"]["origin"]["kind"], "config");
    let bundled = setting("disableBundledSkills");
    assert_eq!(
        (bundled["value"].clone(), bundled["origin"]["kind"].clone()),
        (serde_json::json!(false), serde_json::json!("default"))
    );
    assert_eq!(v["budget"]["limit"], 6000);
    assert!(v["budget"]["rule"].as_str().unwrap().contains("skillListingBudgetFraction 0.002"));
    let skill = |n: &str| v["skills"].as_array().unwrap().iter().find(|s| s["folder"] == n).unwrap().clone();
    assert_eq!(skill("budget-skill-02")["decision"], "name-only");
    assert!(skill("budget-skill-02")["reason"].as_str().unwrap().contains("skillOverrides: \"name-only\""));
    assert_eq!(skill("budget-skill-03")["decision"], "hidden");
    assert!(skill("budget-skill-03")["reason"].as_str().unwrap().contains("user-invocable-only"));
    assert_eq!(skill("budget-skill-04")["decision"], "hidden");
    assert!(skill("budget-skill-04")["reason"].as_str().unwrap().contains("\"off\""));
    let text = v["text"].as_str().unwrap();
    assert!(text.contains("\n- budget-skill-02\n"));
    assert!(!text.contains("budget-skill-03") && !text.contains("budget-skill-04"));
    // Default settings: every value's origin is the default.
    let v: serde_json::Value =
        serde_json::from_str(&render_as_is(std::slice::from_ref(&t), &["--format", "json"])).unwrap();
    assert!(v["settings"].as_array().unwrap().iter().all(|s| s["origin"]["kind"] == "default"), "{}", v["settings"]);
}

/// A library's `.claude/settings.json` that is a symlink to a file outside its project is not
/// read (the engine's confined reader), with a warning.
#[cfg(unix)]
#[test]
fn a_settings_file_leading_outside_the_project_is_not_read() {
    let dir = tempfile::tempdir().unwrap();
    let outside = dir.path().join("elsewhere.json");
    std::fs::write(&outside, r#"{"skillOverrides": {"hello-note": "off"}}"#).unwrap();
    let project = dir.path().join("proj");
    std::fs::create_dir_all(project.join(".claude")).unwrap();
    std::fs::write(project.join("skillkit.toml"), "").unwrap();
    std::os::unix::fs::symlink(&outside, project.join(".claude/settings.json")).unwrap();
    let config = project.join("skillkit.toml").to_string_lossy().into_owned();
    let minimal = tree("minimal");
    let out = skillkit(&[
        "--config",
        &config,
        "prompt",
        "--agent",
        "claude-code",
        "--source",
        &minimal,
        BUNDLED_OFF[0],
        BUNDLED_OFF[1],
    ]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_same(&out.stdout, &golden(AGENT, "minimal", "listing.txt").unwrap(), "minimal");
    assert!(out.stderr.contains("outside the project"), "{}", out.stderr);
}

/// A session script's `agent_settings` reach every render of the session: the initial prompt
/// is the listing Claude Code gives under the same settings; a bad one is a located mistake.
#[test]
fn a_session_scripts_agent_settings_shape_its_prompt() {
    let tmp = e2e::repo_tempdir();
    let script = tmp.path().join("s.yaml");
    let rel = "../fixtures/prompt-trees/budget-60";
    std::fs::write(
        &script,
        format!("agent: claude-code\nsources: [{rel:?}]\nagent_settings: [\"skillListingBudgetFraction=0.002\", \"disableBundledSkills=true\"]\nsteps: []\n"),
    )
    .unwrap();
    let out = skillkit(&["simulate", &script.to_string_lossy(), "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let want = golden(AGENT, "settings-fraction-0.002", "listing.txt").unwrap();
    assert_same(v["initial_prompt"].as_str().unwrap(), &want, "session");
    std::fs::write(
        &script,
        format!("agent: claude-code\nsources: [{rel:?}]\nagent_settings: [\"skillOverrides.x=hide\"]\nsteps: []\n"),
    )
    .unwrap();
    let out = skillkit(&["simulate", &script.to_string_lossy()]);
    assert_eq!(out.code, 2, "{}", out.stdout);
    assert!(
        out.stderr.contains("3:17")
            && out.stderr.contains("`agent_settings`: skillOverrides.x=hide: skillOverrides.x must be"),
        "{}",
        out.stderr
    );
}

/// With the bundled skills on (Claude Code's default), the settings cases `settings-bundled-*`
/// above hold the listings; here, what the verdicts say: a bundled skill gives way to the
/// library's folder of its name (the winner named), Claude Code's own entries keep their lines
/// over the budget and the reason of a description they pushed out says so, and
/// `disableBundledSkills` from the project's own settings file switches them off.
#[test]
fn bundled_skills_in_the_verdicts() {
    let v: serde_json::Value =
        serde_json::from_str(&render_as_is(&[tree("bundled-names")], &["--format", "json"])).unwrap();
    let skills = v["skills"].as_array().unwrap();
    let replaced: Vec<&str> =
        skills.iter().filter(|s| s["decision"] == "shadowed").map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(replaced, ["simplify", "workflow-authoring", "init"]);
    let why = skills.iter().find(|s| s["decision"] == "shadowed").unwrap()["reason"].as_str().unwrap();
    assert!(why.contains("bundled skill `simplify` gives way to the library's skill folder"), "{why}");
    let v: serde_json::Value =
        serde_json::from_str(&render_as_is(&[tree("budget-60")], &["--format", "json"])).unwrap();
    let cut: Vec<&serde_json::Value> =
        v["skills"].as_array().unwrap().iter().filter(|s| s["decision"] == "name-only").collect();
    assert_eq!(cut.len(), 4, "{}", v["skills"]);
    assert!(cut[0]["reason"].as_str().unwrap().contains("Claude Code's own skills (dataviz, "), "{}", cut[0]["reason"]);
    // Without them the same tree fits.
    let v = json(&[tree("budget-60")], &[]);
    assert!(v["skills"].as_array().unwrap().iter().all(|s| s["decision"] == "full"), "{}", v["skills"]);
    assert_same(
        &render_settings_case("settings-bundled-disabled-file", &[]).0,
        &golden(AGENT, "settings-bundled-disabled-file", "listing.txt").unwrap(),
        "from the project's .claude/settings.json",
    );
    assert_same(
        &render_as_is(&[tree("bundled-names")], &["--agent-setting", "disableBundledSkills=false"]),
        &golden(AGENT, "settings-bundled-bundled-names", "listing.txt").unwrap(),
        "bundled-names, spelled out",
    );
}
