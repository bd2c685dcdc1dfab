//! The workspace as an editor uses it: unsaved edits, library findings, fixes, and what the
//! editor asks at a place in the text. The protocol's translation is tested in
//! `crates/skillkit-cli/tests/lsp.rs`, a real editor in `lsp_neovim.rs`.

use super::*;
use crate::agents::SPEC;

fn write(path: &Path, text: &str) {
    std::fs::create_dir_all(path.parent().unwrap()).unwrap();
    std::fs::write(path, text).unwrap();
}

fn skill(name: &str, extra: &str) -> String {
    format!("---\nname: {name}\ndescription: Does {name} things. Use for {name}.\n{extra}---\n\nBody.\n")
}

fn codes(d: &[Diagnostic]) -> Vec<&'static str> {
    d.iter().map(|d| d.code).collect()
}

/// The skills of a check of `root`, read as a stream.
fn streamed(root: &Path) -> Vec<crate::check::Checked> {
    struct Collect(Vec<crate::check::Checked>);
    impl crate::check::CheckSink for Collect {
        fn begin(&mut self) -> std::io::Result<()> {
            Ok(())
        }
        fn skill(&mut self, c: crate::check::Checked) -> std::io::Result<()> {
            self.0.push(c);
            Ok(())
        }
    }
    let mut out = Collect(vec![]);
    crate::check::check_each(&[root.to_path_buf()], &SPEC, crate::library::Keep::Findings, &mut out).unwrap();
    out.0
}

fn claude() -> &'static Agent {
    crate::agents::find_agent("claude-code").unwrap()
}

#[test]
fn edits_replace_the_disk_text_until_closed_and_the_check_says_what_changed() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (a, b) = (root.join("a/SKILL.md"), root.join("b/SKILL.md"));
    write(&a, &skill("a", ""));
    write(&b, &skill("b", ""));
    let mut ws = Workspace::open(std::slice::from_ref(&root), &SPEC);
    let first = ws.check();
    assert_eq!(first.len(), 2, "every file is published once: {first:?}");
    assert!(ws.check().is_empty(), "nothing changed");

    // `b` renamed to `a` in the editor: both files clash (SK701), at once for the edited one.
    let quick = ws.edit(&b, &skill("a", "")).unwrap();
    assert!(codes(&quick).contains(&"SK701"), "{quick:?}");
    let changed = ws.check();
    let paths: Vec<&PathBuf> = changed.iter().map(|(p, _)| p).collect();
    assert_eq!(paths, [&a, &b]);
    assert!(changed.iter().all(|(_, d)| codes(d).contains(&"SK701")));
    // The same findings as `skillkit check` on the same texts, which gives the clash once, on
    // the later skill (read as a stream or whole).
    std::fs::write(&b, skill("a", "")).unwrap();
    let whole = crate::check::check_run(std::slice::from_ref(&root), &SPEC);
    let streamed = streamed(&root);
    for run in [&whole.skills, &streamed] {
        assert_eq!(run.len(), 2);
        for c in run {
            let mut editor = codes(ws.diagnostics(&c.skill.path()));
            if c.skill.path() == a {
                editor.retain(|code| *code != "SK701");
            }
            assert_eq!(codes(&c.diagnostics), editor, "{}", c.skill.path().display());
        }
    }
    std::fs::write(&b, skill("b", "")).unwrap();

    // Closing the file brings back what is on disk.
    ws.close(&b);
    let changed = ws.check();
    assert_eq!(changed.len(), 2);
    assert!(changed.iter().all(|(_, d)| !codes(d).contains(&"SK701")));
    assert_eq!(ws.edit(&root.join("a/notes.md"), "x"), None, "not a skill file");
}

