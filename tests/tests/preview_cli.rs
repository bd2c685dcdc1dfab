//! `skillkit preview`: the sanitized HTML the app's preview shows for a skill, or the same data as
//! JSON; what a hostile body holds does not survive, and what the preview cannot render is said.

use e2e::{skillkit, write_tree};
use serde_json::Value;

const PNG: &[u8] = b"\x89PNG\r\n\x1a\nfake";

/// A skill folder `demo` with an image, and its SKILL.md with `body`.
fn demo(body: &str) -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("demo");
    let text = format!("---\nname: demo\ndescription: Formats tables. Use when asked for a table.\n---\n{body}");
    write_tree(&dir, &[("SKILL.md", text.as_bytes()), ("assets/d.png", PNG), ("references/guide.md", b"# Guide\n")]);
    (tmp, dir.to_string_lossy().into_owned())
}

#[test]
fn html_of_a_folder_or_its_skill_md_is_the_sanitized_body() {
    let (_tmp, dir) = demo("# Title\n\nRead [the guide](references/guide.md).\n\n![diagram](assets/d.png)\n");
    let out = skillkit(&["preview", &dir]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(out.stdout.starts_with("<h1 id=\"title\">Title</h1>\n"), "{}", out.stdout);
    assert!(out.stdout.contains("data-link=\"file\" data-path=\"references/guide.md\""), "{}", out.stdout);
    assert!(
        out.stdout.contains("<img src=\"data:image/png;base64,iVBORw0KGgpmYWtl\" alt=\"diagram\">"),
        "{}",
        out.stdout
    );
    assert!(!out.stdout.contains("name: demo"), "the frontmatter is not previewed");
    assert!(out.stderr.is_empty(), "{}", out.stderr);
    let file = skillkit(&["preview", &format!("{dir}/SKILL.md"), "--format", "html"]);
    assert_eq!((file.code, file.stdout), (0, out.stdout));
}

#[test]
fn scripts_handlers_and_remote_loads_do_not_survive() {
    let (_tmp, dir) = demo(
        "<script>alert(1)</script><img src=x onerror=alert(2)>\n\n[j](javascript:alert(3)) \
         ![remote](https://example.com/t.png) <iframe src=\"https://evil.example\"></iframe>\n\n\
         <a href=\"#\" onclick=\"steal()\">kept text</a>\n",
    );
    let out = skillkit(&["preview", &dir]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    for bad in ["<script", "alert", "onerror", "onclick", "javascript", "example.com", "iframe", "evil"] {
        assert!(!out.stdout.contains(bad), "{bad} survived:\n{}", out.stdout);
    }
    assert!(out.stdout.contains("kept text") && out.stdout.contains("remote"), "{}", out.stdout);
}

#[test]
fn json_has_the_previews_data() {
    let (_tmp, dir) = demo("# One\n\n## Two\n\n![gone](assets/none.png)\n");
    let out = skillkit(&["preview", &dir, "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let json: Value = serde_json::from_str(&out.stdout).unwrap();
    let html = skillkit(&["preview", &dir]).stdout;
    assert_eq!(json["html"], html.as_str());
    let outline: Vec<(u64, &str, &str)> = json["outline"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| (s["level"].as_u64().unwrap(), s["title"].as_str().unwrap(), s["id"].as_str().unwrap()))
        .collect();
    assert_eq!(outline, [(1, "One", "one"), (2, "Two", "two")]);
    assert_eq!(
        json["skipped_images"],
        serde_json::json!([{"path": "assets/none.png", "reason": "no such file in the skill folder"}])
    );
    assert_eq!(json["refused"], Value::Null);
}

#[test]
fn a_body_nested_too_deep_is_refused_with_a_sentence() {
    let (_tmp, dir) = demo(&format!("# Deep\n\n{}x\n", "> ".repeat(500)));
    let out = skillkit(&["preview", &dir]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert_eq!(
        out.stdout,
        "<p class=\"preview-refused\">Preview too deep: lists, block quotes or HTML elements nest more than 100 levels deep.</p>\n"
    );
    assert!(out.stderr.starts_with("warning: "), "{}", out.stderr);
    assert!(out.stderr.contains("demo/SKILL.md: Preview too deep"), "{}", out.stderr);
    let json: Value = serde_json::from_str(&skillkit(&["preview", &dir, "--format", "json"]).stdout).unwrap();
    assert_eq!(json["refused"], serde_json::json!({"kind": "too-deep", "limit": 100}));
    assert_eq!(json["outline"][0]["title"], "Deep");
}

#[test]
fn what_cannot_be_previewed_exits_2() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().to_string_lossy().into_owned();
    let missing = skillkit(&["preview", &format!("{root}/nope")]);
    assert_eq!(missing.code, 2);
    assert!(missing.stderr.contains("no such file or folder"), "{}", missing.stderr);
    let empty = skillkit(&["preview", &root]);
    assert_eq!(empty.code, 2);
    assert!(empty.stderr.starts_with("error: no SKILL.md in "), "{}", empty.stderr);
    write_tree(tmp.path(), &[("notes.md", b"# Notes\n"), ("bin/SKILL.md", b"\x00\x01")]);
    let other = skillkit(&["preview", &format!("{root}/notes.md")]);
    assert_eq!(other.code, 2, "{}", other.stderr);
    let binary = skillkit(&["preview", &format!("{root}/bin")]);
    assert_eq!(binary.code, 2);
    assert!(binary.stderr.contains("is a binary file"), "{}", binary.stderr);
    let bad_format = skillkit(&["preview", &root, "--format", "sarif"]);
    assert_eq!(bad_format.code, 2);
    assert!(missing.stdout.is_empty() && empty.stdout.is_empty());
}

#[test]
fn help_lists_the_preview_command() {
    let out = skillkit(&["--help"]);
    assert_eq!(out.code, 0);
    let line = out.stdout.lines().find(|l| l.trim_start().starts_with("preview ")).unwrap_or_default();
    assert!(line.ends_with(" Print the sanitized HTML the app previews for a skill's body"), "{}", out.stdout);
}
