//! Helpers for the end-to-end tests: build skill trees in temporary folders and run the
//! `skillkit` CLI on them in-process, capturing output and exit code.

use std::path::Path;

/// What one CLI run printed and returned.
pub struct Output {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Run `skillkit` with `args` (without the program name) in the current process.
pub fn skillkit(args: &[&str]) -> Output {
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut all = vec!["skillkit"];
    all.extend_from_slice(args);
    let code = skillkit_cli::run(all, &mut out, &mut err);
    Output { code, stdout: String::from_utf8(out).unwrap(), stderr: String::from_utf8(err).unwrap() }
}

/// Write `files` (relative path → bytes) under `root`.
pub fn write_tree(root: &Path, files: &[(&str, &[u8])]) {
    for (rel, bytes) in files {
        let p = root.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

/// The repository root (for README, docs and the bundled skills).
pub fn repo_root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR")).parent().unwrap()
}