#[test]
fn files_changed_on_disk_are_picked_up_and_open_texts_kept() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let a = root.join("a/SKILL.md");
    write(&a, &skill("a", ""));
    let mut ws = Workspace::open(std::slice::from_ref(&root), &SPEC);
    ws.check();
    ws.edit(&a, &skill("a", "license: MIT\n")).unwrap();
    let new = root.join("c/SKILL.md");
    write(&new, &skill("a", ""));
    write(&a, &skill("a", "license: Apache-2.0\n"));
    ws.files_changed(&[FsChange::Created(new.clone()), FsChange::Modified(a.clone())]);
    let changed = ws.check();
    assert!(changed.iter().any(|(p, d)| *p == new && codes(d).contains(&"SK701")), "{changed:?}");
    let i = ws.library().entry_at(&a).unwrap();
    assert!(ws.library().entries[i].skill.text.contains("MIT"), "the unsaved text wins over the disk");
    std::fs::remove_dir_all(root.join("c")).unwrap();
    ws.files_changed(&[FsChange::Removed(new.clone())]);
    let changed = ws.check();
    assert!(changed.iter().any(|(p, d)| *p == new && d.is_empty()), "a file that is gone is cleared: {changed:?}");
}

#[test]
fn a_skill_hidden_by_a_later_source_is_reported_on_it() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let (mine, team) = (base.join("mine"), base.join("team"));
    write(&mine.join("charts/SKILL.md"), &skill("charts", ""));
    write(&team.join("charts/SKILL.md"), &skill("charts", ""));
    let run = crate::check::check_run(&[mine.clone(), team.clone()], &SPEC);
    let hidden = run.skills.iter().find(|c| c.skill.dir.starts_with(&mine)).unwrap();
    let d = hidden.diagnostics.iter().find(|d| d.code == "SK704").expect("SK704 on the hidden skill");
    assert!(d.message.contains("team/charts/SKILL.md") && d.span.slice(&hidden.skill.text) == "charts", "{d:?}");
    let winner = run.skills.iter().find(|c| c.skill.dir.starts_with(&team)).unwrap();
    assert!(!codes(&winner.diagnostics).contains(&"SK704"));
    // One source: a clash is SK701, on the later skill, not SK704.
    let one = crate::check::check_run(std::slice::from_ref(&base), &SPEC);
    let later = |c: &crate::check::Checked| c.skill.dir.starts_with(&team);
    assert!(one.skills.iter().all(|c| codes(&c.diagnostics).contains(&"SK701") == later(c)));
    assert!(one.skills.iter().all(|c| !codes(&c.diagnostics).contains(&"SK704")));
}

#[test]
fn fix_all_applies_safe_fixes_until_none_is_left() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let a = root.join("a/SKILL.md");
    let text = "--- \nname: a\ndescription: Does things. Use when: asked.\nlicence: MIT\n---\n\nBody.\n";
    write(&a, text);
    let mut ws = Workspace::open(std::slice::from_ref(&root), &SPEC);
    let found = ws.edit(&a, text).unwrap();
    assert!(
        found.iter().filter(|d| d.fix.as_ref().is_some_and(|f| f.applicability == Applicability::Safe)).count() >= 2
    );
    let fixed = ws.fix_all(&a, text).unwrap();
    assert_eq!(
        fixed, "---\nname: a\ndescription: \"Does things. Use when: asked.\"\nlicence: MIT\n---\n\nBody.\n",
        "the unsafe rename is left"
    );
    let after = ws.edit(&a, &fixed).unwrap();
    assert!(!after.iter().any(|d| d.fix.as_ref().is_some_and(|f| f.applicability == Applicability::Safe)), "{after:?}");
    assert_eq!(ws.fix_all(&a, &fixed), None, "nothing left to fix");
}

