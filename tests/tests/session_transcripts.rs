//! `skillkit simulate` transcripts: one snapshot (text format) per script in
//! `tests/fixtures/sessions/`, over the small library in `tests/fixtures/sessions/library/`; the
//! same script always gives the same transcript; bad scripts get located errors and exit 2.
//!
//! The scripts and their library are copied to one fixed folder, `/tmp/skillkit-e2e-sessions`,
//! before they run: the paths agents print (DeepAgents resolves its sources, Gemini lists
//! folders, V2 lists resources) are part of the results, so their length and tokens enter the
//! counts; a fixed folder keeps the counts the same on every machine and checkout. In the
//! snapshots that folder's library reads `{LIBRARY}`.

use e2e::skillkit;
use std::path::Path;

const SCRIPTS: [&str; 13] = [
    "01-load-to-the-limit",
    "02-unload-then-reload",
    "03-restrict",
    "04-edit-mid-session",
    "05-budget-overflow",
    "06-claude-slash-arguments",
    "07-claude-skill-tool-denied",
    "08-claude-skill-tool-allowed",
    "09-gemini-activate",
    "10-codex-mention",
    "11-harness9",
    "12-deepagents-read-file",
    "13-unknown-skill",
];

const ROOT: &str = "/tmp/skillkit-e2e-sessions";

fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap().flatten() {
        let target = to.join(e.file_name());
        if e.file_type().unwrap().is_dir() {
            copy_dir(&e.path(), &target);
        } else {
            std::fs::copy(e.path(), target).unwrap();
        }
    }
}

/// The fixed folder holding a fresh copy of `tests/fixtures/sessions` (made once per run).
fn root() -> &'static Path {
    static DONE: std::sync::OnceLock<()> = std::sync::OnceLock::new();
    DONE.get_or_init(|| {
        let root = Path::new(ROOT);
        let _ = std::fs::remove_dir_all(root);
        copy_dir(&Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sessions"), root);
    });
    Path::new(ROOT)
}

fn script(name: &str) -> String {
    root().join(format!("{name}.yaml")).to_string_lossy().into_owned()
}

fn portable(text: &str) -> String {
    text.replace(&format!("{ROOT}/library"), "{LIBRARY}").replace(ROOT, "{SESSIONS}")
}

fn simulate(name: &str, format: &str) -> String {
    let out = skillkit(&["simulate", &script(name), "--format", format]);
    assert_eq!(out.code, 0, "{name}: {}", out.stderr);
    assert_eq!(out.stderr, "", "{name}");
    portable(&out.stdout)
}

fn text(name: &str) -> String {
    let t = simulate(name, "text");
    assert!(!t.contains(env!("CARGO_MANIFEST_DIR")), "{name}: a machine path is left:\n{t}");
    t
}

fn json(name: &str) -> serde_json::Value {
    serde_json::from_str(&simulate(name, "json")).unwrap()
}

/// The results of every turn, in order.
fn results(v: &serde_json::Value) -> Vec<String> {
    v["turns"].as_array().unwrap().iter().map(|t| t["result"].as_str().unwrap().to_string()).collect()
}

#[test]
fn load_to_the_limit() {
    let t = text("01-load-to-the-limit");
    assert!(t.contains("Maximum number of simultaneously loaded skills reached (2)."));
    assert!(t.contains("Use `unload_skill(\"skill-name\")` to unload a skill you no longer need"));
    insta::assert_snapshot!("01-load-to-the-limit", t);
}

#[test]
fn unload_then_reload() {
    let t = text("02-unload-then-reload");
    assert!(t.contains("Currently loaded: 1/2 (1 slot(s) available)."));
    let v = json("02-unload-then-reload");
    let r = results(&v);
    assert_eq!(r[0], r[6], "the reload gives the first load's text again");
    insta::assert_snapshot!("02-unload-then-reload", t);
}

#[test]
fn restrict_blocks_and_allows() {
    let t = text("03-restrict");
    assert!(t.contains("Tool 'web_search' is not in the allowed-tools list for the currently loaded skills. Allowed tools: execute, read_file. If you believe this tool is necessary, explain your reasoning."));
    let v = json("03-restrict");
    let errors: Vec<bool> = v["turns"].as_array().unwrap().iter().map(|t| t["is_error"].as_bool().unwrap()).collect();
    assert_eq!(errors, [false, false, false, true, false, false, false, true, false, false]);
    insta::assert_snapshot!("03-restrict", t);
}

