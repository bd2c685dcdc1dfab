//! The watcher, driven through `flush()`: changes made before a flush are in the batch it emits, so
//! these tests do not sleep. Most use a quiet period and cap of an hour, so that only flushes emit
//! and a busy machine cannot split a batch; the timing tests use short ones and generous bounds.

use skillkit::library::watch::{FsChange, WatchConfig, Watcher};
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::mpsc::{Receiver, RecvTimeoutError, TryRecvError};
use std::time::{Duration, Instant};

const HOUR: Duration = Duration::from_secs(3600);

/// Only flushes emit.
fn manual() -> WatchConfig {
    WatchConfig { quiet: HOUR, max_delay: HOUR }
}

/// A temporary library with a skill folder `pdf`, and its canonical path.
fn library() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    fs::create_dir(root.join("pdf")).unwrap();
    (dir, root)
}

fn watch(roots: &[PathBuf]) -> (Watcher, Receiver<Vec<FsChange>>) {
    Watcher::new(roots, manual()).unwrap()
}

/// Flushes, then returns every batch already sent.
fn flushed(watcher: &Watcher, rx: &Receiver<Vec<FsChange>>) -> Vec<Vec<FsChange>> {
    watcher.flush().unwrap();
    let mut batches = vec![];
    loop {
        match rx.try_recv() {
            Ok(batch) => batches.push(batch),
            Err(TryRecvError::Empty) => return batches,
            Err(TryRecvError::Disconnected) => panic!("the watcher stopped"),
        }
    }
}

fn created(path: &Path) -> FsChange {
    FsChange::Created(path.to_path_buf())
}
fn modified(path: &Path) -> FsChange {
    FsChange::Modified(path.to_path_buf())
}
fn removed(path: &Path) -> FsChange {
    FsChange::Removed(path.to_path_buf())
}

#[test]
fn create_modify_remove_a_skill_file() {
    let (_dir, root) = library();
    let (watcher, rx) = watch(std::slice::from_ref(&root));
    let skill = root.join("pdf/SKILL.md");

    fs::write(&skill, "---\nname: pdf\n---\n").unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![created(&skill)]]);

    fs::write(&skill, "---\nname: pdf\ndescription: PDFs.\n---\n").unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![modified(&skill)]]);

    fs::remove_file(&skill).unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![removed(&skill)]]);
    assert!(watcher.errors().is_empty());
}

#[test]
fn a_new_skill_folder_reports_its_contents_and_is_watched_at_once() {
    let (_dir, root) = library();
    let (watcher, rx) = watch(std::slice::from_ref(&root));
    let folder = root.join("csv");
    let skill = folder.join("SKILL.md");
    let script = folder.join("scripts/run.sh");

    // Written at once, before inotify can watch the new folders.
    fs::create_dir_all(script.parent().unwrap()).unwrap();
    fs::write(&skill, "x").unwrap();
    fs::write(&script, "x").unwrap();
    let batches = flushed(&watcher, &rx);
    assert_eq!(batches.len(), 1);
    let mut batch = batches[0].clone();
    assert_eq!(batch[0], created(&folder));
    batch.sort_by(|a, b| format!("{a:?}").cmp(&format!("{b:?}")));
    assert_eq!(batch, vec![created(&folder), created(&skill), created(script.parent().unwrap()), created(&script)]);

    // Right after the flush, the new folders are watched.
    fs::write(&script, "y").unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![modified(&script)]]);
}

#[test]
fn renaming_a_skill_folder_is_one_rename() {
    let (_dir, root) = library();
    fs::write(root.join("pdf/SKILL.md"), "x").unwrap();
    let (watcher, rx) = watch(std::slice::from_ref(&root));

    fs::rename(root.join("pdf"), root.join("pdf-tools")).unwrap();
    let rename = FsChange::Renamed { from: root.join("pdf"), to: root.join("pdf-tools") };
    assert_eq!(flushed(&watcher, &rx), vec![vec![rename]]);

    // The watch follows the folder.
    fs::write(root.join("pdf-tools/SKILL.md"), "y").unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![modified(&root.join("pdf-tools/SKILL.md"))]]);
}

#[test]
fn moving_out_of_and_into_the_roots_is_removal_and_creation() {
    let (_dir, root) = library();
    let outside = tempfile::tempdir().unwrap();
    let skill = root.join("pdf/SKILL.md");
    fs::write(&skill, "x").unwrap();
    let (watcher, rx) = watch(std::slice::from_ref(&root));

    fs::rename(&skill, outside.path().join("SKILL.md")).unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![removed(&skill)]]);

    fs::rename(outside.path().join("SKILL.md"), &skill).unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![created(&skill)]]);
}

