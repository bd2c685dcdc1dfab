//! Parity with the real `claude plugin validate` (issue #35): for every case of
//! `tests/fixtures/plugins/`, `skillkit check --package <copy> --format json` reports an error
//! exactly where the validator's golden (`expected.json`) reports one, and a warning exactly where
//! it warns.
//!
//! What is compared, as sets (the validator lists skills in file-system order):
//!
//! - **Package rules** (group `package`): each finding is `(file, severity, JSON path)`, the path
//!   being what its message says before the first `: ` (the validator's wording is
//!   `{path}: {message}`, and so is ours). They must equal the validator's findings on the
//!   manifests, message included (ours carries its exact wording). A finding the validator prints
//!   in a marketplace under `plugins[{i}] plugin.json → {path}` is ours on that plugin's own
//!   `.claude-plugin/plugin.json`, where it is.
//! - **SKILL.md files**: the validator's value checks on a plugin skill's frontmatter
//!   (`description`, `name`, `allowed-tools`, `shell`) are the package rule
//!   `plugin-skill-frontmatter`, compared by (file, severity, path); its other findings there (no
//!   frontmatter, YAML that does not parse, no description, `metadata` not a mapping) are what our
//!   skill rules judge: where it reports an error in a file we report one in that file, where it
//!   warns we report a finding there. We are deliberately stricter on skills (a missing `name`, a
//!   name that differs from its folder, unknown keys, the lengths, a missing description as an
//!   error…): those findings are in their own rule groups, never package rules, and are not
//!   compared.
//! - **The verdict**: the validator's errors on the manifests ⇔ a package-rule error of ours (its
//!   exit 1 comes from those or from a skill file's error, compared above).
//!
//! Deliberate differences are listed in [`DELIBERATE`], with the validator's finding that each
//! excuses (a stale entry fails the test).
//!
//! The corpus' plugin folders are compared by `corpus_plugin_folders_agree` (ignored by default: it needs
//! `/work/shared/corpus` and the captured outputs of `capture_plugin_validate.sh --corpus`).

use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

fn plugins() -> PathBuf {
    e2e::repo_root().join("tests/fixtures/plugins")
}

/// Cases where we disagree on purpose: (case, the validator's `path: message` start we do not
/// report, why). The validator judged nothing else there: our findings in the case are not
/// compared.
const DELIBERATE: &[(&str, &str, &str)] = &[(
    "plugin-folder",
    "directory: No manifest found in directory",
    "a folder of plugins is a package to `skillkit check` (each plugin checked as installed); the validator takes one plugin at a time",
)];

fn copy_case(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for e in std::fs::read_dir(from).unwrap() {
        let e = e.unwrap();
        let name = e.file_name().to_string_lossy().into_owned();
        if from == to || name.starts_with("expected.") || name == "captured-with.txt" {
            continue;
        }
        copy_tree(&e.path(), &to.join(&name));
    }
}

fn copy_tree(from: &Path, to: &Path) {
    if from.is_dir() {
        std::fs::create_dir_all(to).unwrap();
        for e in std::fs::read_dir(from).unwrap() {
            let e = e.unwrap();
            copy_tree(&e.path(), &to.join(e.file_name()));
        }
    } else {
        std::fs::copy(from, to).unwrap();
    }
}

/// One finding: file (relative to the case), severity, JSON path, message.
type Finding = (String, &'static str, String, String);

fn severity(s: &str) -> &'static str {
    match s {
        "error" => "error",
        "warning" => "warning",
        _ => "info",
    }
}

/// The validator's findings in a golden `--json` report, and whether it passed.
fn theirs(golden: &Value, case_dir: &Path) -> (Vec<Finding>, bool) {
    let rel = |f: &str| {
        let f = f.strip_prefix("{CASE}").or_else(|| f.strip_prefix("{PLUGIN}")).unwrap_or(f);
        f.trim_start_matches('/').to_string()
    };
    let mut out = vec![];
    let market: Option<Value> = std::fs::read(case_dir.join(".claude-plugin/marketplace.json"))
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let mut take = |file: String, report: &Value| {
        for (key, sev) in [("errors", "error"), ("warnings", "warning")] {
            for f in report[key].as_array().into_iter().flatten() {
                let path = f["path"].as_str().unwrap().to_string();
                let message = f["message"].as_str().unwrap().to_string();
                // `plugins[{i}] plugin.json → {path}`: a listed plugin's manifest.
                if let Some((head, inner)) = path.split_once(" plugin.json → ") {
                    let i: usize = head.trim_start_matches("plugins[").trim_end_matches(']').parse().unwrap();
                    let source = market.as_ref().and_then(|m| m["plugins"][i]["source"].as_str()).unwrap();
                    let file = format!("{}/.claude-plugin/plugin.json", source.trim_start_matches("./"));
                    out.push((file, sev, inner.to_string(), message));
                } else {
                    out.push((file.clone(), sev, path, message));
                }
            }
        }
    };
    if let Some(m) = golden.get("manifest").filter(|m| !m.is_null()) {
        take(rel(m["file"].as_str().unwrap_or("")), m);
    }
    for c in golden["contents"].as_array().into_iter().flatten() {
        take(rel(c["file"].as_str().unwrap()), c);
    }
    (out, golden["success"].as_bool().unwrap())
}

