//! What a packaged `skillkit` carries besides its commands: `--version` with the commit it was
//! built from, shell completions and the manual page, all generated from the clap definitions.

use e2e::skillkit;
use std::process::Command;

#[test]
fn version_names_the_commit_when_built_in_a_checkout() {
    let out = skillkit(&["--version"]);
    assert_eq!(out.code, 0);
    let line = out.stdout.trim();
    assert!(line.starts_with(&format!("skillkit {}", env!("CARGO_PKG_VERSION"))), "{line}");
    let head = Command::new("git").args(["rev-parse", "--short=9", "HEAD"]).current_dir(e2e::repo_root()).output();
    if let Some(h) = head.ok().filter(|h| h.status.success()) {
        let commit = String::from_utf8_lossy(&h.stdout).trim().to_string();
        assert!(line.ends_with(&format!("({commit})")), "{line} should name {commit}");
    }
}

#[test]
fn completions_cover_every_command_and_bash_parses_them() {
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let out = skillkit(&["completions", shell]);
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        for command in ["check", "tree", "prompt", "lsp", "completions", "man"] {
            assert!(out.stdout.contains(command), "{shell} completion lacks `{command}`");
        }
    }
    let bash = skillkit(&["completions", "bash"]).stdout;
    assert!(bash.contains("--write-baseline") && bash.contains("--agent"), "flags are completed too");
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("skillkit.bash");
    std::fs::write(&file, &bash).unwrap();
    let parsed = Command::new("bash").arg("-n").arg(&file).output().unwrap();
    assert!(parsed.status.success(), "{}", String::from_utf8_lossy(&parsed.stderr));
    let bad = skillkit(&["completions", "tcsh"]);
    assert_eq!(bad.code, 2);
}

#[test]
fn the_manual_page_is_roff_with_every_command() {
    let out = skillkit(&["man"]);
    assert_eq!(out.code, 0);
    assert!(
        out.stdout.starts_with(".ie") || out.stdout.contains("\n.TH skillkit"),
        "{}",
        &out.stdout[..200.min(out.stdout.len())]
    );
    for command in ["check", "tree", "prompt", "lsp", "schema", "agents"] {
        assert!(out.stdout.contains(command), "the page lacks `{command}`");
    }
    assert!(out.stdout.contains(env!("CARGO_PKG_VERSION")), "the page names the version");
}