#[test]
fn an_atomic_save_is_reported_on_the_saved_file() {
    let (_dir, root) = library();
    let skill = root.join("pdf/SKILL.md");
    fs::write(&skill, "x").unwrap();
    let (watcher, rx) = watch(std::slice::from_ref(&root));

    let temp = root.join("pdf/.SKILL.md.tmp");
    fs::write(&temp, "y").unwrap();
    fs::rename(&temp, &skill).unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![created(&skill)]]);
}

#[test]
fn git_and_node_modules_are_ignored() {
    let (_dir, root) = library();
    let (watcher, rx) = watch(std::slice::from_ref(&root));

    fs::create_dir_all(root.join(".git/objects")).unwrap();
    fs::write(root.join(".git/HEAD"), "ref: refs/heads/main\n").unwrap();
    fs::write(root.join(".git/objects/ab"), "x").unwrap();
    fs::create_dir_all(root.join("pdf/node_modules/left-pad")).unwrap();
    fs::write(root.join("pdf/node_modules/left-pad/index.js"), "x").unwrap();
    fs::rename(root.join(".git/HEAD"), root.join(".git/ORIG_HEAD")).unwrap();
    assert_eq!(flushed(&watcher, &rx), Vec::<Vec<FsChange>>::new());

    // A rename out of an ignored folder is a creation, and into one a removal.
    fs::rename(root.join(".git/ORIG_HEAD"), root.join("pdf/SKILL.md")).unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![created(&root.join("pdf/SKILL.md"))]]);
    fs::rename(root.join("pdf/SKILL.md"), root.join(".git/HEAD")).unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![removed(&root.join("pdf/SKILL.md"))]]);
}

#[test]
fn changes_to_one_path_are_coalesced() {
    let (_dir, root) = library();
    let skill = root.join("pdf/SKILL.md");
    fs::write(&skill, "x").unwrap();
    let (watcher, rx) = watch(std::slice::from_ref(&root));

    for i in 0..50 {
        fs::write(&skill, format!("version {i}")).unwrap();
    }
    assert_eq!(flushed(&watcher, &rx), vec![vec![modified(&skill)]]);

    let scratch = root.join("pdf/notes.md");
    fs::write(&scratch, "x").unwrap();
    fs::write(&scratch, "y").unwrap();
    fs::remove_file(&scratch).unwrap();
    assert_eq!(flushed(&watcher, &rx), Vec::<Vec<FsChange>>::new());

    // Removed then created again is a modification; order of first appearance is kept.
    let other = root.join("pdf/reference.md");
    fs::write(&other, "x").unwrap();
    fs::remove_file(&skill).unwrap();
    fs::write(&skill, "new").unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![created(&other), modified(&skill)]]);
}

#[test]
fn two_roots_report_in_order_of_the_changes() {
    let (_a, first) = library();
    let (_b, second) = library();
    let (watcher, rx) = watch(&[first.clone(), second.clone()]);

    fs::write(second.join("pdf/SKILL.md"), "x").unwrap();
    fs::write(first.join("pdf/SKILL.md"), "x").unwrap();
    fs::rename(first.join("pdf"), second.join("moved")).unwrap();
    assert_eq!(
        flushed(&watcher, &rx),
        vec![vec![
            created(&second.join("pdf/SKILL.md")),
            created(&first.join("pdf/SKILL.md")),
            FsChange::Renamed { from: first.join("pdf"), to: second.join("moved") },
        ]]
    );
    assert_eq!(watcher.roots(), &[first, second]);
}

#[test]
fn a_symlinked_root_reports_paths_under_its_target() {
    let dir = tempfile::tempdir().unwrap();
    let real = dir.path().canonicalize().unwrap().join("real");
    fs::create_dir_all(real.join("pdf")).unwrap();
    let link = dir.path().join("link");
    std::os::unix::fs::symlink(&real, &link).unwrap();
    let (watcher, rx) = Watcher::new(std::slice::from_ref(&link), manual()).unwrap();
    assert_eq!(watcher.roots(), std::slice::from_ref(&real));

    fs::write(link.join("pdf/SKILL.md"), "x").unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![created(&real.join("pdf/SKILL.md"))]]);
}

#[test]
fn flushing_an_idle_watcher_is_prompt_and_yields_nothing() {
    let (_dir, root) = library();
    let (watcher, rx) = watch(std::slice::from_ref(&root));
    for _ in 0..3 {
        let start = Instant::now();
        assert_eq!(flushed(&watcher, &rx), Vec::<Vec<FsChange>>::new());
        assert!(start.elapsed() < Duration::from_secs(2), "flush took {:?}", start.elapsed());
    }
    // Nor do the sentinels' deletions show up later, and none is left behind.
    assert_eq!(rx.recv_timeout(Duration::from_millis(200)), Err(RecvTimeoutError::Timeout));
    assert_eq!(flushed(&watcher, &rx), Vec::<Vec<FsChange>>::new());
    let names: Vec<_> = fs::read_dir(&root).unwrap().map(|e| e.unwrap().file_name()).collect();
    assert_eq!(names, vec!["pdf"]);
}