fn package_codes() -> BTreeSet<&'static str> {
    skillkit::lint::rules::RULES
        .iter()
        .map(|r| r.meta())
        .filter(|m| m.group == skillkit::lint::rules::Group::Package)
        .map(|m| m.code)
        .collect()
}

/// Our findings on `target` (inside the copied case at `root`): (package-rule findings, the
/// others).
fn ours(root: &Path, target: &Path) -> (Vec<Finding>, Vec<Finding>) {
    let out = e2e::skillkit(&["check", target.to_str().unwrap(), "--package", "--format", "json"]);
    let json: Value = serde_json::from_str(&out.stdout)
        .unwrap_or_else(|e| panic!("{}: {e}: {}{}", target.display(), out.stdout, out.stderr));
    let package = package_codes();
    let real_root = std::fs::canonicalize(root).unwrap();
    let (mut pkg, mut other) = (vec![], vec![]);
    for s in json["skills"].as_array().unwrap() {
        let path = PathBuf::from(s["path"].as_str().unwrap());
        let path = std::fs::canonicalize(&path).unwrap_or(path);
        let file = path.strip_prefix(&real_root).unwrap_or(&path).to_string_lossy().replace('\\', "/");
        let file = if file.is_empty() { String::new() } else { file };
        for d in s["diagnostics"].as_array().unwrap() {
            let message = d["message"].as_str().unwrap().to_string();
            let sev = severity(d["severity"].as_str().unwrap());
            if package.contains(d["code"].as_str().unwrap()) {
                let (p, m) = message.split_once(": ").unwrap_or(("", &message));
                pkg.push((file.clone(), sev, p.to_string(), m.to_string()));
            } else {
                other.push((file.clone(), sev, d["code"].as_str().unwrap().to_string(), message));
            }
        }
    }
    (pkg, other)
}

/// The disagreements on one case, as table rows.
fn compare(case: &str, golden: &Value, case_dir: &Path, target: &Path) -> Vec<String> {
    let (theirs, passed) = theirs(golden, case_dir);
    let (pkg, other) = ours(case_dir, target);
    let mut rows = vec![];
    let excused = |f: &Finding| {
        DELIBERATE.iter().any(|(c, start, _)| *c == case && format!("{}: {}", f.2, f.3).starts_with(start))
    };
    let is_skill = |file: &str| file.ends_with(".md");
    // Manifest findings: equal sets, message included.
    let want: BTreeSet<&Finding> = theirs.iter().filter(|f| !is_skill(&f.0) && !excused(f)).collect();
    let deliberate = DELIBERATE.iter().any(|(c, _, _)| *c == case);
    let got: BTreeSet<&Finding> = pkg.iter().filter(|f| !is_skill(&f.0) && !deliberate).collect();
    for f in want.difference(&got) {
        rows.push(format!("| {case} | {} | {} | `{}: {}` | — |", f.0, f.1, f.2, f.3));
    }
    for f in got.difference(&want) {
        rows.push(format!("| {case} | {} | {} | — | `{}: {}` |", f.0, f.1, f.2, f.3));
    }
    // SKILL.md files. Package rules (the validator's own checks there, `plugin-skill-frontmatter`)
    // where it reports the same (file, severity, path); every error of its there matched by one
    // of ours in that file, every warning by a finding (our skill rules are stricter: what it
    // warns of, they may call an error).
    let skill_key = |f: &Finding| (f.0.clone(), f.1, f.2.clone());
    let their_skill: BTreeSet<_> = theirs.iter().filter(|f| is_skill(&f.0)).map(skill_key).collect();
    for f in pkg.iter().filter(|f| is_skill(&f.0)) {
        if !their_skill.contains(&skill_key(f)) {
            rows.push(format!("| {case} | {} | {} | — | `{}: {}` |", f.0, f.1, f.2, f.3));
        }
    }
    for f in theirs.iter().filter(|f| is_skill(&f.0)) {
        let found = pkg.iter().any(|o| skill_key(o) == skill_key(f))
            || other.iter().any(|o| o.0 == f.0 && (f.1 == "warning" || o.1 == "error"));
        if !found {
            rows.push(format!("| {case} | {} | {} | `{}: {}` | (none) |", f.0, f.1, f.2, f.3));
        }
    }
    // The verdict on the manifests: the validator's errors there (its exit code, but for the
    // skill files' errors compared above) ⇔ a package-rule error of ours.
    let their_error = theirs.iter().any(|f| f.1 == "error" && !is_skill(&f.0) && !excused(f));
    let our_error = pkg.iter().any(|f| f.1 == "error" && !is_skill(&f.0));
    let skill_error = theirs.iter().any(|f| f.1 == "error" && is_skill(&f.0));
    if their_error != our_error || passed == (their_error || skill_error) && !theirs.iter().any(excused) {
        rows.push(format!(
            "| {case} | (verdict) | | validator {} | skillkit {} |",
            if passed { "passes" } else { "fails" },
            if our_error { "has a package error" } else { "has no package error" }
        ));
    }
    rows
}