#[test]
fn edit_mid_session() {
    let t = text("04-edit-mid-session");
    let v = json("04-edit-mid-session");
    let r = results(&v);
    assert!(r[0].contains("the parameters and one example request."), "the first load keeps the old text");
    assert!(!r[0].contains("error codes"));
    assert!(r[4].contains("the parameters, the error codes and one example."), "{}", r[4]);
    assert!(v["final_prompt"]
        .as_str()
        .unwrap()
        .contains("- **api-docs** [Loaded]: Write reference docs for an HTTP endpoint, with error codes.\n"));
    insta::assert_snapshot!("04-edit-mid-session", t);
}

/// The budget overflow shows in the header (`listing budget 520`) and in the prompt: the snapshot
/// adds the initial prompt from the JSON transcript, where skills that do not fit are `- name`.
#[test]
fn budget_overflow() {
    let t = text("05-budget-overflow");
    assert!(t.contains("listing budget 520"));
    let v = json("05-budget-overflow");
    let prompt = v["initial_prompt"].as_str().unwrap();
    assert!(prompt.lines().any(|l| l == "- incident-review"), "{prompt}");
    insta::assert_snapshot!("05-budget-overflow", format!("{t}\n--- initial prompt (--format json) ---\n{prompt}\n"));
}

#[test]
fn claude_slash_arguments() {
    let t = text("06-claude-slash-arguments");
    assert!(t.contains("Write a commit message for: fix the login redirect"));
    assert!(t.contains("Draft notes for release v2.4.0."));
    assert!(t.contains("ARGUMENTS: GET /orders"));
    insta::assert_snapshot!("06-claude-slash-arguments", t);
}

#[test]
fn claude_skill_tool_denied() {
    let t = text("07-claude-skill-tool-denied");
    assert!(t.contains("Execute skill: release-notes. The user can add the allow rule Skill(release-notes)"));
    insta::assert_snapshot!("07-claude-skill-tool-denied", t);
}

#[test]
fn claude_skill_tool_allowed() {
    let t = text("08-claude-skill-tool-allowed");
    assert!(t.contains("Launching skill: release-notes"));
    assert!(t.contains("pre-approved by `Bash(git log:*)` in release-notes's allowed-tools"));
    insta::assert_snapshot!("08-claude-skill-tool-allowed", t);
}

#[test]
fn gemini_activate() {
    let t = text("09-gemini-activate");
    assert!(t.contains("<activated_skill name=\"csv-cleanup\">"));
    insta::assert_snapshot!("09-gemini-activate", t);
}

#[test]
fn codex_mention() {
    let t = text("10-codex-mention");
    assert!(t.contains("<name>test-plan</name>"));
    insta::assert_snapshot!("10-codex-mention", t);
}

#[test]
fn harness9_use_skill_and_slash() {
    let t = text("11-harness9");
    let r = results(&json("11-harness9"));
    assert!(r[1].ends_with("\n\nfix typo in README"), "{}", r[1]);
    insta::assert_snapshot!("11-harness9", t);
}

#[test]
fn deepagents_read_file() {
    let t = text("12-deepagents-read-file");
    assert!(t.contains("read_file(file_path=\"{LIBRARY}/test-plan/SKILL.md\", limit=1000)"));
    insta::assert_snapshot!("12-deepagents-read-file", t);
}

#[test]
fn unknown_skill() {
    let t = text("13-unknown-skill");
    assert!(t.contains("Error: Skill 'pdf-forms' not found. Available skills: "));
    assert!(t.contains("Error: Skill 'pdf-forms' is not currently loaded. Currently loaded skills: (none)."));
    insta::assert_snapshot!("13-unknown-skill", t);
}

/// The same script on the same library always gives the same transcript, in both formats.
#[test]
fn the_same_script_gives_the_same_transcript() {
    for name in SCRIPTS {
        assert_eq!(simulate(name, "json"), simulate(name, "json"), "{name}");
        assert_eq!(simulate(name, "text"), simulate(name, "text"), "{name}");
    }
}

/// Every script in the folder has a test above.
#[test]
fn every_script_is_covered() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/sessions");
    let mut found: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .filter_map(|e| e.file_name().to_string_lossy().strip_suffix(".yaml").map(String::from))
        .collect();
    found.sort();
    assert_eq!(found, SCRIPTS);
}

