//! Input sizes no real skill has, as an attacker would write them (issue #19): a frontmatter of
//! 200,000 keys, a 9 MB SKILL.md, lists and block quotes nested 100,000 deep. Each case runs on
//! its own thread and must finish within a generous bound: a guard against work that grows
//! faster than the input (these took minutes before), not a speed measurement, which is
//! `cargo bench -p skillkit-engine --bench sizes`. The bounds are about ten times what the work takes in
//! a debug build. What is bounded in the output is asserted too.

use e2e::hostile_input::nine_megabytes;
use e2e::{skillkit, write_tree, Output};
use serde_json::Value;
use std::sync::mpsc;
use std::time::Duration;

/// Run `work` on another thread; panic if it takes longer than `limit`.
fn within<T: Send + 'static>(limit: Duration, what: &str, work: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(work());
    });
    match rx.recv_timeout(limit) {
        Ok(v) => v,
        Err(_) => panic!("{what} did not finish within {limit:?}"),
    }
}

/// `skillkit args…` on another thread, within `limit`.
fn run_within(limit: Duration, args: &[&str]) -> Output {
    let args: Vec<String> = args.iter().map(|a| a.to_string()).collect();
    let what = format!("skillkit {}", args.join(" "));
    within(limit, &what, move || skillkit(&args.iter().map(String::as_str).collect::<Vec<_>>()))
}

/// A library folder holding one skill `name` whose SKILL.md is `text`; the skill folder's path.
fn skill(text: &str, name: &str) -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join(name);
    write_tree(&dir, &[("SKILL.md", text.as_bytes()), ("references/guide.md", b"# Guide\n")]);
    (tmp, dir.to_string_lossy().into_owned())
}

fn frontmatter_with_keys(name: &str, keys: impl Iterator<Item = String>) -> String {
    let mut text = format!("---\nname: {name}\ndescription: Formats tables. Use when asked for a table.\n");
    for k in keys {
        text.push_str(&k);
        text.push_str(": value\n");
    }
    text.push_str("---\n# Tables\n\nBody.\n");
    text
}

/// The diagnostics of the one skill `check --format json` printed.
fn diagnostics(out: &Output) -> Vec<Value> {
    let json: Value = serde_json::from_str(&out.stdout).expect("check printed JSON");
    json["skills"][0]["diagnostics"].as_array().unwrap().clone()
}

/// 1,000 diagnostics and the note counting the rest, last.
fn assert_capped(d: &[Value], dropped_at_least: u64) {
    assert_eq!(d.len(), 1001);
    let note = d.last().unwrap();
    assert_eq!((note["code"].as_str(), note["severity"].as_str()), (Some("SK009"), Some("info")));
    let n: u64 = note["message"].as_str().unwrap().split(' ').next().unwrap().parse().unwrap();
    assert!(n >= dropped_at_least, "{}", note["message"]);
}

