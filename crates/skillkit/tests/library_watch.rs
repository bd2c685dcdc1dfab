//! The library follows the file system through the watcher: every test changes files, calls
//! `flush()`, applies the batches and checks the events and the library's state. No sleeps.

use skillkit::agents::SPEC;
use skillkit::library::watch::{FsChange, WatchConfig, Watcher};
use skillkit::library::{Library, LibraryEvent};
use std::path::{Path, PathBuf};
use std::sync::mpsc::Receiver;

fn skill(root: &Path, folder: &str, name: &str, desc: &str) {
    let dir = root.join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: {desc}\n---\nBody.\n")).unwrap();
}

struct Fixture {
    _tmp: tempfile::TempDir,
    roots: Vec<PathBuf>,
    lib: Library,
    watcher: Watcher,
    rx: Receiver<Vec<FsChange>>,
}

fn fixture(sources: &[&str], setup: impl FnOnce(&[PathBuf])) -> Fixture {
    let tmp = tempfile::tempdir().unwrap();
    let roots: Vec<PathBuf> = sources.iter().map(|s| tmp.path().join(s)).collect();
    for r in &roots {
        std::fs::create_dir_all(r).unwrap();
    }
    let roots: Vec<PathBuf> = roots.iter().map(|r| std::fs::canonicalize(r).unwrap()).collect();
    setup(&roots);
    let lib = Library::for_agent(&roots, &SPEC);
    let (watcher, rx) = Watcher::new(&roots, WatchConfig::default()).unwrap();
    Fixture { _tmp: tmp, roots, lib, watcher, rx }
}

impl Fixture {
    /// Flush the watcher and apply every batch it delivered.
    fn sync(&mut self) -> Vec<LibraryEvent> {
        self.watcher.flush().unwrap();
        let mut events = vec![];
        while let Ok(batch) = self.rx.try_recv() {
            events.extend(self.lib.apply_changes_for_agent(&batch, &SPEC));
        }
        events
    }
    fn names(&self) -> Vec<String> {
        let mut v: Vec<String> = self.lib.active().map(|e| e.key.clone()).collect();
        v.sort();
        v
    }
}

#[test]
fn an_edited_skill_is_re_read_and_re_linted() {
    let mut f = fixture(&["lib"], |r| skill(&r[0], "a", "a", "Does a. Use when asked."));
    assert!(f.lib.get("a").unwrap().is_valid());
    std::fs::write(f.roots[0].join("a/SKILL.md"), "---\nname: a\ndescription: Use when: broken\n---\nBody.\n").unwrap();
    let events = f.sync();
    assert!(matches!(&events[..], [LibraryEvent::SkillChanged { name, .. }] if name == "a"), "{events:?}");
    assert!(f.lib.get("a").unwrap().diagnostics.iter().any(|d| d.code == "SK301"));
}

#[test]
fn skills_appear_disappear_and_move() {
    let mut f = fixture(&["lib"], |r| {
        skill(&r[0], "a", "a", "A.");
        skill(&r[0], "b", "b", "B.");
    });
    skill(&f.roots[0], "c", "c", "C.");
    let events = f.sync();
    assert!(events.iter().any(|e| matches!(e, LibraryEvent::SkillAdded { name, .. } if name == "c")), "{events:?}");
    assert_eq!(f.names(), ["a", "b", "c"]);

    std::fs::remove_dir_all(f.roots[0].join("b")).unwrap();
    let events = f.sync();
    assert!(events.iter().any(|e| matches!(e, LibraryEvent::SkillRemoved { name, .. } if name == "b")), "{events:?}");
    assert_eq!(f.names(), ["a", "c"]);

    std::fs::rename(f.roots[0].join("c"), f.roots[0].join("c2")).unwrap();
    let events = f.sync();
    assert!(!events.is_empty());
    let c = f.lib.get("c").unwrap();
    assert_eq!(c.skill.dir, f.roots[0].join("c2"));
    assert!(c.diagnostics.iter().any(|d| d.code == "SK205"), "the name no longer matches the moved folder");
    assert_eq!(f.lib.entries.len(), 2);
}

