//! Libraries built in temporary folders: shadowing across sources, duplicates within one,
//! every discovery policy, and bad trees (each bounded in time: a guard against hangs).

use skillkit::agents::SPEC;
use skillkit::library::discover::{Depth, DiscoveryPolicy};
use skillkit::library::{Library, LoadOptions, NameKey};
use std::path::{Path, PathBuf};
use std::sync::mpsc;
use std::time::Duration;

fn skill(root: &Path, folder: &str, name: &str, desc: &str) {
    let dir = root.join(folder);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("SKILL.md"), format!("---\nname: {name}\ndescription: {desc}\n---\nBody.\n")).unwrap();
}

/// Load on another thread; fail if it takes over 20 s.
fn load(sources: Vec<PathBuf>, policy: DiscoveryPolicy, key: NameKey) -> Library {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(Library::load(&sources, LoadOptions::new(policy, key), &SPEC));
    });
    rx.recv_timeout(Duration::from_secs(20)).expect("library load hung")
}

fn active(lib: &Library) -> Vec<(String, usize)> {
    let mut v: Vec<_> = lib.active().map(|e| (e.key.clone(), e.source)).collect();
    v.sort();
    v
}

#[test]
fn later_sources_win_and_shadowed_skills_are_kept() {
    let t = tempfile::tempdir().unwrap();
    let (a, b, c) = (t.path().join("a"), t.path().join("b"), t.path().join("c"));
    skill(&a, "x", "x", "From a.");
    skill(&a, "y", "y", "Only in a.");
    skill(&b, "x", "x", "From b.");
    skill(&c, "x", "x", "From c.");
    skill(&c, "z", "z", "Only in c.");
    let lib = load(vec![a, b, c], DiscoveryPolicy::CHILDREN, NameKey::Frontmatter);
    assert_eq!(active(&lib), [("x".into(), 2), ("y".into(), 0), ("z".into(), 2)]);
    let xs: Vec<_> = lib.entries.iter().enumerate().filter(|(_, e)| e.key == "x").collect();
    assert_eq!(xs.len(), 3);
    assert_eq!(xs[0].1.shadowed_by, Some(xs[1].0), "a/x is hidden by b/x");
    assert_eq!(xs[1].1.shadowed_by, Some(xs[2].0), "b/x is hidden by c/x");
    assert_eq!(lib.get("x").unwrap().skill.frontmatter.str("description"), Some("From c."));
}

#[test]
fn two_skills_with_one_name_in_one_source_are_an_error_on_both() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "one", "dup", "First.");
    skill(t.path(), "two", "dup", "Second.");
    let lib = load(vec![t.path().to_path_buf()], DiscoveryPolicy::CHILDREN, NameKey::Frontmatter);
    for e in &lib.entries {
        assert!(e.diagnostics.iter().any(|d| d.code == "SK701"), "{:?}", e.diagnostics);
        assert!(!e.is_valid());
    }
    assert_eq!(lib.get("dup").unwrap().listed_as.file_name().unwrap(), "two", "the later path wins, as in DeepAgents");
}

#[test]
fn clash_key_can_be_the_folder_name() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    skill(&a, "tool", "alpha", "A.");
    skill(&b, "tool", "beta", "B.");
    let by_name = load(vec![a.clone(), b.clone()], DiscoveryPolicy::CHILDREN, NameKey::Frontmatter);
    assert_eq!(by_name.active().count(), 2);
    let by_folder = load(vec![a, b], DiscoveryPolicy::CHILDREN, NameKey::Folder);
    assert_eq!(active(&by_folder), [("tool".into(), 1)]);
}