#[test]
fn skillkit_check_agrees_with_claude_plugin_validate_on_every_case() {
    let tmp = tempfile::tempdir().unwrap();
    let script = std::fs::read_to_string(e2e::repo_root().join("tests/oracles/capture_plugin_validate.sh")).unwrap();
    let cases = e2e::plugin_validate_cases(&script);
    assert!(cases.len() >= 76, "only {} cases", cases.len());
    let mut rows = vec![];
    for (case, target) in &cases {
        let golden: Value =
            serde_json::from_str(&std::fs::read_to_string(plugins().join(case).join("expected.json")).unwrap())
                .unwrap();
        let dir = tmp.path().join(case);
        copy_case(&plugins().join(case), &dir);
        let target = if target == "." { dir.clone() } else { dir.join(target) };
        rows.extend(compare(case, &golden, &dir, &target));
    }
    // Each deliberate difference still excuses something the validator says.
    for (case, start, why) in DELIBERATE {
        let golden: Value =
            serde_json::from_str(&std::fs::read_to_string(plugins().join(case).join("expected.json")).unwrap())
                .unwrap();
        let (theirs, _) = theirs(&golden, &plugins().join(case));
        assert!(
            theirs.iter().any(|f| format!("{}: {}", f.2, f.3).starts_with(start)),
            "{case}: the validator no longer says `{start}…` ({why})"
        );
    }
    assert!(
        rows.is_empty(),
        "{} disagreements with `claude plugin validate`:\n| case | file | severity | validator | skillkit |\n|---|---|---|---|---|\n{}",
        rows.len(),
        rows.join("\n")
    );
}

/// The corpus' plugin folders (`/work/shared/corpus`, or `SKILLKIT_CORPUS`) against the outputs of
/// `tests/oracles/capture_plugin_validate.sh --corpus OUT` (`/tmp/pkgo-corpus`, or
/// `SKILLKIT_PLUGIN_CORPUS_OUT`): the same comparison as the cases', folder by folder; prints the
/// count that agree.
#[test]
#[ignore = "needs the corpus and the validator's outputs on it"]
fn corpus_plugin_folders_agree() {
    let root = PathBuf::from(std::env::var("SKILLKIT_CORPUS").unwrap_or_else(|_| "/work/shared/corpus".into()));
    let out = PathBuf::from(std::env::var("SKILLKIT_PLUGIN_CORPUS_OUT").unwrap_or_else(|_| "/tmp/pkgo-corpus".into()));
    let list = std::fs::read_to_string(out.join("plugins.txt")).expect("plugins.txt of a --corpus capture");
    let (mut agree, mut total, mut rows) = (0, 0, vec![]);
    for dir in list.lines().filter(|l| !l.trim().is_empty()) {
        let dir = PathBuf::from(dir);
        let rel = dir.strip_prefix(&root).unwrap_or(&dir).to_string_lossy().replace('/', "~");
        let golden: Value = serde_json::from_str(&std::fs::read_to_string(out.join(format!("{rel}.json"))).unwrap())
            .unwrap_or_else(|e| panic!("{rel}.json: {e}"));
        total += 1;
        let r = compare(&rel, &golden, &dir, &dir);
        if r.is_empty() {
            agree += 1;
        }
        rows.extend(r);
    }
    println!("{agree} of {total} corpus plugin folders agree with `claude plugin validate`");
    assert!(total > 0, "no plugin folder listed");
    assert!(
        rows.is_empty(),
        "{agree} of {total} agree; disagreements:\n| folder | file | severity | validator | skillkit |\n|---|---|---|---|---|\n{}",
        rows.join("\n")
    );
}
