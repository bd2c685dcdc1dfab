//! One verdict per agent (issue #12): under every profile whose agent loads skills, `check
//! --agent X` calls a skill valid exactly when `prompt --agent X` shows agent X loading it (any
//! decision but `invalid`), on every prompt test tree; the errors are then only the agent's own
//! reason (SK702), and the text report ends with what the agent does with the library.

use e2e::{repo_root, skillkit};
use serde_json::Value;
use std::collections::BTreeMap;

const LOADERS: &[&str] = &[
    "claude-code",
    "codex",
    "gemini-cli",
    "copilot-cli",
    "deepagents",
    "deepagents-v1",
    "deepagents-v2",
    "harness9",
    "opencode",
    "cline",
    "qwen-code",
    "letta-code",
    "kimi-cli",
    "mistral-vibe",
];

fn json(args: &[&str]) -> Value {
    let out = skillkit(args);
    assert!(out.code == 0 || out.code == 1, "{args:?}: {}", out.stderr);
    serde_json::from_str(&out.stdout).unwrap_or_else(|e| panic!("{args:?}: {e}\n{}", out.stdout))
}

#[test]
fn check_and_prompt_agree_on_every_prompt_tree() {
    let trees = repo_root().join("tests/fixtures/prompt-trees");
    let mut compared = 0;
    for tree in std::fs::read_dir(&trees).unwrap().map(|e| e.unwrap().path()).filter(|p| p.is_dir()) {
        let t = tree.to_str().unwrap();
        for &agent in LOADERS {
            let prompt = json(&["prompt", "--agent", agent, "--format", "json", "--source", t]);
            // Folder -> loaded, from the prompt's records (a folder may have several). A skill
            // shadowed by one of the same name in the same folder is not: the agent keeps one of
            // the two (a skill a later scope overrides is loaded, and hidden).
            let records = prompt["skills"].as_array().unwrap();
            let parent = |s: &Value| {
                std::path::Path::new(s["path"].as_str().unwrap_or(""))
                    .parent()
                    .and_then(|p| p.parent())
                    .map(|p| p.to_path_buf())
            };
            let mut loaded: BTreeMap<String, bool> = BTreeMap::new();
            for s in records {
                let (Some(folder), Some(decision)) = (s["folder"].as_str(), s["decision"].as_str()) else { continue };
                if s["source"].is_null() {
                    continue;
                }
                let name = s["name"].as_str().unwrap_or("").to_lowercase();
                let beaten_beside = decision == "shadowed"
                    && records.iter().any(|o| {
                        !std::ptr::eq(o, s)
                            && !matches!(o["decision"].as_str(), Some("invalid" | "shadowed"))
                            && o["name"].as_str().unwrap_or("").to_lowercase() == name
                            && parent(o) == parent(s)
                    });
                let l = loaded.entry(folder.to_string()).or_insert(false);
                *l |= decision != "invalid" && !beaten_beside;
            }
            let check = json(&["check", "--agent", agent, "--format", "json", t]);
            // The earlier of two skills of one name, when the agent keeps the later, is named
            // skipped in the verdict at the end (the report gave it before the later was read).
            let dropped: Vec<String> = check["agent_verdict"]["skipped"]
                .as_array()
                .unwrap()
                .iter()
                .filter_map(|f| {
                    std::path::Path::new(f["path"].as_str()?).file_name().map(|n| n.to_string_lossy().into_owned())
                })
                .collect();
            for skill in check["skills"].as_array().unwrap() {
                let path = skill["path"].as_str().unwrap();
                let folder = std::path::Path::new(path).parent().unwrap().file_name().unwrap().to_str().unwrap();
                // A tree without skills is reported as a folder missing its SKILL.md.
                if tree.ends_with(folder) {
                    continue;
                }
                let valid = skill["valid"].as_bool().unwrap() && !dropped.iter().any(|d| d == folder);
                let errors: Vec<&str> = skill["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|d| d["severity"] == "error")
                    .map(|d| d["code"].as_str().unwrap())
                    .collect();
                let listed = loaded.get(folder).copied().unwrap_or(false);
                assert_eq!(
                    valid, listed,
                    "{agent} on {path}: check says valid={valid}, prompt loads={listed}; errors {errors:?}"
                );
                assert!(errors.iter().all(|c| *c == "SK702"), "{agent} on {path}: errors {errors:?}");
                compared += 1;
            }
            let verdict = &check["agent_verdict"];
            assert_eq!(verdict["agent"], agent);
            let skipped = verdict["skipped"].as_array().unwrap().len() as u64;
            assert_eq!(verdict["loaded"].as_u64().unwrap() + skipped, verdict["skills"].as_u64().unwrap());
        }
    }
    assert!(compared > 200, "only {compared} skills compared");
}

#[test]
fn a_skill_the_agent_skips_gets_its_reason_and_the_report_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    e2e::write_tree(
        tmp.path(),
        &[
            (
                "good/SKILL.md",
                b"---\nname: good\ndescription: Formats tables. Use when asked for a table.\n---\nBody.\n",
            ),
            // Unquoted `: ` in a value: PyYAML (DeepAgents) rejects it.
            ("colon/SKILL.md", b"---\nname: colon\ndescription: Use when: the user asks\n---\nBody.\n"),
            // Uppercase in `name`: the spec forbids it, DeepAgents loads it.
            (
                "Upper/SKILL.md",
                b"---\nname: Upper\ndescription: Formats tables. Use when asked for a table.\n---\nBody.\n",
            ),
        ],
    );
    let dir = tmp.path().to_str().unwrap();
    let spec = skillkit(&["check", dir]);
    assert_eq!(spec.code, 1, "{}", spec.stdout);
    let out = skillkit(&["check", "--agent", "deepagents", dir]);
    let title = "LangChain DeepAgents (SkillsMiddleware)";
    assert!(out.stdout.contains(&format!("error[SK702]: {title} does not load this skill")), "{}", out.stdout);
    assert!(out.stdout.contains(&format!("{title} loads 2 of 3 skills; it skips 1:")), "{}", out.stdout);
    // What each agent does with the uppercase name, on its warning.
    assert!(
        out.stdout
            .contains("Claude Code, Codex, Gemini CLI and DeepAgents load this skill; the specification forbids this"),
        "{}",
        out.stdout
    );
    // And with the colon: only DeepAgents skips it (its own error, SK702, says why).
    assert!(
        out.stdout.contains("LangChain DeepAgents (SkillsMiddleware) skips this skill: its own reason is SK702"),
        "{}",
        out.stdout
    );
    let json = json(&["check", "--agent", "deepagents", "--format", "json", dir]);
    let valid: BTreeMap<&str, bool> = json["skills"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["name"].as_str().unwrap(), s["valid"].as_bool().unwrap()))
        .collect();
    assert_eq!(valid, BTreeMap::from([("Upper", true), ("colon", false), ("good", true)]));
}