#[test]
fn children_policy_sees_direct_folders_only_and_recursion_is_bounded() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "top", "top", "T.");
    skill(t.path(), "group/nested", "nested", "N.");
    skill(t.path(), ".curated/hidden", "hidden", "H.");
    skill(t.path(), "a/b/c/d/e/f/g/deep", "deep", "D.");
    skill(t.path(), "top/assets/inner", "inner", "Inside another skill: not a skill of the library.");
    let root = vec![t.path().to_path_buf()];
    let names = |lib: &Library| {
        let mut v: Vec<String> = lib.entries.iter().map(|e| e.key.clone()).collect();
        v.sort();
        v
    };
    assert_eq!(names(&load(root.clone(), DiscoveryPolicy::CHILDREN, NameKey::Frontmatter)), ["top"]);
    assert_eq!(
        names(&load(root.clone(), DiscoveryPolicy::CLIENT_GUIDE, NameKey::Frontmatter)),
        ["hidden", "nested", "top"]
    );
    let no_hidden = DiscoveryPolicy { include_hidden: false, ..DiscoveryPolicy::CLIENT_GUIDE };
    assert_eq!(names(&load(root.clone(), no_hidden, NameKey::Frontmatter)), ["nested", "top"]);
    let deep =
        DiscoveryPolicy { depth: Depth::Recursive { max_depth: 10, max_dirs: 100 }, ..DiscoveryPolicy::CLIENT_GUIDE };
    assert_eq!(names(&load(root.clone(), deep, NameKey::Frontmatter)), ["deep", "hidden", "nested", "top"]);
    let few =
        DiscoveryPolicy { depth: Depth::Recursive { max_depth: 10, max_dirs: 3 }, ..DiscoveryPolicy::CLIENT_GUIDE };
    let lib = load(root, few, NameKey::Frontmatter);
    assert!(lib.issues.iter().any(|i| i.message.contains("stopped after 3 folders")), "{:?}", lib.issues);
}

#[cfg(unix)]
#[test]
fn symlinks_loops_broken_links_and_missing_sources_are_reported() {
    let t = tempfile::tempdir().unwrap();
    let src = t.path().join("src");
    let elsewhere = t.path().join("elsewhere");
    skill(&elsewhere, "linked", "linked", "L.");
    skill(&src, "real", "real", "R.");
    std::os::unix::fs::symlink(elsewhere.join("linked"), src.join("linked")).unwrap();
    std::os::unix::fs::symlink(src.join("real"), src.join("again")).unwrap();
    std::os::unix::fs::symlink(&src, src.join("loop")).unwrap();
    std::os::unix::fs::symlink(t.path().join("nowhere"), src.join("dangling")).unwrap();
    let lib = load(vec![src.clone(), t.path().join("missing")], DiscoveryPolicy::CLIENT_GUIDE, NameKey::Frontmatter);
    let mut names: Vec<&str> = lib.entries.iter().map(|e| e.key.as_str()).collect();
    names.sort();
    assert_eq!(names, ["linked", "real"], "the symlinked skill is followed once");
    let msgs: Vec<&str> = lib.issues.iter().map(|i| i.message.as_str()).collect();
    assert!(msgs.iter().any(|m| m.contains("reached twice")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("symlink loop")), "{msgs:?}");
    assert!(msgs.iter().any(|m| m.contains("broken symlink")), "{msgs:?}");
    assert!(lib.issues.iter().any(|i| i.source == 1 && i.message == "source folder does not exist"));
}

#[cfg(unix)]
#[test]
fn odd_folder_names_and_a_fifo_skill_file_do_not_hang() {
    use std::os::unix::ffi::OsStrExt;
    let t = tempfile::tempdir().unwrap();
    let odd = t.path().join(std::ffi::OsStr::from_bytes(b"caf\xe9"));
    std::fs::create_dir_all(&odd).unwrap();
    std::fs::write(odd.join("SKILL.md"), "---\nname: cafe\ndescription: d\n---\nB\n").unwrap();
    let fifo_dir = t.path().join("fifo");
    std::fs::create_dir_all(&fifo_dir).unwrap();
    assert!(std::process::Command::new("mkfifo").arg(fifo_dir.join("SKILL.md")).status().unwrap().success());
    let lib = load(vec![t.path().to_path_buf()], DiscoveryPolicy::CHILDREN, NameKey::Frontmatter);
    assert!(lib.issues.iter().any(|i| i.message.contains("not valid UTF-8")), "{:?}", lib.issues);
    let fifo = lib.entries.iter().find(|e| e.skill.dir_name == "fifo").unwrap();
    assert!(fifo.diagnostics.iter().any(|d| d.code == "SK002"));
}

