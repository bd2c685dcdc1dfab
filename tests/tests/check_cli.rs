//! `skillkit check` end to end: exit codes, and one snapshot per output format over the fixture
//! tree `tests/fixtures/check` (a valid skill, an unquoted colon, and a skill with many findings).

use e2e::{skillkit, write_tree};
use serde_json::Value;

const TREE: &str = "fixtures/check";

#[test]
fn text_output_snapshot() {
    let out = skillkit(&["check", TREE, "--color", "never"]);
    assert_eq!(out.code, 1);
    insta::assert_snapshot!("text", out.stdout);
}

#[test]
fn json_output_snapshot() {
    let out = skillkit(&["check", TREE, "--format", "json"]);
    assert_eq!(out.code, 1);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["summary"]["skills"], 3);
    assert_eq!(json["summary"]["invalid"], 2);
    insta::assert_snapshot!("json", out.stdout);
}

#[test]
fn json_columns_count_characters_and_utf16_units() {
    let out = skillkit(&["check", "fixtures/check/messy-skill", "--format", "json"]);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let d = json["skills"][0]["diagnostics"].as_array().unwrap();
    let angle = d.iter().find(|d| d["code"] == "SK309").unwrap();
    // `description: Turns 😀 reactions into <b>`: the emoji is one character, two UTF-16 units.
    assert_eq!(angle["line"], 3);
    assert_eq!(angle["column"], 37);
    assert_eq!(angle["column_utf16"], 38);
}

#[test]
fn github_output_snapshot() {
    let out = skillkit(&["check", TREE, "--format", "github"]);
    assert_eq!(out.code, 1);
    for line in out.stdout.lines() {
        assert!(
            line.starts_with("::error ") || line.starts_with("::warning ") || line.starts_with("::notice "),
            "{line}"
        );
    }
    insta::assert_snapshot!("github", out.stdout);
}

#[test]
fn sarif_output_snapshot() {
    let out = skillkit(&["check", TREE, "--format", "sarif"]);
    assert_eq!(out.code, 1);
    insta::assert_snapshot!("sarif", out.stdout);
}

/// The official SARIF 2.1.0 schema ships inside the `serde-sarif` package (a dev-dependency),
/// which generates its types from `src/schema.json` at build time. Rather than copy the schema
/// into the repository, find it through the build itself: rustc's dep-info file for
/// `serde_sarif` (beside this test binary in `deps/`) names the package's `src/lib.rs` by its
/// absolute path, wherever the cargo cache is. No `cargo metadata`, so nothing depends on which
/// other platforms' crates the cache happens to hold.
fn sarif_schema_path() -> std::path::PathBuf {
    let exe = std::env::current_exe().expect("path of the test binary");
    let deps = exe.parent().expect("the test binary's folder");
    let mut seen = Vec::new();
    for entry in std::fs::read_dir(deps).unwrap_or_else(|e| panic!("reading {}: {e}", deps.display())) {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if !(name.starts_with("serde_sarif-") && name.ends_with(".d")) {
            continue;
        }
        let info = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
        seen.push(path.display().to_string());
        // Each line is `target: source source …`; the package's root module is one of the sources.
        let lib = info
            .lines()
            .flat_map(|l| l.split_whitespace())
            .map(|w| w.trim_end_matches(':'))
            .find(|w| w.ends_with("/src/lib.rs") && w.contains("serde-sarif"));
        if let Some(lib) = lib {
            let schema = std::path::Path::new(lib).with_file_name("schema.json");
            if schema.is_file() {
                return schema;
            }
        }
    }
    panic!(
        "serde-sarif's src/schema.json not found through the dep-info files in {} (read: {seen:?}); \
         is serde-sarif still a dev-dependency of the e2e crate?",
        deps.display()
    )
}

