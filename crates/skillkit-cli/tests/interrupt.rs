//! Ctrl+C during `skillkit eval` (the real binary, a real SIGINT): the requests in flight finish,
//! the report of the completed runs is printed, and the exit code is 130.

#![cfg(unix)]

use mock_provider::{Fault, MockServer, Reply, Rule, Script};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn ctrl_c_stops_cleanly_with_the_completed_runs() {
    let tmp = tempfile::tempdir().unwrap();
    let skill = tmp.path().join("skills/pdf");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(
        skill.join("SKILL.md"),
        "---\nname: pdf\ndescription: Reads PDF files. Use for PDFs.\n---\n\nBody.\n",
    )
    .unwrap();
    let cases: String = (1..=10).map(|i| format!("  - {{id: c{i}, query: read pdf {i}, expect: pdf}}\n")).collect();
    std::fs::write(tmp.path().join("evals.yaml"), format!("agent: claude-code\nsources: [skills]\ncases:\n{cases}"))
        .unwrap();
    // Every reply takes 300 ms: 30 requests one at a time would take 9 s.
    let server = MockServer::start(Script {
        rules: vec![Rule {
            contains: Some("pdf".into()),
            replies: vec![Reply::tool("Skill", serde_json::json!({"skill": "pdf"}))],
            fault: Some(Fault { delay_ms: Some(300), ..Fault::default() }),
            ..Rule::default()
        }],
        ..Script::default()
    });
    let child = Command::new(env!("CARGO_BIN_EXE_skillkit"))
        .args(["eval", "evals.yaml", "--provider", "openai", "--model", "m", "--concurrency", "1", "--format", "json"])
        .args(["--base-url", &server.base_url()])
        .current_dir(tmp.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    while server.requests().len() < 3 {
        assert!(started.elapsed() < Duration::from_secs(60), "the eval never started");
        std::thread::sleep(Duration::from_millis(20));
    }
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(stderr.contains("interrupted: the report covers the completed runs only"), "{stderr}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["cancelled"], true);
    let done = report["summary"]["requests"].as_u64().unwrap();
    assert!((2..30).contains(&done), "{done} runs completed");
    assert_eq!(done as usize, server.requests().len(), "each request sent was answered and counted");
}

/// Ctrl+C during `skillkit eval optimize`, in the second iteration's measurement: exit 130, the
/// report holds the iterations measured in full (iteration 0 only), and nothing is written.
#[test]
fn ctrl_c_during_an_optimization_keeps_the_completed_iterations() {
    let tmp = tempfile::tempdir().unwrap();
    let text = "---\nname: pdf\ndescription: Reads PDF files.\n---\n\nBody.\n";
    let skill = tmp.path().join("skills/pdf");
    std::fs::create_dir_all(&skill).unwrap();
    std::fs::write(skill.join("SKILL.md"), text).unwrap();
    let cases: String = (1..=4)
        .map(|i| format!("  - {{id: p{i}, query: read pdf {i}, expect: pdf}}\n  - {{id: n{i}, query: other {i}, expect: none}}\n"))
        .collect();
    std::fs::write(tmp.path().join("evals.yaml"), format!("agent: claude-code\nsources: [skills]\ncases:\n{cases}"))
        .unwrap();
    // The saved description triggers nothing; the improver answers at once; every measured reply
    // takes 100 ms (8 queries × 1 run one at a time: 0.8 s an iteration).
    let server = MockServer::start(Script {
        rules: vec![
            Rule {
                contains: Some("This is attempt".into()),
                replies: vec![Reply::text("<description>Reads PDF files; use for any PDF.</description>")],
                ..Rule::default()
            },
            Rule {
                fault: Some(Fault { delay_ms: Some(100), ..Fault::default() }),
                replies: vec![Reply::text("No skill.")],
                ..Rule::default()
            },
        ],
        ..Script::default()
    });
    let child = Command::new(env!("CARGO_BIN_EXE_skillkit"))
        .args(["eval", "optimize", "evals.yaml", "--skill", "pdf", "--provider", "openai", "--model", "m"])
        .args(["--runs", "1", "--concurrency", "1", "--format", "json", "--write", "--base-url", &server.base_url()])
        .current_dir(tmp.path())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let started = Instant::now();
    // 8 measured, 1 improver call, then 2 of the next iteration.
    while server.requests().len() < 11 {
        assert!(started.elapsed() < Duration::from_secs(60), "the optimization never got to iteration 1");
        std::thread::sleep(Duration::from_millis(10));
    }
    let kill = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(kill.success());
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{stderr}");
    assert!(
        stderr.contains("interrupted: the report covers the completed iterations only; nothing was written"),
        "{stderr}"
    );
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(report["stop"]["reason"], "cancelled");
    assert_eq!(report["iterations"].as_array().unwrap().len(), 1);
    assert_eq!(report["best"]["iteration"], 0);
    assert_eq!(std::fs::read_to_string(skill.join("SKILL.md")).unwrap(), text);
}
