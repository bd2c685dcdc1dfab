//! The plugin goldens' shape (issue #35): every case folder under `tests/fixtures/plugins/` is listed
//! in the table of `tests/oracles/capture_plugin_validate.sh` and the other way round, and each listed
//! case holds what that script writes from the real `claude plugin validate`: an `expected.txt` (the
//! command, the output, the exit codes without and with `--strict` and `--profile directory`) and an
//! `expected.json` (the `--json` report) that agree with each other, with machine paths replaced by
//! placeholders. A case added without its capture, or a capture without its case, fails here; what
//! the goldens say is held against `skillkit check` by the package parity test.

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::PathBuf;

fn plugins() -> PathBuf {
    e2e::repo_root().join("tests/fixtures/plugins")
}

fn script() -> String {
    std::fs::read_to_string(e2e::repo_root().join("tests/oracles/capture_plugin_validate.sh")).unwrap()
}

/// The exit codes a golden ends with, or what is wrong with its shape.
#[derive(Debug, PartialEq)]
struct Codes {
    plain: i32,
    strict: i32,
    directory: i32,
}

fn shape(text: &str, target: &str) -> Result<Codes, String> {
    let lines: Vec<&str> = text.lines().collect();
    let shown = if target == "." { "{CASE}".to_string() } else { format!("{{CASE}}/{target}") };
    let first = format!("$ claude plugin validate {shown}");
    if lines.first() != Some(&first.as_str()) {
        return Err(format!("first line is not `{first}`"));
    }
    if lines.len() < 5 {
        return Err("fewer than five lines".into());
    }
    let code = |line: &str, label: &str| -> Result<i32, String> {
        line.strip_prefix(&format!("[{label}: "))
            .and_then(|r| r.strip_suffix(']'))
            .and_then(|n| n.parse().ok())
            .ok_or_else(|| format!("`{line}` is not `[{label}: N]`"))
    };
    let n = lines.len();
    let codes = Codes {
        plain: code(lines[n - 3], "exit code")?,
        strict: code(lines[n - 2], "exit code with --strict")?,
        directory: code(lines[n - 1], "exit code with --profile directory")?,
    };
    for c in [codes.plain, codes.strict, codes.directory] {
        if c != 0 && c != 1 {
            return Err(format!("exit code {c}: the program failed (2) or timed out (124), not a verdict"));
        }
    }
    // --strict and --profile directory only add reasons to fail
    if codes.strict < codes.plain || codes.directory < codes.plain {
        return Err(format!("{codes:?}: a stricter run passed what the plain run failed"));
    }
    let verdict = lines[n - 4];
    let expected = if codes.plain == 0 { "✔ Validation passed" } else { "✘ Validation failed" };
    if !verdict.starts_with(expected) {
        return Err(format!("last line of the output is `{verdict}`, the exit code says `{expected}`"));
    }
    if text.contains("/tmp/") || text.contains("/work/") || text.contains("/home/") {
        return Err("a machine path is left in (the capture replaces it with {CASE}, {WORK} or {HOME})".into());
    }
    Ok(codes)
}