fn sarif_schema() -> Value {
    let path = sarif_schema_path();
    let schema = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("reading {}: {e}", path.display()));
    let mut schema: Value = serde_json::from_str(&schema).unwrap();
    // The published schema's `language` patterns have a stray `]` that ECMA-262 regexes (as the
    // validator checks them) reject; we never emit `language`, so drop just those patterns.
    const BAD: &str = "^[a-zA-Z]{2}|^[a-zA-Z]{2}-[a-zA-Z]{2}]?$";
    fn drop_bad(v: &mut Value) -> usize {
        match v {
            Value::Object(m) => {
                let here = usize::from(m.get("pattern").is_some_and(|p| p == BAD));
                if here == 1 {
                    m.remove("pattern");
                }
                here + m.values_mut().map(drop_bad).sum::<usize>()
            }
            Value::Array(a) => a.iter_mut().map(drop_bad).sum(),
            _ => 0,
        }
    }
    assert_eq!(drop_bad(&mut schema), 2);
    schema
}

#[test]
fn sarif_validates_against_the_sarif_2_1_0_schema() {
    let schema = sarif_schema();
    assert_eq!(schema["title"], "Static Analysis Results Format (SARIF) Version 2.1.0 JSON Schema");
    let validator = jsonschema::validator_for(&schema).unwrap();
    let out = skillkit(&["check", TREE, "--format", "sarif"]);
    let sarif: Value = serde_json::from_str(&out.stdout).unwrap();
    let errors: Vec<String> =
        validator.iter_errors(&sarif).map(|e| format!("{} at {}", e, e.instance_path())).collect();
    assert!(errors.is_empty(), "{errors:#?}");
    // And it deserializes into the typed model generated from the same schema.
    let typed: serde_sarif::sarif::Sarif = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(typed.runs.len(), 1);
    // A broken document is rejected by the same validator, so the check can fail.
    let mut broken = sarif.clone();
    broken["runs"][0]["results"][0]["level"] = Value::from("fatal");
    assert!(!validator.is_valid(&broken));
}

#[test]
fn exit_codes() {
    let tmp = tempfile::tempdir().unwrap();
    let good = tmp.path().join("good");
    write_tree(&good, &[("SKILL.md", b"---\nname: good\ndescription: Does a thing. Use when asked.\n---\nBody.\n")]);
    let warn = tmp.path().join("warn");
    write_tree(
        &warn,
        &[("SKILL.md", b"---\nname: warn\ndescription: Does a thing. Use when asked.\nversion: \"2\"\n---\nBody.\n")],
    );
    let p = |d: &std::path::Path| d.to_string_lossy().into_owned();

    assert_eq!(skillkit(&["check", &p(&good)]).code, 0);
    assert_eq!(skillkit(&["check", &p(&warn)]).code, 0, "warnings alone pass");
    assert_eq!(skillkit(&["check", &p(&warn), "--strict"]).code, 1, "--strict counts warnings");
    assert_eq!(skillkit(&["check", "fixtures/check"]).code, 1, "errors fail");
    assert_eq!(skillkit(&["check", &p(&tmp.path().join("nope"))]).code, 2, "missing path");
    assert_eq!(skillkit(&["check", &p(&good), "--agent", "nobody"]).code, 2, "unknown agent");
    assert_eq!(skillkit(&["check", "--format", "yaml"]).code, 2, "bad flag value");
    assert_eq!(skillkit(&["check", &p(&good.join("SKILL.md"))]).code, 0, "a SKILL.md path");
    let other = tmp.path().join("notes.txt");
    std::fs::write(&other, "x").unwrap();
    assert_eq!(skillkit(&["check", &p(&other)]).code, 2, "a file that is not SKILL.md");
}

#[test]
fn a_folder_is_searched_recursively_skipping_git_and_node_modules() {
    let tmp = tempfile::tempdir().unwrap();
    let skill = b"---\nname: x\ndescription: Does a thing. Use when asked.\n---\nBody.\n";
    write_tree(
        tmp.path(),
        &[
            ("a/x/SKILL.md", skill),
            (".hidden/deep/er/x/SKILL.md", skill),
            (".git/x/SKILL.md", skill),
            ("node_modules/pkg/x/SKILL.md", skill),
            ("a/x/assets/nested/SKILL.md", b"inside another skill: reported, not skipped"),
        ],
    );
    let out = skillkit(&["check", &tmp.path().to_string_lossy(), "--format", "json"]);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let paths: Vec<&str> = json["skills"].as_array().unwrap().iter().map(|s| s["path"].as_str().unwrap()).collect();
    assert_eq!(paths.len(), 3, "{paths:?}");
    assert!(paths.iter().all(|p| !p.contains(".git/") && !p.contains("node_modules")));
    // The skill inside another skill's folder is checked, and marked as nested.
    let nested =
        json["skills"].as_array().unwrap().iter().find(|s| s["path"].as_str().unwrap().contains("assets")).unwrap();
    let codes: Vec<&str> =
        nested["diagnostics"].as_array().unwrap().iter().map(|d| d["code"].as_str().unwrap()).collect();
    assert!(codes.contains(&"SK703") && codes.contains(&"SK101"), "{codes:?}");
}

