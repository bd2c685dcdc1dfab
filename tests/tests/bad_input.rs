//! Bad input never panics or hangs: each case runs the real `skillkit check` on a file or tree
//! built in a temporary folder, on its own thread, and must finish within a generous bound (a
//! guard against hangs, not a speed measurement; speed is in `cargo bench`) with a located
//! diagnostic.

use e2e::{skillkit, write_tree};
use serde_json::Value;
use std::path::Path;
use std::sync::mpsc;
use std::time::Duration;

/// Run `check --format json` on `path` on another thread; panic if it takes over 20 s.
fn check_bounded(path: &Path) -> (i32, Value) {
    let arg = path.to_string_lossy().into_owned();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let out = skillkit(&["check", &arg, "--format", "json"]);
        let _ = tx.send((out.code, out.stdout));
    });
    let (code, stdout) = rx.recv_timeout(Duration::from_secs(20)).expect("skillkit check hung on bad input");
    (code, serde_json::from_str(&stdout).unwrap_or(Value::Null))
}

fn codes(json: &Value) -> Vec<String> {
    json["skills"][0]["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap().to_string())
        .collect()
}

fn skill_with(bytes: &[u8]) -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bad-skill");
    write_tree(&dir, &[("SKILL.md", bytes)]);
    (tmp, dir)
}

#[test]
fn file_over_10_mib_is_reported_not_read() {
    let mut big = b"---\nname: bad-skill\ndescription: d\n---\n".to_vec();
    big.resize(10 * 1024 * 1024 + 1, b'x');
    let (_t, dir) = skill_with(&big);
    let (code, json) = check_bounded(&dir);
    assert_eq!(code, 1);
    assert_eq!(codes(&json), ["SK004"]);
}

#[test]
fn invalid_utf8_is_located() {
    let (_t, dir) = skill_with(b"---\nname: bad-skill\ndescription: caf\xe9 au lait\n---\nBody\n");
    let (code, json) = check_bounded(&dir);
    assert_eq!(code, 1);
    let d = &json["skills"][0]["diagnostics"][0];
    assert_eq!((d["code"].as_str(), d["line"].as_u64(), d["column"].as_u64()), (Some("SK005"), Some(3), Some(17)));
}

#[test]
fn nul_bytes_and_binary_files_are_reported() {
    let (_t, dir) = skill_with(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR");
    let (code, json) = check_bounded(&dir);
    assert_eq!(code, 1);
    assert_eq!(codes(&json), ["SK006"]);
    let (_t, dir) = skill_with(b"---\nname: bad-skill\x00\ndescription: d\n---\n");
    assert_eq!(codes(&check_bounded(&dir).1), ["SK006"]);
}

#[test]
fn alias_bomb_is_not_expanded() {
    let mut y = String::from("---\nname: bad-skill\ndescription: d\na: &a [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 0..30 {
        let prev = if i == 0 { "a".to_string() } else { format!("b{}", i - 1) };
        y.push_str(&format!(
            "b{i}: &b{i} [*{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}, *{prev}]\n"
        ));
    }
    y.push_str("---\nBody\n");
    let (_t, dir) = skill_with(y.as_bytes());
    let (code, json) = check_bounded(&dir);
    assert_eq!(code, 0, "anchors are warnings under spec");
    assert!(codes(&json).iter().any(|c| c == "SK304"));
}

#[test]
fn deep_nesting_is_bounded() {
    for deep in [
        format!("a: {}", "[".repeat(100_000)),
        format!("a:\n{}", (1..200).map(|i| format!("{}k{i}:\n", " ".repeat(i))).collect::<String>()),
    ] {
        let text = format!("---\nname: bad-skill\ndescription: d\n{deep}\n---\nBody\n");
        let (_t, dir) = skill_with(text.as_bytes());
        let (code, json) = check_bounded(&dir);
        assert_eq!(code, 1);
        assert!(codes(&json).contains(&"SK106".to_string()), "{:?}", codes(&json));
    }
}

#[test]
fn a_100_kb_single_line_is_fine() {
    let text = format!("---\nname: bad-skill\ndescription: {}\n---\n{}\n", "word ".repeat(20_000), "x".repeat(100_000));
    let (_t, dir) = skill_with(text.as_bytes());
    let (code, json) = check_bounded(&dir);
    assert_eq!(code, 1);
    assert!(codes(&json).contains(&"SK213".to_string()));
}

#[test]
fn a_directory_named_skill_md_is_reported_never_read() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bad-skill");
    std::fs::create_dir_all(dir.join("SKILL.md")).unwrap();
    let (code, json) = check_bounded(&dir);
    assert_eq!(code, 1);
    assert_eq!(codes(&json), ["SK002"]);
}

#[cfg(unix)]
#[test]
fn a_fifo_named_skill_md_is_reported_never_opened() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("bad-skill");
    std::fs::create_dir_all(&dir).unwrap();
    let status = std::process::Command::new("mkfifo").arg(dir.join("SKILL.md")).status().unwrap();
    assert!(status.success());
    let (code, json) = check_bounded(&dir);
    assert_eq!(code, 1);
    assert_eq!(codes(&json), ["SK002"]);
    assert!(json["skills"][0]["diagnostics"][0]["message"].as_str().unwrap().contains("FIFO"));
}

#[cfg(unix)]
#[test]
fn symlink_loops_and_broken_links_do_not_hang_the_search() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().join("lib");
    write_tree(&root, &[("real/SKILL.md", b"---\nname: real\ndescription: d\n---\nBody\n")]);
    std::os::unix::fs::symlink(&root, root.join("loop")).unwrap();
    std::fs::create_dir_all(root.join("a/b")).unwrap();
    std::os::unix::fs::symlink(root.join("a"), root.join("a/b/up")).unwrap();
    std::os::unix::fs::symlink(root.join("missing"), root.join("dangling")).unwrap();
    let arg = root.to_string_lossy().into_owned();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(skillkit(&["check", &arg, "--format", "json"]));
    });
    let out = rx.recv_timeout(Duration::from_secs(20)).expect("search hung on a symlink loop");
    assert_eq!(out.code, 0);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(json["summary"]["skills"], 1);
    let issues: Vec<&str> = json["issues"].as_array().unwrap().iter().map(|i| i["message"].as_str().unwrap()).collect();
    assert!(issues.iter().any(|m| m.contains("symlink loop")), "{issues:?}");
    assert!(issues.iter().any(|m| m.contains("broken symlink")), "{issues:?}");
}

#[test]
fn broken_yaml_still_yields_a_located_error_and_lenient_fields() {
    let (_t, dir) = skill_with(b"---\nname: bad-skill\ndescription: \"unterminated\n---\nBody\n");
    let (code, json) = check_bounded(&dir);
    assert_eq!(code, 1);
    assert_eq!(json["skills"][0]["name"], "bad-skill", "the lenient reading still finds the name");
    assert!(codes(&json).contains(&"SK106".to_string()));
}
