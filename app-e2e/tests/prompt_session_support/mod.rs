//! Helpers for the Prompt, Session and screenshot tests of the real window: the shared harness,
//! and the `skillkit` CLI whose output the window must match.
#![allow(dead_code)]

pub use app_e2e::*;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The CLI binary, built once (`cargo build -p skillkit-cli`).
pub fn skillkit() -> PathBuf {
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "-q", "-p", "skillkit-cli"])
        .current_dir(repo())
        .status()
        .expect("cargo runs");
    assert!(status.success(), "cargo build -p skillkit-cli failed");
    target_dir().join("debug/skillkit")
}

/// `skillkit prompt` for the library: exactly the injected text.
pub fn cli_prompt(skillkit: &Path, agent: &str, library: &Path, extra: &[&str]) -> String {
    let out = Command::new(skillkit)
        .args(["prompt", "--agent", agent, "--source"])
        .arg(library)
        .args(extra)
        .output()
        .expect("skillkit runs");
    assert!(out.status.success(), "skillkit prompt failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}