/// Issue #39, 6a: a folder installed at the top of the skills folder by a link, and also nested in
/// another installed skill, is judged where it is installed: the agents that do not look inside a
/// skill's folder load it there, as `prompt` lists it.
#[cfg(unix)]
#[test]
fn a_skill_installed_by_a_link_and_nested_in_another_is_judged_where_installed() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            (
                "lib/alpha/SKILL.md",
                b"---\nname: alpha\ndescription: Outer skill. Use when asked.\n---\nSee zeta/SKILL.md.\n",
            ),
            ("lib/alpha/zeta/SKILL.md", b"---\nname: zeta\ndescription: Inner skill. Use when asked.\n---\nBody.\n"),
        ],
    );
    std::os::unix::fs::symlink("alpha/zeta", tmp.path().join("lib/zeta")).unwrap();
    let lib = tmp.path().join("lib");
    let lib = lib.to_string_lossy();
    for agent in ["claude-code", "gemini-cli", "deepagents", "codex"] {
        let out = skillkit(&["check", &lib, "--agent", agent, "--format", "json"]);
        assert_eq!(out.code, 0, "{agent}: {}", out.stdout);
        let json: Value = serde_json::from_str(&out.stdout).unwrap();
        assert_eq!(json["agent_verdict"]["loaded"], 2, "{agent}: {}", json["agent_verdict"]);
        let prompt = skillkit(&["prompt", "--source", &lib, "--agent", agent, "--format", "json"]);
        let prompt: Value = serde_json::from_str(&prompt.stdout).unwrap();
        let zeta = prompt["skills"].as_array().unwrap().iter().find(|s| s["name"] == "zeta").unwrap();
        assert_eq!(zeta["decision"], "full", "{agent}");
    }
}