/// Skills nested in a skill's folder (a nested policy) are found from that skill's resource
/// scan, at every level, in path order among the others, as the discovery walk found them: also
/// below a skill whose own file cannot be read, `SKILL.md` before `skill.md` in one folder, and
/// hidden folders only when the policy looks into them.
#[test]
fn nested_skills_come_from_the_resource_scan_at_every_level() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "outer", "outer", "O.");
    skill(t.path(), "outer/assets/inner", "inner", "I.");
    skill(t.path(), "outer/assets/inner/deeper", "deeper", "D.");
    skill(t.path(), "outer/.hidden/secret", "secret", "S.");
    std::fs::write(t.path().join("outer/assets/inner/deeper/skill.md"), "---\nname: lower\n---\n").unwrap();
    skill(t.path(), "zeta", "zeta", "Z.");
    // An outer skill file that is a folder (unreadable as a file): its nested skill still counts.
    std::fs::create_dir_all(t.path().join("broken/SKILL.md")).unwrap();
    skill(t.path(), "broken/inside", "inside", "In.");
    let root = vec![t.path().to_path_buf()];
    let listed = |lib: &Library| -> Vec<String> {
        lib.entries.iter().map(|e| e.listed_as.strip_prefix(t.path()).unwrap().display().to_string()).collect()
    };
    let nested = DiscoveryPolicy { nested: true, ..DiscoveryPolicy::CLIENT_GUIDE };
    let lib = load(root.clone(), nested, NameKey::Frontmatter);
    assert_eq!(
        listed(&lib),
        [
            "broken",
            "broken/inside",
            "outer",
            "outer/.hidden/secret",
            "outer/assets/inner",
            "outer/assets/inner/deeper",
            "zeta"
        ]
    );
    let deeper = lib.entries.iter().find(|e| e.listed_as.ends_with("deeper")).unwrap();
    assert_eq!(deeper.skill.file_name, "SKILL.md");
    let no_hidden = DiscoveryPolicy { include_hidden: false, ..nested };
    assert!(!listed(&load(root.clone(), no_hidden, NameKey::Frontmatter)).iter().any(|p| p.contains("secret")));
    // Without the nested policy none of them is a skill of the library.
    assert_eq!(listed(&load(root, DiscoveryPolicy::CLIENT_GUIDE, NameKey::Frontmatter)), ["broken", "outer", "zeta"]);
}

/// A one-shot check keeps of each skill's text only what its report shows: the frontmatter, and
/// the body up to the last line a finding points at; the findings' positions are those of the
/// whole file.
#[test]
fn a_check_keeps_only_the_text_its_findings_show() {
    let t = tempfile::tempdir().unwrap();
    skill(t.path(), "clean", "clean", "A clean skill.");
    let long_body = "Some line of the body.\n".repeat(200);
    std::fs::write(t.path().join("clean/SKILL.md"), format!("---\nname: clean\ndescription: Clean.\n---\n{long_body}"))
        .unwrap();
    std::fs::create_dir_all(t.path().join("broken")).unwrap();
    let text =
        format!("---\nname: broken\ndescription: Broken.\n---\n{long_body}See [the guide](missing.md).\n{long_body}");
    std::fs::write(t.path().join("broken/SKILL.md"), &text).unwrap();
    let run = skillkit::check::check_run(&[t.path().to_path_buf()], &SPEC);
    let clean = run.skills.iter().find(|c| c.skill.dir_name == "clean").unwrap();
    assert_eq!(clean.skill.text, "---\nname: clean\ndescription: Clean.\n---\n");
    let broken = run.skills.iter().find(|c| c.skill.dir_name == "broken").unwrap();
    let d =
        broken.diagnostics.iter().find(|d| d.span.slice(&text).contains("missing.md")).expect("a finding on the link");
    assert!(broken.skill.text.ends_with("See [the guide](missing.md).\n"), "kept through the finding's line");
    assert_eq!(d.start.line, 205);
    assert_eq!(broken.skill.lines.position(&broken.skill.text, d.span.start), d.start);
}