#[test]
fn check_of_200k_keys_finishes_and_lists_1000_findings() {
    // Over the YAML tree's 100,000 nodes: the lenient line reading gives the fields.
    let text = frontmatter_with_keys("many-keys", (0..200_000).map(|i| format!("key{i}")));
    let (_tmp, dir) = skill(&text, "many-keys");
    let out = run_within(Duration::from_secs(20), &["check", &dir, "--strict", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let d = diagnostics(&out);
    assert_capped(&d, 199_000);
    // The YAML error (kept first: errors before warnings), unknown keys from the top, and the
    // file's length.
    assert_eq!(d.iter().filter(|d| d["code"] == "SK106").count(), 1);
    assert!(d[..1000].iter().all(|d| ["SK106", "SK403", "SK501"].contains(&d["code"].as_str().unwrap())));
    assert!(out.stdout.len() < 1_500_000, "{} bytes of JSON", out.stdout.len());
}

#[test]
fn check_of_49k_keys_each_twice_finishes() {
    // Under the node cap, so the YAML tree is built and every repeat is a duplicate key.
    let text = frontmatter_with_keys("twice", (0..49_000).map(|i| format!("key{}", i % 24_500)));
    let (_tmp, dir) = skill(&text, "twice");
    let out = run_within(Duration::from_secs(20), &["check", &dir, "--strict", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let d = diagnostics(&out);
    assert_capped(&d, 24_500 + 49_000 - 1000);
    // Errors first: the 1,000 listed are the first repeats.
    assert!(d[..1000].iter().all(|d| d["code"] == "SK303"), "{:?}", d[0]);
    assert_eq!(d[0]["line"], 24_504);
}

#[test]
fn tree_and_prompt_of_200k_keys_finish() {
    let text = frontmatter_with_keys("many-keys", (0..200_000).map(|i| format!("key{i}")));
    let (tmp, _dir) = skill(&text, "many-keys");
    let source = tmp.path().to_string_lossy().into_owned();
    let out = run_within(Duration::from_secs(20), &["tree", "--source", &source]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.contains("many-keys"), "{}", out.stdout);
    for agent in ["claude-code", "deepagents"] {
        let out = run_within(Duration::from_secs(20), &["prompt", "--agent", agent, "--source", &source]);
        assert_eq!(out.code, 0, "{agent}: {}", out.stderr);
    }
}

#[test]
fn check_of_a_9_mb_skill_finishes_with_output_bounded_by_the_cap() {
    let (_tmp, dir) = skill(&nine_megabytes(), "big");
    let out = run_within(Duration::from_secs(20), &["check", &dir, "--strict", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let d = diagnostics(&out);
    assert_capped(&d, 100_000);
    assert!(out.stdout.len() < 1_500_000, "{} bytes of JSON", out.stdout.len());
    // Text, with the 1 MB line shown in windows.
    let out = run_within(Duration::from_secs(20), &["check", &dir, "--strict"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    assert!(out.stdout.len() < 1_500_000, "{} bytes of text", out.stdout.len());
    assert!(out.stdout.contains("note[SK009]"), "{}", &out.stdout[out.stdout.len() - 2000..]);
}

#[test]
fn check_of_a_9_mb_skill_with_2000_files_finishes() {
    // Every file is looked for in the body, and every missing reference among the files.
    let (_tmp, dir) = skill(&nine_megabytes(), "big");
    let names: Vec<String> = (0..2000).map(|i| format!("references/file-{i}.md")).collect();
    let files: Vec<(&str, &[u8])> = names.iter().map(|n| (n.as_str(), &b"x\n"[..])).collect();
    write_tree(std::path::Path::new(&dir), &files);
    let out = run_within(Duration::from_secs(20), &["check", &dir, "--strict", "--format", "json"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let d = diagnostics(&out);
    assert_capped(&d, 100_000);
    // Every file unreferenced is a note (and so is each path in inline code that names no file).
    let message = d.last().unwrap()["message"].as_str().unwrap();
    let notes: u64 = message
        .split(", ")
        .find(|p| p.contains(" notes)"))
        .and_then(|p| p.split(' ').next()?.parse().ok())
        .unwrap_or(0);
    assert!(notes >= 2000, "{message}");
}

#[test]
fn a_9_mb_line_of_links_is_checked_with_bounded_output() {
    let mut text = String::from("---\nname: one-line\ndescription: Formats tables. Use when asked for a table.\n---\n");
    while text.len() < 9_000_000 {
        text.push_str("[x](references/missing.md) ");
    }
    let (_tmp, dir) = skill(&text, "one-line");
    for format in ["json", "text"] {
        let out = run_within(Duration::from_secs(20), &["check", &dir, "--strict", "--format", format]);
        assert_eq!(out.code, 1, "{}", out.stderr);
        assert!(out.stdout.len() < 1_500_000, "{} bytes of {format}", out.stdout.len());
    }
}

/// Bodies nested 100,000 deep: lists, block quotes, both, and raw HTML.
fn deep_bodies() -> Vec<(&'static str, String)> {
    vec![
        ("lists", format!("{}x\n", "- ".repeat(100_000))),
        ("block quotes", format!("{} x\n", ">".repeat(100_000))),
        ("quoted lists", format!("{}x\n", "> - ".repeat(100_000))),
        ("ordered lists", format!("{}x\n", "1. ".repeat(100_000))),
        ("divs", format!("{}x\n", "<div>".repeat(100_000))),
    ]
}

#[test]
fn preview_of_100k_deep_nesting_is_refused_within_a_bound() {
    for (what, body) in deep_bodies() {
        let text = format!("---\nname: deep\ndescription: d\n---\n{body}");
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().to_path_buf();
        let preview = within(Duration::from_secs(10), &format!("the preview of {what}"), move || {
            skillkit::preview::render(&dir, &text, skillkit::preview::PreviewLimits::default())
        });
        assert_eq!(preview.refused, Some(skillkit::preview::Refusal::TooDeep { limit: 100 }), "{what}");
        assert!(preview.html.contains("Preview too deep"), "{what}: {}", preview.html);
    }
}

#[test]
fn preview_command_refuses_100k_deep_nesting_within_a_bound() {
    let (_tmp, dir) = skill(&format!("---\nname: deep\ndescription: d\n---\n{}x\n", "- ".repeat(100_000)), "deep");
    let out = run_within(Duration::from_secs(10), &["preview", &dir, "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["refused"], serde_json::json!({"kind": "too-deep", "limit": 100}));
    assert!(out.stderr.contains("Preview too deep"), "{}", out.stderr);
}