#[test]
fn hover_completion_links_and_lenses() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let a = root.join("pdf/SKILL.md");
    let text = "---\nname: pdf\ndescription: Reads PDF files. Use for PDFs.\nshell: \nbogus: 1\n---\n\nSee [guide](references/guide.md), [gone](references/gone.md) and `scripts/run.py`.\n[ref]: ref\n";
    write(&a, text);
    write(&root.join("pdf/references/guide.md"), "# Guide\n");
    write(&root.join("pdf/scripts/run.py"), "print()\n");
    let mut ws = Workspace::open(std::slice::from_ref(&root), claude());
    ws.edit(&a, text).unwrap();
    let at = |needle: &str| text.find(needle).unwrap();

    let key = ws.hover(&a, at("name") + 1).unwrap();
    assert_eq!(key.span.slice(text), "name");
    assert!(key.markdown.contains("specification") && key.markdown.contains("**Codex**"), "{}", key.markdown);
    let ext = ws.hover(&a, at("shell")).unwrap();
    assert!(ext.markdown.contains("only Claude Code reads it"), "{}", ext.markdown);
    let unknown = ws.hover(&a, at("bogus")).unwrap();
    assert!(unknown.markdown.contains("Not a field"), "{}", unknown.markdown);
    let desc = ws.hover(&a, at("Reads PDF") + 3).unwrap();
    assert_eq!(desc.span.slice(text), "Reads PDF files. Use for PDFs.");
    assert!(desc.markdown.contains("30 characters"), "{}", desc.markdown);
    for who in ["listed by Claude Code", "listed by Codex", "listed by Gemini CLI", "listed by DeepAgents"] {
        assert!(desc.markdown.contains(who), "{who}: {}", desc.markdown);
    }
    assert_eq!(ws.hover(&a, at("See")), None);

    let labels = |c: Vec<Completion>| c.into_iter().map(|c| c.label).collect::<Vec<_>>();
    assert_eq!(labels(ws.complete(&a, at("shell: ") + 7)), ["bash", "powershell"]);
    let keys = ws.complete(&a, at("bogus"));
    assert!(
        keys.iter().any(|c| c.label == "license" && c.insert == "license: ") && !keys.iter().any(|c| c.label == "name")
    );
    let in_link = ws.complete(&a, at("references/guide") + 4);
    assert_eq!(labels(in_link.clone()), ["references", "references/guide.md"]);
    assert_eq!(in_link[0].span.slice(text), "refe");
    assert!(ws.complete(&a, at("See")).is_empty(), "plain text");

    let links: Vec<PathBuf> = ws.links(&a).into_iter().map(|l| l.target).collect();
    assert_eq!(links, [root.join("pdf/references/guide.md"), root.join("pdf/scripts/run.py")]);
    assert_eq!(ws.definition(&a, at("references/guide") + 2), Some(root.join("pdf/references/guide.md")));
    assert_eq!(ws.definition(&a, at("references/gone") + 2), None, "a missing file opens nothing");

    let lenses: Vec<(&str, String)> = ws.lenses(&a).into_iter().map(|l| (l.agent, l.title)).collect();
    let ids: Vec<&str> = lenses.iter().map(|l| l.0).collect();
    assert_eq!(ids, ["claude-code", "codex", "gemini-cli", "deepagents"]);
    let prompt = ws.prompt(claude()).unwrap();
    let entry = prompt.skills.iter().find(|s| s.name == "pdf").unwrap();
    assert_eq!(lenses[0].1, format!("listed by Claude Code · {} tokens", entry.tokens));

    // An edit that makes Gemini CLI skip the skill shows in its lens.
    let no_desc = "---\nname: pdf\n---\n\nBody.\n";
    ws.edit(&a, no_desc).unwrap();
    let gemini = ws.lenses(&a).into_iter().find(|l| l.agent == "gemini-cli").unwrap();
    assert_eq!(gemini.title, "skipped by Gemini CLI");
}

#[test]
fn the_projects_rule_levels_and_ignores_apply_to_quick_and_full_diagnostics() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let (a, b) = (root.join("a/SKILL.md"), root.join("b/SKILL.md"));
    write(&a, &skill("a", "version: 1\n"));
    write(&b, &skill("a", "version: 1\n"));
    let config = "[rules]\nunknown-key = \"error\"\nduplicate-skill-name = \"off\"\n";
    write(&root.join("skillkit.toml"), config);
    let project = crate::config::find(&root).unwrap();
    let mut ws = Workspace::open(std::slice::from_ref(&root), &SPEC).with_project(project);
    ws.check();
    let full = ws.diagnostics(&a).to_vec();
    assert!(
        full.iter().any(|d| d.code == "SK403" && d.severity == crate::lint::diagnostic::Severity::Error),
        "{full:?}"
    );
    assert!(!codes(&full).contains(&"SK701"), "set off: {full:?}");
    let quick = ws.edit(&a, &skill("a", "version: 2\n")).unwrap();
    assert!(
        quick.iter().any(|d| d.code == "SK403" && d.severity == crate::lint::diagnostic::Severity::Error),
        "{quick:?}"
    );
    assert!(!codes(&quick).contains(&"SK701"), "{quick:?}");
}

