//! A cloned library's own files — session scripts, eval suites, `skillkit.toml`, baselines — may
//! name anything; `skillkit` must read nothing, write nothing and print nothing outside the
//! library because of them (issue #33, the threat model in `docs/security.md`, "Opening a library you
//! did not write"). Each case runs the real CLI in-process on a tree built in a temporary folder;
//! cases that could hang run on a thread with a generous bound (a hang guard, not a timing).

use e2e::{skillkit, write_tree, Output};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

/// A library cloned into `<tmp>/lib` (a repository: it has `.git`), one valid skill in
/// `skills/pdf`, and a secret file beside the clone.
fn library() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = std::fs::canonicalize(tmp.path()).unwrap();
    let lib = root.join("lib");
    write_tree(
        &lib,
        &[
            ("skills/pdf/SKILL.md", b"---\nname: pdf\ndescription: Reads PDF files. Use for PDFs.\n---\nBody.\n"),
            (".git/HEAD", b"ref: refs/heads/main\n"),
        ],
    );
    write_tree(&root, &[("secret.txt", b"TOP-SECRET-CONTENT\n")]);
    (tmp, lib)
}

/// The current folder is the process's: the runs of this file take turns.
static CWD: std::sync::Mutex<()> = std::sync::Mutex::new(());

/// `skillkit` with `args` in the folder `cwd`, on a thread, failing the test after 30 s (a FIFO
/// that is opened blocking hangs forever; `/dev/zero` read whole runs out of memory).
fn bounded(cwd: &Path, args: &[&str]) -> Output {
    let _turn = CWD.lock().unwrap_or_else(|e| e.into_inner());
    std::env::set_current_dir(cwd).unwrap();
    let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let refs: Vec<&str> = args.iter().map(String::as_str).collect();
        let _ = tx.send(skillkit(&refs));
    });
    rx.recv_timeout(Duration::from_secs(30)).expect("skillkit hung on a library's own file")
}

fn fifo(path: &Path) {
    let c = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).unwrap();
    // SAFETY: a valid NUL-terminated path; mkfifo has no other precondition.
    assert_eq!(unsafe { libc_mkfifo(c.as_ptr(), 0o600) }, 0, "mkfifo {}", path.display());
}

extern "C" {
    #[link_name = "mkfifo"]
    fn libc_mkfifo(path: *const std::ffi::c_char, mode: u32) -> i32;
}

fn script(lib: &Path, name: &str, text: &str) -> PathBuf {
    let p = lib.join("sessions").join(name);
    write_tree(&lib.join("sessions"), &[(name, text.as_bytes())]);
    p
}