#[test]
fn every_case_folder_is_listed_in_the_capture_script_and_each_listed_case_exists() {
    let listed: Vec<String> = e2e::plugin_validate_cases(&script()).into_iter().map(|(c, _)| c).collect();
    let unique: BTreeSet<&String> = listed.iter().collect();
    assert_eq!(unique.len(), listed.len(), "a case is listed twice");
    let folders: BTreeSet<String> = std::fs::read_dir(plugins())
        .unwrap()
        .flatten()
        .filter(|e| e.path().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let listed: BTreeSet<String> = listed.into_iter().collect();
    let not_listed: Vec<_> = folders.difference(&listed).collect();
    let no_folder: Vec<_> = listed.difference(&folders).collect();
    assert!(not_listed.is_empty(), "case folders the capture script does not list: {not_listed:?}");
    assert!(no_folder.is_empty(), "cases the capture script lists without a folder: {no_folder:?}");
    assert!(listed.len() >= 30, "only {} cases", listed.len());
}

#[test]
fn every_case_has_its_goldens_and_they_agree() {
    let cases_md = std::fs::read_to_string(plugins().join("cases.md")).unwrap();
    let mut failures = vec![];
    let (mut passed, mut failed) = (0, 0);
    for (case, target) in e2e::plugin_validate_cases(&script()) {
        let dir = plugins().join(&case);
        if !dir.join(&target).exists() {
            failures.push(format!("{case}: the validated path {target} does not exist"));
        }
        if !cases_md.contains(&format!("| `{case}` |")) {
            failures.push(format!("{case}: no row in cases.md"));
        }
        let Ok(text) = std::fs::read_to_string(dir.join("expected.txt")) else {
            failures.push(format!("{case}: no expected.txt (run tests/oracles/capture_plugin_validate.sh)"));
            continue;
        };
        let codes = match shape(&text, &target) {
            Ok(c) => c,
            Err(e) => {
                failures.push(format!("{case}: expected.txt: {e}"));
                continue;
            }
        };
        let json: Value = match std::fs::read_to_string(dir.join("expected.json")).map(|s| serde_json::from_str(&s)) {
            Ok(Ok(v)) => v,
            _ => {
                failures.push(format!("{case}: no expected.json, or not JSON"));
                continue;
            }
        };
        if json["success"] != Value::Bool(codes.plain == 0) {
            failures.push(format!(
                "{case}: expected.json says success {} and the exit code is {}",
                json["success"], codes.plain
            ));
        }
        if json["strict"] != Value::Bool(false) {
            failures.push(format!("{case}: expected.json is not the plain --json run"));
        }
        if let Some(file) = json["manifest"]["file"].as_str() {
            if !file.starts_with("{CASE}") {
                failures.push(format!("{case}: expected.json's manifest file {file} is not under {{CASE}}"));
            }
        }
        // every error the report lists is printed in expected.txt, message for message
        let mut messages = vec![];
        for part in std::iter::once(&json["manifest"]).chain(json["contents"].as_array().into_iter().flatten()) {
            for e in part["errors"].as_array().into_iter().flatten() {
                messages.push(e["message"].as_str().unwrap_or_default().to_string());
            }
        }
        for m in messages {
            if !text.contains(&m) {
                failures.push(format!("{case}: the JSON report's error `{m}` is not in expected.txt"));
            }
        }
        if codes.plain == 0 {
            passed += 1
        } else {
            failed += 1
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    // the fixtures hold both verdicts, in numbers
    assert!(passed >= 10 && failed >= 10, "{passed} cases pass and {failed} fail");
}

#[test]
fn the_shape_check_rejects_what_a_broken_capture_writes() {
    let good = "$ claude plugin validate {CASE}\nValidating plugin manifest: {CASE}/.claude-plugin/plugin.json\n\n✘ Validation failed\n[exit code: 1]\n[exit code with --strict: 1]\n[exit code with --profile directory: 1]\n";
    assert_eq!(shape(good, "."), Ok(Codes { plain: 1, strict: 1, directory: 1 }));
    // the wrong target on the first line
    assert!(shape(good, ".claude-plugin/plugin.json").is_err());
    // no exit code lines (a capture cut short)
    assert!(shape(&good.replace("[exit code with --profile directory: 1]\n", ""), ".").is_err());
    // the program's own failure, not a verdict
    assert!(shape(&good.replace("[exit code: 1]", "[exit code: 2]"), ".").is_err());
    // a verdict line that disagrees with the exit code
    assert!(shape(&good.replace("[exit code: 1]", "[exit code: 0]"), ".").is_err());
    // --strict passing what the plain run failed
    assert!(shape(&good.replace("[exit code with --strict: 1]", "[exit code with --strict: 0]"), ".").is_err());
    // a scratch path left in
    assert!(shape(&good.replace("{CASE}/.claude", "/tmp/skillkit-plugin-validate/x/.claude"), ".").is_err());
}

#[test]
fn the_goldens_name_the_release_the_script_captures() {
    let script = script();
    let captured = std::fs::read_to_string(plugins().join("captured-with.txt")).unwrap();
    let version = captured.split_whitespace().next().unwrap_or_default();
    assert!(version.starts_with(|c: char| c.is_ascii_digit()), "captured-with.txt: {captured:?}");
    assert!(
        script.contains(&format!("Claude Code {version}")) && script.contains(&format!("claude-code@{version}")),
        "the goldens were captured with {version}; the script's header must name that release"
    );
}
