//! `skillkit eval optimize` and `skillkit eval draft` against the mock provider, on the book's
//! example (`docs/examples/evals/optimize/`: a suite and the mock's script, over the library
//! `tests/fixtures/optimize-skills`): record
//! then replay of a whole optimization is byte-identical (JSON, text and the HTML report),
//! `--write` changes only the `description` value of the SKILL.md, and a drafted suite is
//! written for review, never over an existing file without `--force`.

use e2e::{repo_root, skillkit};
use mock_provider::{MockServer, Reply, Rule, Script};
use serde_json::Value;
use std::path::{Path, PathBuf};

fn example() -> PathBuf {
    repo_root().join("docs/examples/evals/optimize")
}

/// The example's library (outside the book, whose every Markdown file is a page).
fn library() -> PathBuf {
    repo_root().join("tests/fixtures/optimize-skills")
}

/// The example copied into a temporary folder (the tests write there).
fn copy() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    for name in ["csv", "pdf"] {
        let to = tmp.path().join("skills").join(name);
        std::fs::create_dir_all(&to).unwrap();
        std::fs::copy(library().join(name).join("SKILL.md"), to.join("SKILL.md")).unwrap();
    }
    let suite = std::fs::read_to_string(example().join("triggers.yaml")).unwrap();
    let suite = suite.replace("sources: [../../../../tests/fixtures/optimize-skills]", "sources: [skills]");
    assert!(suite.contains("sources: [skills]"));
    std::fs::write(tmp.path().join("triggers.yaml"), suite).unwrap();
    tmp
}

fn server() -> MockServer {
    MockServer::start(Script::from_file(&example().join("mock.json")).unwrap())
}

fn optimize(dir: &Path, base_url: &str, extra: &[&str]) -> e2e::Output {
    let suite = dir.join("triggers.yaml");
    let mut args = vec![
        "eval",
        "optimize",
        suite.to_str().unwrap(),
        "--skill",
        "csv",
        "--agent",
        "claude-code",
        "--agent",
        "codex",
        "--provider",
        "openai",
        "--base-url",
        base_url,
        "--model",
        "gpt-test",
        "--improver-model",
        "gpt-improver",
        "--seed",
        "7",
    ];
    args.extend_from_slice(extra);
    skillkit(&args)
}