#[test]
fn a_check_for_positions_only_keeps_the_frontmatter_and_the_same_findings() {
    let t = tempfile::tempdir().unwrap();
    let long_body = "Some line of the body.\n".repeat(200);
    for (dir, name) in [("broken", "broken"), ("twin-a", "twin"), ("twin-b", "twin")] {
        std::fs::create_dir_all(t.path().join(dir)).unwrap();
        let text = format!("---\nname: {name}\ndescription: Broken.\n---\n{long_body}See [the guide](missing.md).\n");
        std::fs::write(t.path().join(dir).join("SKILL.md"), text).unwrap();
    }
    let sources = [t.path().to_path_buf()];
    let findings = skillkit::check::check_run(&sources, &SPEC);
    let positions = skillkit::check::check_run_keeping(&sources, &SPEC, skillkit::library::Keep::Frontmatter);
    assert_eq!(positions.skills.len(), 3);
    for (a, b) in findings.skills.iter().zip(&positions.skills) {
        assert_eq!(a.skill.dir_name, b.skill.dir_name);
        // The same findings, at the same places (the duplicate name's too, found after trimming).
        assert_eq!(a.diagnostics, b.diagnostics);
        assert!(b.diagnostics.iter().any(|d| d.start.line == 205), "the missing link is still reported");
        assert!(b.skill.text.starts_with("---\nname: ") && b.skill.text.ends_with("description: Broken.\n---\n"));
    }
    assert!(positions.skills[1..].iter().flat_map(|c| &c.diagnostics).any(|d| d.code == "SK701"), "a duplicate name");
}

/// A nested skill also reached through a symlink is read once: an agent's library keeps it where
/// the search reached it (the link), and so does a check when the link is at the top of the
/// source (a symlink install: issue #39, 6a), though the nested copy comes first in path order.
#[cfg(unix)]
#[test]
fn a_nested_skill_reached_through_a_link_is_kept_once() {
    let t = tempfile::tempdir().unwrap();
    let root = t.path().canonicalize().unwrap();
    skill(&root, "a", "a", "Outer.");
    skill(&root, "a/inner", "inner", "Inner.");
    std::os::unix::fs::symlink(root.join("a/inner"), root.join("z")).unwrap();
    let listed = |lib: &Library| -> Vec<String> {
        lib.entries.iter().map(|e| e.listed_as.strip_prefix(&root).unwrap().display().to_string()).collect()
    };
    let nests = DiscoveryPolicy { nested: true, ..DiscoveryPolicy::CLIENT_GUIDE };
    assert_eq!(listed(&load(vec![root.clone()], nests, NameKey::Frontmatter)), ["a", "z"]);
    assert_eq!(listed(&load(vec![root.clone()], DiscoveryPolicy::CHECK, NameKey::Frontmatter)), ["a", "z"]);
    // A link deeper down is no install: path order decides.
    std::fs::remove_file(root.join("z")).unwrap();
    std::fs::create_dir(root.join("links")).unwrap();
    std::os::unix::fs::symlink(root.join("a/inner"), root.join("links/z")).unwrap();
    assert_eq!(listed(&load(vec![root.clone()], DiscoveryPolicy::CHECK, NameKey::Frontmatter)), ["a", "a/inner"]);
}

/// An agent's verdict lays the library out as installed while it renders, and leaves it as it
/// was: sources, issues, and which entry hides which.
#[test]
fn an_agents_verdict_leaves_the_library_as_it_was() {
    let t = tempfile::tempdir().unwrap();
    let (a, b) = (t.path().join("a"), t.path().join("b"));
    skill(&a, "x", "x", "From a.");
    skill(&a, "nest/y", "y", "Deeper in a.");
    skill(&b, "x", "x", "From b.");
    let sources = vec![a, b, t.path().join("gone")];
    let agent = skillkit::find_agent("claude-code").unwrap();
    let plain = Library::load(&sources, LoadOptions::new(agent.discovery, agent.key), agent);
    let judged = Library::for_agent(&sources, agent);
    assert_eq!(judged.sources, plain.sources);
    assert_eq!(judged.issues, plain.issues);
    let layout = |lib: &Library| -> Vec<_> {
        lib.entries.iter().map(|e| (e.source, e.shadowed_by, e.listed_as.clone())).collect()
    };
    assert_eq!(layout(&judged), layout(&plain));
    assert!(judged.entries.iter().any(|e| e.shadowed_by.is_some()), "a/x is hidden by b/x");
    assert!(!judged.issues.is_empty(), "the missing source is reported");
}
