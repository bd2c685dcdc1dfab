//! `skillkit prompt --agent codex` reproduces the `<skills_instructions>` block the real Codex CLI
//! 0.171.0 sends, byte for byte, on every captured tree; its load errors, `$name` mention items
//! and the JSON view match too.

use e2e::goldens::{assert_same, golden, open_library, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::codex;
use skillkit::library::Library;

const AGENT: &str = "codex-0.171.0";
const PROJECT_ROOT: &str = "{WORK}/proj/.agents/skills";
const USER_ROOT: &str = "{WORK}/home/.agents/skills";

fn render(sources: &[String]) -> (String, String) {
    let mut args = vec!["prompt", "--agent", "codex"];
    for s in sources {
        args.extend(["--source", s.as_str()]);
    }
    let out = skillkit(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    (out.stdout, out.stderr)
}

fn library(sources: &[String]) -> Library {
    open_library(sources, &codex::AGENT)
}

/// The capture's trees: one source (the repo's `.agents/skills`), or `override` with the user's
/// `~/.agents/skills` (lower priority) first.
/// A capture: tree name, `--source` folders, and the placeholders to substitute.
type Case = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn cases() -> Vec<Case> {
    let mut out: Vec<_> = TREES.iter().map(|t| (*t, vec![tree(t)], vec![(PROJECT_ROOT, tree(t))])).collect();
    let (base, project) = (tree("override-base"), tree("override-project"));
    out.push(("override", vec![base.clone(), project.clone()], vec![(USER_ROOT, base), (PROJECT_ROOT, project)]));
    out
}

#[test]
fn every_listing_is_byte_exact() {
    for (t, sources, map) in cases() {
        let (text, _) = render(&sources);
        match golden(AGENT, t, "listing.txt") {
            Some(want) => assert_same(&text, &substitute(&want, &map), t),
            None => {
                assert!(golden(AGENT, t, "no-listing.txt").is_some(), "no golden for {t}");
                assert_eq!(text, "", "{t}: Codex sends no skills block");
            }
        }
    }
}

/// The shell tool Codex's model reads a skill with is the one the real program offers (captured
/// from 0.171.0, whose `login` description differs from 0.169.0's).
#[test]
fn the_exec_command_tool_is_exact() {
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            e2e::goldens::fixtures().join("prompt-goldens").join(AGENT).join("tool-exec_command.json"),
        )
        .unwrap(),
    )
    .unwrap();
    let ours = codex::exec_command_tool();
    assert_eq!(want["name"], ours.name.as_str());
    assert_eq!(want["description"], ours.description.as_str());
    assert_eq!(want["parameters"], ours.parameters);
}

#[test]
fn load_errors_are_codex_stderr_lines() {
    for (t, sources, map) in cases() {
        let lib = library(&sources);
        let prompt = codex::AGENT.render(&lib, &Default::default()).unwrap();
        let want = golden(AGENT, t, "load-errors.txt").map(|w| substitute(&w, &map)).unwrap_or_default();
        let ours: String = prompt.warnings.iter().map(|w| format!("{w}\n")).collect();
        assert_same(&ours, &want, t);
    }
}

#[test]
fn mention_items_match_the_captures() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let lib = library(&sources);
        for (stem, f, v) in e2e::goldens::golden_jsons(AGENT, t, "mention-") {
            let folder = stem.as_str();
            let want: Vec<String> = v["items_after_prompt"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|it| it["texts"].as_array().unwrap().iter().map(|s| substitute(s.as_str().unwrap(), &map)))
                .collect();
            let ours: Vec<String> =
                codex::mentions(&lib, &format!("use ${folder} some args")).into_iter().map(|m| m.item).collect();
            assert_eq!(ours.len(), want.len(), "{t}/{f}");
            for (o, w) in ours.iter().zip(&want) {
                assert_same(o, w, &format!("{t}/{f}"));
            }
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} mention goldens");
}

