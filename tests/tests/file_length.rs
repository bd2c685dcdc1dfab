//! No source file over ~600 lines without a reason (issue #34): a non-test source file of the
//! engine, the use cases, the CLI, the mock provider or the shell whose code before its
//! `#[cfg(test)]` block runs past [`LIMIT`] lines says why in its module doc, in a paragraph that
//! starts `Over 600 lines`. Split the file by job instead where it does several.

use std::path::{Path, PathBuf};

/// Lines of code (before the test module) a file may have without a reason.
const LIMIT: usize = 600;

/// The marker a long file's module doc carries.
const REASON: &str = "//! Over 600 lines";

fn sources(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            sources(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") && path.file_name().is_some_and(|n| n != "tests.rs") {
            out.push(path);
        }
    }
}

/// The lines before a file's first `#[cfg(test)]`, and whether its module doc gives a reason.
fn measure(text: &str) -> (usize, bool) {
    let code = text.lines().take_while(|l| !l.starts_with("#[cfg(test)]")).count();
    let reason = text.lines().take_while(|l| l.starts_with("//!")).any(|l| l.starts_with(REASON));
    (code, reason)
}

#[test]
fn every_long_source_file_says_why() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap();
    let mut files = vec![];
    for dir in [
        "crates/skillkit/src",
        "crates/skillkit-api/src",
        "crates/skillkit-cli/src",
        "crates/mock-provider/src",
        "src-tauri/src",
    ] {
        sources(&root.join(dir), &mut files);
    }
    assert!(files.len() > 100, "found only {} source files", files.len());
    let mut unexplained = vec![];
    for f in &files {
        let (code, reason) = measure(&std::fs::read_to_string(f).unwrap());
        if code > LIMIT && !reason {
            unexplained.push(format!("{} ({code} lines)", f.strip_prefix(root).unwrap().display()));
        }
    }
    assert!(
        unexplained.is_empty(),
        "over {LIMIT} lines with no `{REASON}…` paragraph in the module doc (split it by job, or say why it is one):\n{}",
        unexplained.join("\n")
    );
}

#[test]
fn the_measure_stops_at_the_tests_and_reads_the_module_doc() {
    let long = format!("//! A module.\n{}#[cfg(test)]\nmod tests {{}}\n", "fn f() {}\n".repeat(700));
    assert_eq!(measure(&long), (701, false));
    let explained = format!("//! A module.\n//!\n{REASON} for one job: …\n{}", "fn f() {}\n".repeat(700));
    assert_eq!(measure(&explained), (703, true));
    // A marker below the module doc is not a reason.
    let late = format!("//! A module.\nfn g() {{}}\n{REASON}\n");
    assert!(!measure(&late).1);
}