#[test]
fn a_recorded_optimization_replays_byte_identically() {
    let tmp = copy();
    let (records, first, second) = (tmp.path().join("records"), tmp.path().join("a.json"), tmp.path().join("b.json"));
    let server = server();
    let out = optimize(
        tmp.path(),
        &server.base_url(),
        &["--format", "json", "--record", records.to_str().unwrap(), "-o", first.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(out.stdout, "", "the report went to the file");
    let sent = server.requests().len();
    assert_eq!(sent, 244);
    drop(server);
    // Offline: a base URL nobody answers on, every reply from the store.
    let out = optimize(
        tmp.path(),
        "http://127.0.0.1:9/v1",
        &["--format", "json", "--replay", records.to_str().unwrap(), "-o", second.to_str().unwrap()],
    );
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(std::fs::read(&first).unwrap(), std::fs::read(&second).unwrap());
    let (html_a, html_b) = (
        std::fs::read_to_string(first.with_extension("html")).unwrap(),
        std::fs::read_to_string(second.with_extension("html")).unwrap(),
    );
    assert_eq!(html_a, html_b);
    assert!(html_a.starts_with("<!DOCTYPE html>") && html_a.contains("Iteration 3 (best)"), "{html_a}");
    let v: Value = serde_json::from_slice(&std::fs::read(&first).unwrap()).unwrap();
    assert_eq!(v["split"]["train"], serde_json::json!(["p1", "p3", "p4", "n2", "n4", "n5"]));
    assert_eq!(v["best"]["iteration"], 3);
    assert_eq!(v["iterations"].as_array().unwrap().len(), 4);
    assert_eq!(v["stop"]["reason"], "all-train-pass");
    for format in ["text", "junit"] {
        let a =
            optimize(tmp.path(), "http://127.0.0.1:9/v1", &["--format", format, "--replay", records.to_str().unwrap()]);
        let b =
            optimize(tmp.path(), "http://127.0.0.1:9/v1", &["--format", format, "--replay", records.to_str().unwrap()]);
        assert_eq!((a.code, b.code), (0, 0), "{format}: {}", a.stderr);
        assert_eq!(a.stdout, b.stdout, "{format}");
    }
    // Nothing was written to the skill without --write.
    assert_eq!(
        std::fs::read(tmp.path().join("skills/csv/SKILL.md")).unwrap(),
        std::fs::read(library().join("csv/SKILL.md")).unwrap()
    );
}

#[test]
fn write_changes_only_the_description() {
    let tmp = copy();
    let server = server();
    let out = optimize(tmp.path(), &server.base_url(), &["--write"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stderr.contains("wrote the description of iteration 3 to "), "{}", out.stderr);
    let before = std::fs::read_to_string(library().join("csv/SKILL.md")).unwrap();
    let after = std::fs::read_to_string(tmp.path().join("skills/csv/SKILL.md")).unwrap();
    let changed: Vec<(&str, &str)> = before.lines().zip(after.lines()).filter(|(a, b)| a != b).collect();
    assert_eq!(
        changed,
        [(
            "description: Makes tables from CSV files.",
            "description: Turns CSV or TSV files into Markdown tables. Use to tabulate data."
        )]
    );
    assert_eq!(before.lines().count(), after.lines().count());
    assert_eq!(before.len() + 38, after.len());
    // The other skill is untouched.
    assert_eq!(
        std::fs::read(tmp.path().join("skills/pdf/SKILL.md")).unwrap(),
        std::fs::read(library().join("pdf/SKILL.md")).unwrap()
    );
}

#[test]
fn usage_mistakes_exit_2_with_one_line() {
    let tmp = copy();
    let out = optimize(tmp.path(), "http://127.0.0.1:9/v1", &["--holdout", "1.5"]);
    assert_eq!((out.code, out.stderr.trim()), (2, "error: --holdout 1.5: a share strictly between 0 and 1"));
    let out = optimize(tmp.path(), "http://127.0.0.1:9/v1", &["--agent", "nobody"]);
    assert_eq!(out.code, 2);
    let suite = tmp.path().join("triggers.yaml");
    let out = skillkit(&[
        "eval",
        "optimize",
        suite.to_str().unwrap(),
        "--skill",
        "nope",
        "--agent",
        "codex",
        "--provider",
        "openai",
        "--base-url",
        "http://127.0.0.1:9/v1",
        "--model",
        "m",
    ]);
    assert_eq!(out.code, 2);
    assert!(
        out.stderr.contains("the suite has 0 queries that should trigger `nope` and 10 that should not"),
        "{}",
        out.stderr
    );
}

const DRAFTED: &str = r#"Here are the queries:
[{"query": "Make a table out of orders.csv for the wiki", "should_trigger": true},
 {"query": "csv -> markdown pls", "should_trigger": true},
 {"query": "Use the pdf skill to read invoice.pdf", "should_trigger": false},
 {"query": "Chart the CSV by month", "should_trigger": false}]"#;

#[test]
fn a_drafted_suite_is_written_for_review_and_never_over_a_file_without_force() {
    let tmp = copy();
    let server = MockServer::start(Script {
        rules: vec![Rule {
            contains: Some("near misses".into()),
            replies: vec![Reply::text(DRAFTED)],
            ..Rule::default()
        }],
        ..Script::default()
    });
    let skills = tmp.path().join("skills");
    let base_url = server.base_url();
    let draft = |extra: &[&str]| {
        let mut args = vec!["eval", "draft", "--skill", "csv", "--source", skills.to_str().unwrap(), "--count", "4"];
        args.extend_from_slice(&["--provider", "openai", "--base-url", &base_url, "--model", "m"]);
        args.extend_from_slice(extra);
        skillkit(&args)
    };
    let out = draft(&[]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let path = skills.join("csv/evals/triggers.yaml");
    assert!(out.stdout.starts_with("wrote 4 queries (2 should trigger, 2 near misses) to "), "{}", out.stdout);
    let text = std::fs::read_to_string(&path).unwrap();
    let suite = skillkit::eval::suite::parse_yaml(&text).unwrap();
    assert_eq!(suite.sources, ["../.."]);
    let got: Vec<(&str, &str)> = suite.cases.iter().map(|c| (c.id.as_str(), c.expect.as_str())).collect();
    assert_eq!(got, [("trigger-1", "csv"), ("trigger-2", "csv"), ("near-miss-1", "none"), ("near-miss-2", "none")]);
    // The request showed the skill and its neighbour.
    let body = server.requests()[0].body.to_string();
    assert!(body.contains("- pdf: Extracts text from PDF files.") && body.contains("escape the pipes"), "{body}");
    // A second draft does not replace the file, unless forced.
    std::fs::write(&path, "edited by hand\n").unwrap();
    let out = draft(&[]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("exists: pass --force to replace it"), "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), "edited by hand\n");
    assert_eq!(server.requests().len(), 1, "refused before asking the model");
    let other = tmp.path().join("drafted.yaml");
    let out = draft(&["-o", other.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        skillkit::eval::suite::parse_yaml(&std::fs::read_to_string(&other).unwrap()).unwrap().sources,
        ["skills"]
    );
    let out = draft(&["--force"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&path).unwrap(), text);
}