#[test]
fn a_skill_file_outside_the_roots_is_linted_alone_without_discovery() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().canonicalize().unwrap();
    let (root, outside) = (base.join("root"), base.join("outside"));
    write(&root.join("a/SKILL.md"), &skill("a", ""));
    for i in 0..30 {
        write(&outside.join(format!("s{i}/SKILL.md")), &skill(&format!("s{i}"), ""));
    }
    let file = outside.join("SKILL.md");
    write(&file, &skill("a", ""));
    let mut ws = Workspace::open(std::slice::from_ref(&root), &SPEC);
    assert_eq!(ws.check().len(), 1);
    // Named `a` as the workspace's skill is: alone, it clashes with nothing.
    let found = ws.edit(&file, &skill("a", "")).unwrap();
    assert!(codes(&found).contains(&"SK205"), "the name is not the folder's: {found:?}");
    assert!(!codes(&found).contains(&"SK701"), "{found:?}");
    assert_eq!(ws.library().sources.len(), 1, "no source added");
    assert_eq!(ws.library().entries.len(), 1, "nothing discovered: {:?}", ws.library().entries.len());
    let changed = ws.check();
    let paths: Vec<&PathBuf> = changed.iter().map(|(p, _)| p).collect();
    assert_eq!(paths, [&file], "only the open file is published");
    assert_eq!(codes(&changed[0].1), codes(&found));
    assert_eq!(codes(ws.diagnostics(&file)), codes(&found));
    assert_eq!(codes(&ws.findings(&file)), codes(&found));
    assert!(ws.hover(&file, 5).is_some(), "hover works on it");
    ws.close(&file);
    let changed = ws.check();
    assert_eq!(changed, [(file.clone(), vec![])], "closed: its findings are cleared");
}

#[test]
fn lint_as_lints_a_text_under_another_agent_with_the_folders_files() {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    let a = root.join("a/SKILL.md");
    write(&a, &skill("a", ""));
    write(&root.join("a/references/guide.md"), "# Guide\n");
    let ws = Workspace::open(std::slice::from_ref(&root), &SPEC);
    // An unquoted `: `: DeepAgents drops the skill (an error under it), the spec profile warns
    // or errs by its own rule; a link to a file of the folder is found, one to none is not.
    let text = "---\nname: a\ndescription: Use when: testing\n---\n\nSee [g](references/guide.md) and [m](references/none.md).\n";
    let deep = crate::agents::find_agent("deepagents").unwrap();
    let under_deep = ws.lint_as(&a, text, deep).unwrap();
    assert_eq!(under_deep, crate::verdict::lint_alone(&parsed(&a, text, &ws), deep));
    let missing: Vec<&Diagnostic> = under_deep.iter().filter(|d| d.code == "SK601").collect();
    assert_eq!(missing.len(), 1, "{:?}", codes(&under_deep));
    assert!(missing[0].message.contains("references/none.md"), "{}", missing[0].message);
    assert_ne!(codes(&under_deep), codes(&ws.lint_as(&a, text, &SPEC).unwrap()));
    // The workspace's own view is untouched.
    assert!(ws.findings(&a).iter().all(|d| d.code != "SK601"));
    assert_eq!(ws.lint_as(&root.join("a/README.md"), text, deep), None);
}

/// `text` as the skill file at `path`, with the folder's files the workspace has for it.
fn parsed(path: &Path, text: &str, ws: &Workspace) -> crate::skill::Skill {
    let mut skill = crate::skill::Skill::parse(path.parent().unwrap(), "SKILL.md", text.to_string());
    skill.resources = ws.skill_at(path).and_then(|e| e.skill.resources.clone());
    skill
}
