//! `skillkit prompt --agent agentskills` reproduces `agentskills to-prompt` (skills-ref 0.1.1) on
//! every captured tree: the exact stdout when every folder reads, the exact stderr (as
//! `Prompt.failure`) when one does not, and the listing of the folders `validate` accepts.

use e2e::goldens::{assert_same, golden, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::agentskills;
use skillkit::library::Library;
use std::path::PathBuf;

const AGENT: &str = "skills-ref-0.1.1";

fn library(path: &str) -> Library {
    Library::for_agent(&[PathBuf::from(path)], &agentskills::AGENT)
}

#[test]
fn every_tree_prints_what_to_prompt_prints() {
    for t in TREES {
        let path = tree(t);
        let lib = library(&path);
        let p = agentskills::AGENT.render(&lib, &Default::default()).unwrap();
        let rc = golden(AGENT, t, "all.rc").unwrap_or_else(|| panic!("no golden for {t}"));
        let stdout = golden(AGENT, t, "all.txt").unwrap_or_default();
        let stderr = golden(AGENT, t, "all.stderr").unwrap_or_default();
        let map = [("{TREE}", path.as_str())];
        assert_same(&p.text, &substitute(&stdout, &map), t);
        assert_same(p.failure.as_deref().unwrap_or(""), &substitute(&stderr, &map), &format!("{t} stderr"));
        assert_eq!(rc.trim() == "0", p.failure.is_none(), "{t}: rc {rc}");
        // The CLI prints the same text.
        let out = skillkit(&["prompt", "--agent", "agentskills", "--source", &path]);
        assert_same(&out.stdout, &substitute(&stdout, &map), t);
    }
}

#[test]
fn each_folder_alone_and_the_valid_ones_together() {
    let mut checked = 0;
    for t in TREES {
        let path = tree(t);
        let lib = library(&path);
        let map = [("{TREE}", path.as_str())];
        for (i, e) in lib.entries.iter().enumerate() {
            let folder = skillkit::prompt::folder_name(e);
            let Some(rc) = golden(AGENT, t, &format!("one-{folder}.rc")) else { continue };
            let want_out = golden(AGENT, t, &format!("one-{folder}.txt")).unwrap_or_default();
            let want_err = golden(AGENT, t, &format!("one-{folder}.stderr")).unwrap_or_default();
            let (out, err) = match agentskills::to_prompt(&lib, &[i]) {
                Ok(o) => (o, String::new()),
                Err(e) => (String::new(), e),
            };
            assert_same(&out, &substitute(&want_out, &map), &format!("{t}/{folder}"));
            assert_same(&err, &substitute(&want_err, &map), &format!("{t}/{folder} stderr"));
            assert_eq!(rc.trim() == "0", err.is_empty(), "{t}/{folder}");
            let want_valid = golden(AGENT, t, &format!("validate-{folder}.rc")).unwrap();
            assert_eq!(agentskills::validate_ok(e), want_valid.trim() == "0", "{t}/{folder} validate");
            checked += 1;
        }
        if t == "budget-60" {
            continue;
        }
        let valid: Vec<usize> = (0..lib.entries.len()).filter(|&i| agentskills::validate_ok(&lib.entries[i])).collect();
        let want = golden(AGENT, t, "valid-only.txt").unwrap_or_default();
        let ours = if valid.is_empty() { String::new() } else { agentskills::to_prompt(&lib, &valid).unwrap() };
        assert_same(&ours, &substitute(&want, &map), &format!("{t} valid-only"));
    }
    assert!(checked >= 24, "only {checked} folders");
}

#[test]
fn json_marks_the_failing_skill_and_keeps_the_others() {
    let t = tree("invalid");
    let out = skillkit(&["prompt", "--agent", "agentskills", "--source", &t, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["text"], "");
    assert_eq!(v["placement"], "stdout");
    assert!(v["failure"].as_str().unwrap().starts_with("Error: Invalid YAML in frontmatter: mapping values"));
    let skills = v["skills"].as_array().unwrap();
    let decided: Vec<(&str, &str)> =
        skills.iter().map(|s| (s["folder"].as_str().unwrap(), s["decision"].as_str().unwrap())).collect();
    assert_eq!(
        decided,
        [
            ("colon-desc", "invalid"),
            ("empty-desc", "invalid"),
            ("name-mismatch", "full"),
            ("no-desc", "invalid"),
            ("no-frontmatter", "invalid"),
            ("no-name", "invalid"),
            ("upper-name", "full")
        ]
    );
    assert!(skills.iter().all(|s| s.get("range").is_none()));
    assert_eq!(
        skills[1]["reason"].as_str().unwrap().split(" (not reached").next().unwrap(),
        "Field 'description' must be a non-empty string"
    );

    let c = tree("chars");
    let out = skillkit(&["prompt", "--agent", "agentskills", "--source", &c, "--format", "json"]);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(v.get("failure").is_none());
    let text = v["text"].as_str().unwrap();
    for s in v["skills"].as_array().unwrap() {
        assert_eq!(s["decision"], "full");
        let (a, b) = (s["range"]["start"].as_u64().unwrap() as usize, s["range"]["end"].as_u64().unwrap() as usize);
        assert!(text[a..b].starts_with(&format!("<skill>\n<name>\n{}\n</name>", s["name"].as_str().unwrap())));
        assert!(text[a..b].ends_with("</location>\n</skill>"));
    }
}

/// `skillkit prompt --agent agentskills` behaves like `agentskills to-prompt`: on an invalid
/// skill it prints nothing on stdout, the error on stderr, and exits 1; with no skills, the usage
/// error and exit 2. JSON output always exits 0 and carries the failure.
#[test]
fn the_cli_fails_as_to_prompt_does() {
    let invalid = tree("invalid");
    let out = skillkit(&["prompt", "--agent", "agentskills", "--source", &invalid]);
    assert_eq!((out.code, out.stdout.as_str()), (1, ""));
    let want = golden("skills-ref-0.1.1", "invalid", "all.stderr").unwrap();
    assert_eq!(out.stderr, substitute(&want, &[("{TREE}", &invalid)]));
    let empty = tree("empty");
    let out = skillkit(&["prompt", "--agent", "agentskills", "--source", &empty]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    let out = skillkit(&["prompt", "--agent", "agentskills", "--source", &invalid, "--format", "json"]);
    assert_eq!(out.code, 0);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert!(v["failure"].as_str().unwrap().starts_with("Error: "));
}
