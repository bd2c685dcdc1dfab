//! A cloned library may be hostile: symlinks that lead out of it (`everything -> /`), a skill file
//! that is a link to a secret, FIFOs where files should be, a session script that asks the
//! simulator to read `/etc/passwd` or `/dev/zero`, temporary files a crashed save left behind.
//! Each test is bounded in time (a guard against hangs, not a speed measurement) and checks that
//! nothing outside the library is listed, read or walked.

use skillkit::agents::SPEC;
use skillkit::library::Library;
use skillkit::session::{Session, Settings, Step};
use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

fn skill(root: &Path, folder: &str) -> PathBuf {
    let dir = root.join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(
        dir.join("SKILL.md"),
        format!("---\nname: {folder}\ndescription: Does a thing. Use when asked.\n---\nBody.\n"),
    )
    .unwrap();
    dir
}

/// Runs `f` on another thread; fails if it takes over 30 s (today's walk of `/` through a link
/// took over a minute; the bounded one takes milliseconds).
fn bounded<T: Send + 'static>(f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(Duration::from_secs(30)).expect("hung: more than 30 s")
}

fn find_agent(id: &str) -> &'static skillkit::Agent {
    skillkit::find_agent(id).unwrap()
}

#[test]
fn symlinks_to_the_whole_disk_are_shown_not_walked() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("skills");
    let dir = skill(&src, "alpha");
    symlink("/", dir.join("everything")).unwrap();
    symlink("/usr", src.join("usr")).unwrap();
    let lib = bounded(move || Library::for_agent(&[src], &SPEC));
    assert_eq!(lib.entries.len(), 1);
    let res = lib.entries[0].skill.resources.as_ref().unwrap();
    assert!(res.files.is_empty(), "{:?}", res.files.iter().take(5).collect::<Vec<_>>());
    assert!(res.dirs.is_empty(), "{:?}", res.dirs.iter().take(5).collect::<Vec<_>>());
    assert_eq!(res.problems.len(), 1);
    assert_eq!(res.problems[0].path, "everything");
    assert!(res.problems[0].message.contains("outside the library: not followed"), "{}", res.problems[0].message);
    // The links out are reported by discovery (which also looks inside skill folders for
    // nested skills), not searched.
    assert!(lib.issues.iter().any(|i| i.path.ends_with("skills/usr")), "{:?}", lib.issues);
    assert!(lib.issues.len() <= 2, "{:?}", lib.issues);
    assert!(lib.issues.iter().all(|i| i.message.contains("outside the source: not followed")), "{:?}", lib.issues);
}

#[test]
fn a_symlink_inside_the_library_is_still_followed() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("skills");
    let dir = skill(&src, "alpha");
    let shared = src.join("shared");
    std::fs::create_dir_all(&shared).unwrap();
    std::fs::write(shared.join("guide.md"), "# Guide\n").unwrap();
    symlink(&shared, dir.join("references")).unwrap();
    let lib = bounded(move || Library::for_agent(&[src], &SPEC));
    let res = lib.entries[0].skill.resources.as_ref().unwrap();
    assert_eq!(res.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["references/guide.md"]);
    assert!(res.problems.is_empty(), "{:?}", res.problems);
}

#[test]
fn a_skill_file_linked_to_a_file_outside_is_not_read() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("skills");
    let secret = tmp.path().join("secret.md");
    std::fs::write(&secret, "---\nname: alpha\ndescription: TOP SECRET\n---\n").unwrap();
    std::fs::create_dir_all(src.join("alpha")).unwrap();
    symlink(&secret, src.join("alpha/SKILL.md")).unwrap();
    let lib = bounded(move || Library::for_agent(&[src], &SPEC));
    let skill = &lib.entries[0].skill;
    assert!(!skill.text.contains("TOP SECRET"));
    let problems = format!("{:?}", skill.file_problems);
    assert!(problems.contains("outside the library: not read"), "{problems}");
}

#[test]
fn temporary_files_of_interrupted_saves_are_not_resources() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("skills");
    let dir = skill(&src, "alpha");
    std::fs::write(dir.join(".SKILL.md.0123456789abcdef.skillkit-tmp"), "half").unwrap();
    std::fs::write(dir.join(".SKILL.md.4242-0.tmp"), "half").unwrap();
    std::fs::write(dir.join("notes.md"), "notes").unwrap();
    let lib = bounded(move || Library::for_agent(&[src], &SPEC));
    let res = lib.entries[0].skill.resources.as_ref().unwrap();
    assert_eq!(res.files.iter().map(|f| f.path.as_str()).collect::<Vec<_>>(), ["notes.md"]);
    assert_eq!(res.temporaries, [".SKILL.md.0123456789abcdef.skillkit-tmp", ".SKILL.md.4242-0.tmp"]);
}

/// What the simulator answers to `read_file(path)` under DeepAgents.
fn read_file(src: &Path, path: &str) -> skillkit::session::Turn {
    let (src, path) = (src.to_path_buf(), path.to_string());
    bounded(move || {
        let mut s = Session::new(find_agent("deepagents"), &[src], Settings::default());
        s.apply(Step::Tool { name: "read_file".into(), args: serde_json::json!({ "file_path": path }) }).clone()
    })
}

#[test]
fn the_simulators_read_file_never_reads_outside_the_sources() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("skills");
    let dir = skill(&src, "alpha");
    let secret = tmp.path().join("secret.txt");
    std::fs::write(&secret, "TOP SECRET").unwrap();
    symlink(&secret, dir.join("leak.txt")).unwrap();
    for path in [secret.display().to_string(), dir.join("leak.txt").display().to_string(), "/etc/passwd".into()] {
        let turn = read_file(&src, &path);
        assert!(!turn.outcome.result.contains("TOP SECRET") && !turn.outcome.result.contains("root:"));
        assert!(turn.outcome.is_error, "{path}: {}", turn.outcome.result);
        assert_eq!(turn.outcome.result, format!("Error: File '{path}' not found"));
        let note = turn.outcome.note.clone().unwrap_or_default();
        assert!(note.contains("outside the opened library"), "{path}: {note}");
    }
    // A file of the library is read as the agent reads it.
    std::fs::write(dir.join("notes.txt"), "hello\n").unwrap();
    let turn = read_file(&src, &dir.join("notes.txt").display().to_string());
    assert!(!turn.outcome.is_error, "{}", turn.outcome.result);
    assert!(turn.outcome.result.ends_with("hello"), "{}", turn.outcome.result);
}

#[test]
fn the_simulators_read_file_refuses_devices_and_fifos_without_blocking() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("skills");
    let dir = skill(&src, "alpha");
    let fifo = dir.join("pipe.txt");
    assert!(std::process::Command::new("mkfifo").arg(&fifo).status().unwrap().success());
    symlink("/dev/zero", dir.join("zero.txt")).unwrap();
    for path in [fifo.display().to_string(), dir.join("zero.txt").display().to_string(), "/dev/zero".into()] {
        let turn = read_file(&src, &path);
        assert!(turn.outcome.is_error, "{path}");
        assert!(turn.outcome.note.is_some(), "{path}: no note");
        assert!(turn.outcome.result.len() < 200, "{path}: {} bytes", turn.outcome.result.len());
    }
}