#[test]
fn check_dot_inside_a_skill_uses_the_real_folder_name() {
    // skills-ref compares the name with '' here; we resolve the folder.
    let out = skillkit(&["check", "fixtures/check/good-skill/.", "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stdout);
}

#[test]
fn rules_and_explain() {
    let out = skillkit(&["rules"]);
    assert!(out.stdout.contains("SK301  unquoted-colon"));
    let out = skillkit(&["explain", "SK301"]);
    assert!(out.stdout.starts_with("# SK301 `unquoted-colon`"));
    assert_eq!(skillkit(&["explain", "unquoted-colon"]).stdout, out.stdout);
    assert_eq!(skillkit(&["explain", "SK999"]).code, 2);
}

/// A writer that keeps what is written and signals every write, so a test can wait for the
/// first report of a long-running command.
struct Signal {
    buf: std::sync::Arc<std::sync::Mutex<Vec<u8>>>,
    tx: std::sync::mpsc::Sender<()>,
}

impl std::io::Write for Signal {
    fn write(&mut self, b: &[u8]) -> std::io::Result<usize> {
        self.buf.lock().unwrap().extend_from_slice(b);
        let _ = self.tx.send(());
        Ok(b.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[test]
fn watch_reprints_after_a_change() {
    use std::time::{Duration, Instant};
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("w");
    write_tree(&dir, &[("SKILL.md", b"---\nname: w\ndescription: Does a thing. Use when asked.\n---\nBody.\n")]);
    let arg = dir.to_string_lossy().into_owned();
    let buf = std::sync::Arc::new(std::sync::Mutex::new(Vec::new()));
    let (wrote, first_output) = std::sync::mpsc::channel();
    let (done_tx, done) = std::sync::mpsc::channel();
    let out_buf = buf.clone();
    std::thread::spawn(move || {
        let mut out = Signal { buf: out_buf, tx: wrote };
        let args = ["skillkit", "check", &arg, "--watch", "--watch-changes", "1", "--format", "json"];
        let code = skillkit_cli::run(args, &mut out, &mut std::io::sink());
        let _ = done_tx.send(code);
    });
    first_output.recv_timeout(Duration::from_secs(30)).expect("no first report");
    // The watcher starts just after the first report: keep editing until the run ends (bounded).
    let broken = b"---\nname: w\ndescription: Use when: broken\n---\nBody.\n";
    let deadline = Instant::now() + Duration::from_secs(30);
    let code = loop {
        std::fs::write(dir.join("SKILL.md"), broken).unwrap();
        if let Ok(code) = done.recv_timeout(Duration::from_millis(300)) {
            break code;
        }
        assert!(Instant::now() < deadline, "check --watch did not report the change");
    };
    assert_eq!(code, 1, "the last report has an error");
    let stdout = String::from_utf8(buf.lock().unwrap().clone()).unwrap();
    // One JSON document per report: the clean one, then the broken one.
    let docs: Vec<Value> = serde_json::Deserializer::from_str(&stdout).into_iter().map(|d| d.unwrap()).collect();
    assert_eq!(docs.len(), 2);
    assert_eq!(docs[0]["summary"]["errors"], 0);
    assert_eq!(docs[1]["skills"][0]["diagnostics"][0]["code"], "SK301");
}

/// `competing-descriptions` (SK705) is off until the project's `[rules]` sets a level: then two
/// skills whose descriptions compete get one note (on the later, naming the earlier), which
/// changes no exit code; at `warning` it counts as one.
#[test]
fn competing_descriptions_are_reported_when_the_configuration_turns_them_on() {
    let t = tempfile::tempdir().unwrap();
    write_tree(
        t.path(),
        &[
            (
                "skills/edit-pdfs/SKILL.md",
                b"---\nname: edit-pdfs\ndescription: Edits PDF files. Use when the user asks to fill PDF form fields or merge PDF pages.\n---\nBody.\n",
            ),
            (
                "skills/fill-pdf-forms/SKILL.md",
                b"---\nname: fill-pdf-forms\ndescription: Fills PDF forms. Use when the user wants to fill in a PDF form or read its form fields.\n---\nBody.\n",
            ),
            (
                "skills/notes/SKILL.md",
                b"---\nname: notes\ndescription: Writes meeting notes. Use when the user shares a meeting transcript to summarise.\n---\nBody.\n",
            ),
        ],
    );
    let skills = t.path().join("skills");
    let config = t.path().join("skillkit.toml");
    let sk705 = |out: &e2e::Output| -> Vec<(String, String)> {
        let v: Value = serde_json::from_str(&out.stdout).unwrap();
        v["skills"]
            .as_array()
            .unwrap()
            .iter()
            .flat_map(|s| {
                s["diagnostics"]
                    .as_array()
                    .unwrap()
                    .iter()
                    .filter(|d| d["code"] == "SK705")
                    .map(|d| (s["name"].as_str().unwrap().to_string(), d["severity"].as_str().unwrap().to_string()))
            })
            .collect::<Vec<_>>()
    };
    let off = skillkit(&["check", skills.to_str().unwrap(), "--format", "json"]);
    assert_eq!((off.code, sk705(&off)), (0, vec![]), "{}", off.stdout);
    std::fs::write(&config, "[rules]\ncompeting-descriptions = \"note\"\n").unwrap();
    let args = ["check", skills.to_str().unwrap(), "--config", config.to_str().unwrap(), "--format", "json"];
    let note = skillkit(&args);
    assert_eq!((note.code, sk705(&note)), (0, vec![("fill-pdf-forms".into(), "info".into())]), "{}", note.stdout);
    let v: Value = serde_json::from_str(&note.stdout).unwrap();
    let message = v["skills"][1]["diagnostics"][0]["message"].as_str().unwrap();
    assert!(message.contains("edit-pdfs/SKILL.md`'s for the same queries") && message.contains("`pdf`"), "{message}");
    std::fs::write(&config, "[rules]\nSK705 = \"warning\"\n").unwrap();
    let warning = skillkit(&args);
    assert_eq!(sk705(&warning), vec![("fill-pdf-forms".into(), "warning".into())]);
    assert_eq!(warning.code, 0);
    assert_eq!(skillkit(&[&args[..], &["--strict"]].concat()).code, 1);
}