#[test]
fn stop_ends_the_channel() {
    let (_dir, root) = library();
    let (watcher, rx) = watch(std::slice::from_ref(&root));
    fs::write(root.join("pdf/SKILL.md"), "x").unwrap();
    watcher.flush().unwrap();
    fs::write(root.join("pdf/SKILL.md"), "y").unwrap();
    watcher.stop();

    // The batch sent before stopping is still there; the pending change is dropped.
    assert_eq!(rx.recv(), Ok(vec![created(&root.join("pdf/SKILL.md"))]));
    assert!(rx.recv().is_err());
    fs::write(root.join("pdf/SKILL.md"), "z").unwrap();
    assert!(rx.recv_timeout(Duration::from_secs(1)).is_err());

    // Dropping stops too.
    let (watcher, rx) = watch(std::slice::from_ref(&root));
    drop(watcher);
    assert!(rx.recv().is_err());
}

#[test]
fn a_deleted_root_is_reported_and_the_others_keep_working() {
    let (_a, first) = library();
    let (_b, second) = library();
    let (watcher, rx) = watch(&[first.clone(), second.clone()]);

    fs::remove_dir_all(&first).unwrap();
    let batch = flushed(&watcher, &rx).concat();
    assert_eq!(batch.last(), Some(&removed(&first)), "{batch:?}");
    let errors = watcher.errors();
    assert!(errors.iter().any(|e| e.contains(&*first.to_string_lossy())), "{errors:?}");
    assert!(watcher.errors().is_empty());

    fs::write(second.join("pdf/SKILL.md"), "x").unwrap();
    assert_eq!(flushed(&watcher, &rx), vec![vec![created(&second.join("pdf/SKILL.md"))]]);
}

#[test]
fn a_quiet_period_emits_without_a_flush() {
    let (_dir, root) = library();
    let (_watcher, rx) = Watcher::new(std::slice::from_ref(&root), WatchConfig::default()).unwrap();
    fs::write(root.join("pdf/SKILL.md"), "x").unwrap();
    let batch = rx.recv_timeout(Duration::from_secs(10)).unwrap();
    assert_eq!(batch, vec![created(&root.join("pdf/SKILL.md"))]);
}

#[test]
fn a_stream_of_changes_is_cut_into_batches_by_the_cap() {
    let (_dir, root) = library();
    let skill = root.join("pdf/SKILL.md");
    fs::write(&skill, "x").unwrap();
    // The quiet period never ends while the writer runs: only the cap emits.
    let max_delay = Duration::from_millis(200);
    let config = WatchConfig { quiet: HOUR, max_delay };
    let (watcher, rx) = Watcher::new(std::slice::from_ref(&root), config).unwrap();

    let start = Instant::now();
    let writer = {
        let skill = skill.clone();
        std::thread::spawn(move || {
            while start.elapsed() < Duration::from_secs(1) {
                fs::write(&skill, format!("{:?}", start.elapsed())).unwrap();
                std::thread::sleep(Duration::from_millis(10));
            }
        })
    };
    // Generous for a busy machine, yet far below what the quiet period alone would give.
    let slack = Duration::from_secs(1);
    let mut arrivals = vec![start];
    while start.elapsed() < Duration::from_secs(1) {
        let batch = rx.recv_timeout(max_delay + slack).expect("a batch within the cap");
        assert_eq!(batch, vec![modified(&skill)]);
        arrivals.push(Instant::now());
    }
    writer.join().unwrap();
    assert!(arrivals.len() >= 3, "only {} batches in 1 s", arrivals.len() - 1);
    for pair in arrivals.windows(2) {
        assert!(pair[1] - pair[0] <= max_delay + slack, "{:?} between batches", pair[1] - pair[0]);
    }
    watcher.flush().unwrap();
}

#[test]
fn bad_roots_are_refused() {
    let (_dir, root) = library();
    assert!(Watcher::new(&[], WatchConfig::default()).is_err());
    let missing = Watcher::new(&[root.join("missing")], WatchConfig::default()).err().unwrap();
    assert_eq!(missing.kind(), std::io::ErrorKind::NotFound);
    fs::write(root.join("file"), "x").unwrap();
    let file = Watcher::new(&[root.join("file")], WatchConfig::default()).err().unwrap();
    assert_eq!(file.kind(), std::io::ErrorKind::InvalidInput);
}

#[test]
fn a_watcher_can_be_shared_between_threads() {
    fn shareable<T: Send + Sync>() {}
    shareable::<Watcher>();
}