#[test]
fn json_has_ranges_decisions_and_reasons() {
    let t = tree("invalid");
    let out = skillkit(&["prompt", "--agent", "codex", "--source", &t, "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["placement"], "developer-message");
    assert_eq!(v["tokenizer"]["estimate"], false);
    assert!(v["tools"].as_array().unwrap().is_empty());
    let text = v["text"].as_str().unwrap();
    let skills = v["skills"].as_array().unwrap();
    let listed: Vec<&str> =
        skills.iter().filter(|s| s["decision"] == "full").map(|s| s["name"].as_str().unwrap()).collect();
    assert_eq!(listed, ["Upper-Name", "colon-desc", "no-name", "other-name"]);
    for s in skills.iter().filter(|s| s["decision"] == "full") {
        let r = &s["range"];
        let (a, b) = (r["start"].as_u64().unwrap() as usize, r["end"].as_u64().unwrap() as usize);
        let entry = &text[a..b];
        assert!(entry.starts_with(&format!("- {}: ", s["name"].as_str().unwrap())), "{entry}");
        assert!(entry.ends_with(&format!("(file: r0/{}/SKILL.md)", s["folder"].as_str().unwrap())), "{entry}");
        assert_eq!(s["chars"].as_u64().unwrap() as usize, entry.chars().count());
    }
    let invalid: Vec<(&str, &str)> = skills
        .iter()
        .filter(|s| s["decision"] == "invalid")
        .map(|s| (s["folder"].as_str().unwrap(), s["reason"].as_str().unwrap()))
        .collect();
    assert_eq!(
        invalid,
        [
            ("empty-desc", "missing field `description`"),
            ("no-desc", "missing field `description`"),
            ("no-frontmatter", "missing YAML frontmatter delimited by ---")
        ]
    );
    assert_eq!(v["warnings"].as_array().unwrap().len(), 3);
    assert_eq!(v["budget"]["limit"], 5440);
    assert_eq!(v["totals"]["bytes"].as_u64().unwrap() as usize, text.len());
}

#[test]
fn the_budget_shares_description_characters_round_robin() {
    let t = tree("budget-60");
    let out = skillkit(&["prompt", "--agent", "codex", "--source", &t, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let skills = v["skills"].as_array().unwrap();
    assert_eq!(skills.len(), 60);
    assert!(skills.iter().all(|s| s["decision"] == "truncated"));
    assert!(skills[0]["reason"].as_str().unwrap().contains("cut to 308 of 400"), "{}", skills[0]);
    assert!(skills[59]["reason"].as_str().unwrap().contains("cut to 304 of 400"), "{}", skills[59]);
    assert!(v["budget"]["needed"].as_u64().unwrap() > 5440);
    // A larger window lists every description whole.
    let out =
        skillkit(&["prompt", "--agent", "codex", "--source", &t, "--format", "json", "--context-window", "1000000"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(v["skills"].as_array().unwrap().iter().all(|s| s["decision"] == "full"));
    let long = skillkit(&["prompt", "--agent", "codex", "--source", &tree("long-desc"), "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&long.stdout).unwrap();
    assert_eq!(v["skills"][0]["decision"], "truncated");
}

/// Codex's budget is a fixed 2% of the model's context window; the window is a setting
/// (`model_context_window` in `~/.codex/config.toml`). Captured with 100,000 (a 2,000-unit
/// budget: descriptions shortened round robin): the same listing from `--context-window`, from
/// `--agent-setting`, and from the user's config.toml with `--user-settings`.
#[test]
fn a_non_default_context_window_from_codexs_own_setting() {
    let t = tree("budget-60");
    let want = substitute(
        &golden(AGENT, "settings-context-window-100000", "listing.txt").unwrap(),
        &[(PROJECT_ROOT, t.clone())],
    );
    let default = substitute(&golden(AGENT, "budget-60", "listing.txt").unwrap(), &[(PROJECT_ROOT, t.clone())]);
    assert_ne!(want, default);
    let home = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(home.path().join(".codex")).unwrap();
    std::fs::copy(
        e2e::goldens::fixtures().join("prompt-goldens").join(AGENT).join("settings-context-window-100000/config.toml"),
        home.path().join(".codex/config.toml"),
    )
    .unwrap();
    let h = home.path().to_string_lossy().into_owned();
    for extra in [
        vec!["--context-window", "100000"],
        vec!["--agent-setting", "model_context_window=100000"],
        vec!["--user-settings", h.as_str()],
    ] {
        let mut args = vec!["prompt", "--agent", "codex", "--source", t.as_str()];
        args.extend(extra.iter().copied());
        let out = skillkit(&args);
        assert_eq!(out.code, 0, "{}", out.stderr);
        assert_same(&out.stdout, &want, &extra.join(" "));
    }
    let mut args = vec!["prompt", "--agent", "codex", "--source", t.as_str(), "--user-settings", h.as_str()];
    args.extend(["--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&skillkit(&args).stdout).unwrap();
    let s = &v["settings"][0];
    assert_eq!((s["key"].as_str(), s["value"].as_u64()), (Some("model_context_window"), Some(100_000)));
    assert_eq!(s["origin"]["kind"], "agent-file");
    assert_eq!(v["totals"]["context_window"], 100_000);
    // Codex has no setting for the share itself.
    let out = skillkit(&["prompt", "--agent", "codex", "--source", &t, "--agent-setting", "skills_budget_percent=5"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("no setting `skills_budget_percent` for codex"), "{}", out.stderr);
}