#[test]
fn resource_changes_re_lint_their_skill() {
    let mut f = fixture(&["lib"], |r| skill(&r[0], "a", "a", "A."));
    std::fs::create_dir_all(f.roots[0].join("a/scripts")).unwrap();
    std::fs::write(f.roots[0].join("a/scripts/run.py"), "print(1)\n").unwrap();
    let events = f.sync();
    assert!(
        events.iter().any(|e| matches!(e, LibraryEvent::ResourceChanged { path, .. } if path == "scripts/run.py")),
        "{events:?}"
    );
    let files = &f.lib.get("a").unwrap().skill.resources.as_ref().unwrap().files;
    assert!(files.iter().any(|r| r.path == "scripts/run.py"), "the resource list was refreshed");
}

#[test]
fn shadowing_follows_a_new_skill_in_a_later_source() {
    let mut f = fixture(&["base", "project"], |r| skill(&r[0], "x", "x", "Base."));
    assert_eq!(f.lib.get("x").unwrap().source, 0);
    skill(&f.roots[1], "x", "x", "Project.");
    f.sync();
    assert_eq!(f.lib.get("x").unwrap().source, 1);
    let base = f.lib.entries.iter().find(|e| e.source == 0).unwrap();
    assert!(base.shadowed_by.is_some());
    std::fs::remove_dir_all(f.roots[1].join("x")).unwrap();
    f.sync();
    assert_eq!(f.lib.get("x").unwrap().source, 0, "the base skill is active again");
}

#[test]
fn git_and_node_modules_changes_do_nothing() {
    let mut f = fixture(&["lib"], |r| skill(&r[0], "a", "a", "A."));
    std::fs::create_dir_all(f.roots[0].join(".git/objects")).unwrap();
    std::fs::write(f.roots[0].join(".git/objects/x"), "x").unwrap();
    std::fs::create_dir_all(f.roots[0].join("a/node_modules/pkg")).unwrap();
    std::fs::write(f.roots[0].join("a/node_modules/pkg/index.js"), "x").unwrap();
    let events = f.sync();
    assert!(events.iter().all(|e| !matches!(e, LibraryEvent::SkillChanged { .. })), "{events:?}");
}

/// Every agent remembers its reading of each skill (`Entry::reading`); a changed or renamed file
/// must be read again, so the next render shows the new text, never the remembered one.
#[test]
fn each_agent_reads_a_changed_skill_again() {
    use skillkit::prompt::PromptOptions;
    for agent in skillkit::AGENTS.iter().filter(|a| a.prompt.is_some()) {
        let tmp = tempfile::tempdir().unwrap();
        let root = std::fs::canonicalize(tmp.path()).unwrap();
        skill(&root, "alpha", "alpha", "Old words. Use when asked.");
        skill(&root, "beta", "beta", "Beta words. Use when asked.");
        let mut lib = Library::for_agent(std::slice::from_ref(&root), agent);
        let text = |lib: &Library| agent.render(lib, &PromptOptions::default()).unwrap().text;
        // Cline lists names only: its renders are held by the names.
        let names_only = agent.id == "cline";
        assert!(names_only || text(&lib).contains("Old words"), "{}", agent.id);
        skill(&root, "alpha", "alpha", "New words. Use when asked.");
        lib.apply_changes_for_agent(&[FsChange::Modified(root.join("alpha/SKILL.md"))], agent);
        let t = text(&lib);
        assert!(names_only || (t.contains("New words") && !t.contains("Old words")), "{}: {t}", agent.id);
        std::fs::rename(root.join("beta"), root.join("gamma")).unwrap();
        skill(&root, "gamma", "gamma", "Gamma words. Use when asked.");
        lib.apply_changes_for_agent(&[FsChange::Renamed { from: root.join("beta"), to: root.join("gamma") }], agent);
        let t = text(&lib);
        if names_only {
            assert!(t.contains("gamma") && !t.contains("beta"), "{}: {t}", agent.id);
        } else {
            assert!(t.contains("Gamma words") && !t.contains("Beta words"), "{}: {t}", agent.id);
        }
    }
}