#[test]
fn a_session_script_cannot_name_sources_outside_its_project() {
    let (_t, lib) = library();
    for (i, bad) in ["/proc/self", "/etc", "../../..", "../..", "[skills, ../../]"].iter().enumerate() {
        let list = if bad.starts_with('[') { bad.to_string() } else { format!("[{bad}]") };
        let p =
            script(&lib, &format!("s{i}.yaml"), &format!("agent: deepagents\nsources: {list}\nsteps:\n  - user: hi\n"));
        let out = bounded(&lib, &["simulate", p.to_str().unwrap()]);
        assert_eq!(out.code, 2, "{bad}: {}", out.stderr);
        assert!(out.stdout.is_empty(), "{bad}: nothing is simulated: {}", out.stdout);
        assert!(
            out.stderr.contains(":2:")
                && out.stderr.contains("`sources`")
                && out.stderr.contains("leads outside the project"),
            "{bad}: {}",
            out.stderr
        );
    }
    // Inside the project (the repository's root), `..` is fine.
    let ok = script(&lib, "ok.yaml", "agent: deepagents\nsources: [../skills]\nsteps:\n  - user: hi\n");
    let out = bounded(&lib, &["simulate", ok.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
}

#[test]
fn a_session_script_cannot_read_the_environment() {
    // The attack as reported: the script makes `/proc/self` a source, so the simulator's
    // `read_file` of `/proc/self/environ` (a regular file of size 0) printed the environment.
    let (_t, lib) = library();
    let p = script(
        &lib,
        "env.yaml",
        "agent: deepagents\nsources: [/proc/self]\nsteps:\n  - tool: read_file\n    args: {file_path: /proc/self/environ}\n",
    );
    // `/proc/self/environ` holds the environment the process started with: its PATH is there.
    let canary = format!("PATH={}", std::env::var("PATH").unwrap());
    let out = bounded(&lib, &["simulate", p.to_str().unwrap()]);
    assert!(!out.stdout.contains(&canary) && !out.stderr.contains(&canary), "{}", out.stdout);
    assert_eq!(out.code, 2, "{}", out.stderr);
}

#[test]
fn a_configured_baseline_cannot_write_outside_the_project() {
    let (_t, lib) = library();
    let victim = lib.parent().unwrap().join("victim");
    std::fs::write(&victim, "precious\n").unwrap();
    for baseline in [victim.to_string_lossy().into_owned(), "../victim".into(), "sub/../../victim".into()] {
        std::fs::write(lib.join("skillkit.toml"), format!("sources = [\"skills\"]\nbaseline = \"{baseline}\"\n"))
            .unwrap();
        let out = bounded(&lib, &["check", "--write-baseline"]);
        assert_eq!(out.code, 2, "{baseline}: {}", out.stderr);
        assert!(
            out.stderr.contains("`baseline`") && out.stderr.contains("leads outside the project"),
            "{}",
            out.stderr
        );
    }
    // A baseline the library ships as a symlink out.
    std::fs::write(lib.join("skillkit.toml"), "sources = [\"skills\"]\nbaseline = \"accepted.json\"\n").unwrap();
    std::os::unix::fs::symlink(&victim, lib.join("accepted.json")).unwrap();
    let out = bounded(&lib, &["check", "--write-baseline"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    // And the default name, with no configuration.
    std::fs::remove_file(lib.join("skillkit.toml")).unwrap();
    std::os::unix::fs::symlink(&victim, lib.join("skillkit-baseline.json")).unwrap();
    let out = bounded(&lib, &["check", "skills", "--write-baseline"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious\n");
    // Inside, it is written.
    std::fs::remove_file(lib.join("skillkit-baseline.json")).unwrap();
    let out = bounded(&lib, &["check", "skills", "--write-baseline"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    assert!(std::fs::read_to_string(lib.join("skillkit-baseline.json")).unwrap().contains("\"findings\""));
}

#[test]
fn configured_sources_cannot_walk_outside_the_project() {
    let (_t, lib) = library();
    for sources in ["[\"/\"]", "[\"..\"]", "[\"skills\", \"/etc\"]"] {
        std::fs::write(lib.join("skillkit.toml"), format!("sources = {sources}\n")).unwrap();
        for cmd in [&["check"][..], &["tree"], &["prompt", "--agent", "claude-code"]] {
            let out = bounded(&lib, cmd);
            assert_eq!(out.code, 2, "{cmd:?} {sources}: {}", out.stderr);
            assert!(
                out.stderr.contains("`sources[") && out.stderr.contains("leads outside the project"),
                "{}",
                out.stderr
            );
            assert!(out.stdout.is_empty(), "{}", out.stdout);
        }
    }
}

#[test]
fn a_suite_cannot_name_sources_outside_its_project() {
    let (_t, lib) = library();
    write_tree(
        &lib,
        &[(
            "evals/triggers.yaml",
            b"agent: claude-code\nsources: [/]\ncases:\n  - query: read a pdf\n    expect: pdf\n",
        )],
    );
    let out = bounded(&lib, &["eval", "evals/triggers.yaml", "--replay", "records"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(
        out.stderr.contains("evals/triggers.yaml:2:") && out.stderr.contains("leads outside the project"),
        "{}",
        out.stderr
    );
}

#[test]
fn special_files_are_refused_not_read() {
    let (_t, lib) = library();
    // The default suite path, a session script and a configuration as FIFOs and as /dev/zero.
    std::fs::create_dir_all(lib.join("evals")).unwrap();
    fifo(&lib.join("evals/triggers.yaml"));
    let out = bounded(&lib, &["eval", "evals/triggers.yaml", "--replay", "records"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("FIFO"), "{}", out.stderr);
    std::fs::remove_file(lib.join("evals/triggers.yaml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", lib.join("evals/triggers.yaml")).unwrap();
    let out = bounded(&lib, &["eval", "evals/triggers.yaml", "--replay", "records"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("device"), "{}", out.stderr);

    std::fs::create_dir_all(lib.join("sessions")).unwrap();
    fifo(&lib.join("sessions/s.yaml"));
    let out = bounded(&lib, &["simulate", "sessions/s.yaml"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("FIFO"), "{}", out.stderr);
    std::os::unix::fs::symlink("/proc/self/environ", lib.join("sessions/env.yaml")).unwrap();
    let out = bounded(&lib, &["simulate", "sessions/env.yaml"]);
    assert_eq!(out.code, 2);
    assert!(out.stderr.contains("procfs"), "{}", out.stderr);

    // A configuration or a baseline that is not a regular file is said, not ignored.
    fifo(&lib.join("skillkit.toml"));
    let out = bounded(&lib, &["check", "skills"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("skillkit.toml") && out.stderr.contains("FIFO"), "{}", out.stderr);
    std::fs::remove_file(lib.join("skillkit.toml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", lib.join("skillkit.toml")).unwrap();
    let out = bounded(&lib, &["check", "skills"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    std::fs::remove_file(lib.join("skillkit.toml")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", lib.join("skillkit-baseline.json")).unwrap();
    let out = bounded(&lib, &["check", "skills"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("skillkit-baseline.json") && out.stderr.contains("device"), "{}", out.stderr);
}

#[test]
fn aliases_in_scripts_and_suites_are_mistakes_not_nulls() {
    let (_t, lib) = library();
    let p = script(
        &lib,
        "alias.yaml",
        "agent: claude-code\nsources: [../skills]\nsteps:\n  - tool: Bash\n    args: &a {command: ls}\n  - tool: Bash\n    args: *a\n",
    );
    let out = bounded(&lib, &["simulate", p.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains(":7:") && out.stderr.contains("alias"), "{}", out.stderr);
    write_tree(
        &lib,
        &[("evals/a.yaml", b"cases:\n  - query: &q read a pdf\n    expect: pdf\n  - query: *q\n    expect: none\n")],
    );
    let out = bounded(&lib, &["eval", "evals/a.yaml", "--agent", "claude-code", "--replay", "records"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("evals/a.yaml:4:") && out.stderr.contains("alias"), "{}", out.stderr);
}

#[test]
fn a_script_over_the_node_limit_is_not_called_frontmatter() {
    let (_t, lib) = library();
    let mut text = String::from("agent: claude-code\nsources: [../skills]\nallow: [");
    for i in 0..100_001 {
        text.push_str(&format!("a{i},"));
    }
    text.push_str("]\nsteps: []\n");
    let p = script(&lib, "big.yaml", &text);
    let out = bounded(&lib, &["simulate", p.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("YAML nodes") && !out.stderr.contains("frontmatter"), "{}", out.stderr);
}

#[test]
fn a_live_model_cannot_read_the_environment_for_the_provider() {
    // Live: the model calls `read_file /proc/self/environ`; before issue #33 the tool result (the
    // whole environment) went back to the provider in the next request.
    use mock_provider::{MockServer, Reply, Rule, Script};
    let (_t, lib) = library();
    // `/proc/self/environ` holds the environment the process started with: its PATH is there.
    let canary = format!("PATH={}", std::env::var("PATH").unwrap());
    let server = MockServer::start(Script {
        rules: vec![Rule {
            contains: Some("read the notes".into()),
            replies: vec![
                Reply::tool("read_file", serde_json::json!({"file_path": "/proc/self/environ"})),
                Reply::text("Done."),
            ],
            ..Rule::default()
        }],
        ..Script::default()
    });
    for sources in ["[/proc/self]", "[../skills]"] {
        let p = script(
            &lib,
            "live.yaml",
            &format!("agent: deepagents\nsources: {sources}\nsteps:\n  - user: Please read the notes\n"),
        );
        let base = server.base_url();
        let out = bounded(
            &lib,
            &["simulate", p.to_str().unwrap(), "--provider", "openai", "--base-url", &base, "--model", "m"],
        );
        assert!(!out.stdout.contains(&canary), "{sources}: {}", out.stdout);
        for r in server.requests() {
            assert!(!r.body.to_string().contains(&canary), "{sources}: the environment reached the provider");
        }
    }
    assert!(!server.requests().is_empty(), "the library inside ran live");
}