/// Runs a bad script; returns stderr with the script's path replaced by `S`.
fn bad(text: &str) -> String {
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("bad.yaml");
    std::fs::write(&path, text).unwrap();
    let p = path.to_str().unwrap();
    let out = skillkit(&["simulate", p]);
    assert_eq!(out.code, 2, "{text}\n{}", out.stdout);
    assert_eq!(out.stdout, "");
    out.stderr.replace(p, "S")
}

#[test]
fn an_unknown_key_is_located() {
    assert_eq!(
        bad("agent: deepagents-v2\nsources: [library]\nmax_loaded: 2\nsteps: []\n"),
        "S:3:1: error: unknown key `max_loaded`; expected agent, sources, steps, context_window, max_loaded_skills, policy, char_budget, allow, agent_settings, session_id\n"
    );
}

#[test]
fn an_unknown_step_is_located() {
    assert_eq!(
        bad("agent: deepagents-v2\nsources: [library]\nsteps:\n  - load: api-docs\n  - lod: api-docs\n"),
        "S:5:5: error: unknown step `lod`; use one of: load, unload, invoke, slash, tool, edit, user, model\n"
    );
    assert_eq!(
        bad("agent: deepagents-v2\nsteps:\n  - load: api-docs\n    args: x\n"),
        "S:4:5: error: `load` steps take no `args`\n"
    );
    assert_eq!(
        bad("agent: deepagents-v2\nsteps:\n  - edit: api-docs\n"),
        "S:3:5: error: `edit` needs `content`: the new SKILL.md text\n"
    );
}

#[test]
fn wrong_types_are_located() {
    assert_eq!(
        bad("agent: deepagents-v2\nmax_loaded_skills: two\nsteps: []\n"),
        "S:2:20: error: `max_loaded_skills` must be a whole number\n"
    );
    assert_eq!(bad("agent: deepagents-v2\nsteps:\n  - load: [api-docs]\n"), "S:3:11: error: `load` must be a string\n");
    assert_eq!(bad("agent: deepagents-v2\nsteps: load\n"), "S:2:8: error: `steps` must be a list\n");
    assert_eq!(
        bad("agent: deepagents-v2\npolicy: strict\nsteps: []\n"),
        "S:2:9: error: unknown policy `strict`; use recommend or restrict\n"
    );
    assert_eq!(
        bad("agent: deepagents-v2\nsources: {a: b}\nsteps: []\n"),
        "S:2:10: error: `sources` must be a list of strings\n"
    );
    // Several mistakes are all reported, in order.
    let e = bad("agent: deepagents-v2\ncontext_window: lots\nsteps:\n  - unload: ~\n");
    assert_eq!(e, "S:2:17: error: `context_window` must be a whole number\nS:4:13: error: `unload` must be a string\n");
}

#[test]
fn broken_yaml_is_located() {
    let e = bad("agent: deepagents-v2\nsteps: [\n  - load: x\n");
    assert!(e.starts_with("S:"), "{e}");
    assert!(e.contains(": error: invalid YAML: "), "{e}");
    let (line, col) = {
        let mut parts = e.splitn(4, ':');
        parts.next();
        (parts.next().unwrap().parse::<usize>().unwrap(), parts.next().unwrap().parse::<usize>().unwrap())
    };
    assert!(line >= 2 && col >= 1, "{e}");
    assert_eq!(e.lines().count(), 1);
}

#[test]
fn an_unknown_agent_is_located() {
    let e = bad("sources: [library]\nagent: nobody\nsteps: []\n");
    assert!(e.starts_with("S:2:8: error: unknown agent `nobody`; known: "), "{e}");
    for id in ["claude-code", "codex", "deepagents", "deepagents-v2", "gemini-cli", "harness9"] {
        assert!(e.contains(id), "{id}: {e}");
    }
    assert!(!e.contains("spec"), "lint-only agents are not offered: {e}");
}

#[test]
fn a_lint_only_agent_is_located() {
    let message = bad("agent: spec\nsteps: []\n");
    assert!(
        message.starts_with(
            "S:1:8: error: `spec` only lints; it injects no prompt (agents with a prompt: agentskills, deepagents, "
        ),
        "{message}"
    );
}

#[test]
fn missing_parts_and_files() {
    assert_eq!(bad("sources: [library]\n"), "S:1:1: error: missing `agent`\nS:1:1: error: missing `steps`\n");
    assert_eq!(bad("- load: x\n").lines().count(), 1);
    let out = skillkit(&["simulate", "fixtures/sessions/no-such-script.yaml"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.starts_with("fixtures/sessions/no-such-script.yaml: error: cannot read: "), "{}", out.stderr);
}
