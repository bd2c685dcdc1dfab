//! `skillkit lsp` measured as an editor meets it, over the real binary's stdio: the time from an
//! incremental `textDocument/didChange` on a 500-line `SKILL.md` to the server's
//! `publishDiagnostics` for it (typing pace, one edit every 30 ms, so the whole-library check
//! waits for the pause), and the server's memory on a whole workspace (peak resident set, from
//! `/proc`). Target (#15): median ≤ 5 ms; ≤ 150 MB for 1,000 skills.
//!
//! Two workspaces: 1,000 skills of the synthetic library (`bench/gen_library.py 1000 --seed 1`),
//! and the 1,168 real skills of `../shared/corpus` when it is there beside the checkout. Each has
//! the 500-line skill as a second workspace folder.
//!
//! ```text
//! cargo bench -p skillkit-cli --bench lsp            # release build; EDITS=N (default 200)
//! ```

#[path = "../tests/support/lsp_client.rs"]
mod lsp_client;

use lsp_client::{uri, Client};
use serde_json::{json, Value};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

/// The description line (0-based line 2) and where the edit goes: its end.
const DESCRIPTION: &str =
    "description: A long skill for the keystroke benchmark. Use when measuring how fast the editor shows diagnostics.";
/// Appended and removed in turn: an unquoted `: ` makes the YAML invalid (SK301), so every
/// edit changes the diagnostics.
const TOGGLE: &str = " Note: x";

fn long_skill(dir: &Path) -> PathBuf {
    let skill = dir.join("bench-long");
    std::fs::create_dir_all(&skill).unwrap();
    let mut text = format!("---\nname: bench-long\n{DESCRIPTION}\n---\n\n# Bench long\n\n");
    for i in 8..=500 {
        if i % 25 == 0 {
            text.push_str(&format!("## Section {i}\n"));
        } else {
            text.push_str(&format!(
                "Line {i} of the body explains one step of the task in plain words, with `code` and a [link](#section).\n"
            ));
        }
    }
    std::fs::write(skill.join("SKILL.md"), text).unwrap();
    skill.join("SKILL.md")
}

/// Peak and current resident set of a process, in MB.
fn memory(pid: u32) -> (f64, f64) {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    let kb = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
            .unwrap_or(f64::NAN)
    };
    (kb("VmHWM:") / 1024.0, kb("VmRSS:") / 1024.0)
}

fn percentile(sorted: &[f64], p: f64) -> f64 {
    let i = ((sorted.len() - 1) as f64 * p).round() as usize;
    sorted[i]
}

fn run(label: &str, library: &Path, skills: usize, edits: usize) {
    let scratch = tempfile::tempdir().unwrap();
    let file = long_skill(scratch.path());
    let started = Instant::now();
    let mut c = Client::start(&[library, scratch.path()], json!({"agent": "claude-code"}));
    // The first whole-library check ends with `skillkit/promptsChanged`.
    c.next("skillkit/promptsChanged");
    let first_check = started.elapsed();
    let (peak_open, _) = memory(c.child.id());

    let text = std::fs::read_to_string(&file).unwrap();
    let doc = uri(&file);
    c.open(&file, &text);
    c.diagnostics(&doc);
    let line = 2;
    let end = DESCRIPTION.encode_utf16().count() as u32;
    let toggle = TOGGLE.encode_utf16().count() as u32;
    let mut times = Vec::with_capacity(edits);
    for i in 0..edits {
        let (range, new_text) = if i % 2 == 0 {
            (json!({"start": {"line": line, "character": end}, "end": {"line": line, "character": end}}), TOGGLE)
        } else {
            (json!({"start": {"line": line, "character": end}, "end": {"line": line, "character": end + toggle}}), "")
        };
        let params = json!({
            "textDocument": {"uri": doc, "version": i + 2},
            "contentChanges": [{"range": range, "text": new_text}],
        });
        c.forget_diagnostics();
        let t0 = Instant::now();
        c.notify("textDocument/didChange", params);
        let found = c.diagnostics(&doc);
        times.push(t0.elapsed().as_secs_f64() * 1000.0);
        let broken = found.iter().any(|d| d["code"] == "SK301");
        assert_eq!(broken, i % 2 == 0, "edit {i}: {found:?}");
        std::thread::sleep(Duration::from_millis(30));
    }
    // Let the whole-library check after the pause run, then read the memory.
    c.next("skillkit/promptsChanged");
    let (peak, rss) = memory(c.child.id());
    c.stop();
    times.sort_by(f64::total_cmp);
    println!(
        "{label}: {skills} skills + the 500-line skill; first library check {:.0} ms; didChange → publishDiagnostics over {edits} edits: median {:.2} ms, p95 {:.2} ms, max {:.2} ms; peak RSS {peak_open:.0} MB after opening, {peak:.0} MB at the end (RSS now {rss:.0} MB)",
        first_check.as_secs_f64() * 1000.0,
        percentile(&times, 0.5),
        percentile(&times, 0.95),
        times[times.len() - 1],
    );
}

fn count_skills(dir: &Path) -> usize {
    let out =
        Command::new(env!("CARGO_BIN_EXE_skillkit")).args(["check", "--format", "json"]).arg(dir).output().unwrap();
    let v: Value = serde_json::from_slice(&out.stdout).unwrap_or(Value::Null);
    v["skills"].as_array().map_or(0, Vec::len)
}

fn main() {
    // `cargo bench` passes `--bench`; `cargo test --benches` does not: then run a short smoke pass.
    let benching = std::env::args().any(|a| a == "--bench");
    let edits: usize =
        std::env::var("EDITS").ok().and_then(|e| e.parse().ok()).unwrap_or(if benching { 200 } else { 4 });
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap();
    let scratch = tempfile::tempdir().unwrap();
    let synthetic = scratch.path().join("lib");
    let n = if benching { 1000 } else { 20 };
    let made = Command::new("python3")
        .arg(root.join("bench/gen_library.py"))
        .arg(n.to_string())
        .arg(&synthetic)
        .args(["--seed", "1"])
        .output()
        .unwrap();
    assert!(made.status.success(), "gen_library.py: {}", String::from_utf8_lossy(&made.stderr));
    run("synthetic", &synthetic, count_skills(&synthetic), edits);
    let corpus = root.join("../shared/corpus");
    if benching && corpus.is_dir() {
        run("real (../shared/corpus)", &corpus, count_skills(&corpus), edits);
    }
}
