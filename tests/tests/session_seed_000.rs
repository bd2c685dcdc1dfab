//! Seed `000_248ad29e8601cff1.txt` §8 (DeepAgents SkillsMiddleware V2), run through the session
//! simulator (`skillkit::session::Session` with the `deepagents-v2` profile): the 24 unit cases of
//! §8.1, each named after the seed's case, and the 6 integration cases of §8.2.
//!
//! The seed tests middleware internals (`before_agent`, `Command.update`, `skill_resources`); the
//! simulator has no such objects, so each case says how it maps onto what a session shows:
//! `skills_loaded` is [`Session::loaded`] and each turn's `loaded`; `skill_resources` is what the
//! `load_skill` result lists and the `-> Resources:` summary of the next prompt; a `Command` is a
//! result with `is_error == false` that changed the state, a plain string is a result that did not.
//! Result strings are checked exactly against §3.4.1, §3.5.1 and §7.

use skillkit::agents::deepagents::read_file::{read_file_result, FileRead};
use skillkit::agents::deepagents::v2::MAX_SKILL_FILE_SIZE;
use skillkit::prompt::PromptOptions;
use skillkit::session::{Outcome, Policy, Session, Settings, Step};
use skillkit::skill::FileProblem;
use std::path::{Path, PathBuf};

const NOTE: &str = "Note: The skill's instructions from the previous load_skill call are still in the conversation history but will no longer be marked as [Loaded] in the skills list.";

const RESEARCH: &str = "---\nname: web-research\ndescription: Research a topic on the web and cite sources.\nallowed-tools: web_search fetch_url\n---\n\n# Web research\n\nSearch, read, then summarise with citations.\n";
const TABLES: &str =
    "---\nname: csv-tables\ndescription: Clean and reshape CSV tables.\n---\n\n# CSV tables\n\nUse `scripts/clean.py`.\n";
const NOTES: &str = "---\nname: meeting-notes\ndescription: Turn a transcript into meeting notes.\n---\n\nWrite decisions first, then actions.\n";

/// A temporary skills folder; `files` are paths under it.
fn library(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap().join("skills");
    std::fs::create_dir_all(&root).unwrap();
    let bytes: Vec<(&str, &[u8])> = files.iter().map(|(p, t)| (*p, t.as_bytes())).collect();
    e2e::write_tree(&root, &bytes);
    (tmp, root)
}

/// The usual three skills: `web-research` (allowed-tools, no resources), `csv-tables` (two
/// scripts and a reference) and `meeting-notes` (nothing else).
fn three() -> (tempfile::TempDir, PathBuf) {
    library(&[
        ("web-research/SKILL.md", RESEARCH),
        ("csv-tables/SKILL.md", TABLES),
        ("csv-tables/scripts/clean.py", "print('clean')\n"),
        ("csv-tables/scripts/pivot.py", "print('pivot')\n"),
        ("csv-tables/references/dialects.md", "# Dialects\n"),
        ("meeting-notes/SKILL.md", NOTES),
    ])
}

fn v2(root: &Path, max_loaded_skills: usize) -> Session {
    let agent = skillkit::find_agent("deepagents-v2").unwrap();
    Session::new(agent, &[root.to_path_buf()], Settings { max_loaded_skills, ..Settings::default() })
}

fn load(s: &mut Session, name: &str) -> Outcome {
    s.apply(Step::Load { skill: name.into() }).outcome.clone()
}

fn unload(s: &mut Session, name: &str) -> Outcome {
    s.apply(Step::Unload { skill: name.into() }).outcome.clone()
}

/// The path the V2 loader keeps for a skill (`SkillMetadata.path`).
fn md(root: &Path, folder: &str) -> String {
    format!("{}/{folder}/SKILL.md", root.display())
}

/// The `_format_skills_list` entry of a skill in the current prompt: its lines from `- **name**`
/// up to the next entry or the blank line after the list.
fn entry(prompt: &str, name: &str) -> String {
    let start = prompt.find(&format!("- **{name}**")).unwrap_or_else(|| panic!("{name} not listed:\n{prompt}"));
    let rest = &prompt[start..];
    let mut end = rest.len();
    for (i, _) in rest.match_indices('\n') {
        let next = &rest[i + 1..];
        if next.starts_with("- **") || next.starts_with('\n') {
            end = i;
            break;
        }
    }
    rest[..end].to_string()
}

fn guidance(name: &str) -> String {
    format!("  -> Use `load_skill(\"{name}\")` to read full instructions")
}

/// The prompt a fresh render gives for the session's state (what `wrap_model_call` would build).
fn full_render(s: &Session) -> String {
    s.agent.render(&s.library, &s.prompt_options()).unwrap().text
}

/// §8.1 资源发现 `test_discover_resources_standard_dirs`: files directly in `scripts/`,
/// `references/` and `assets/` are discovered (§3.2.1) when `load_skill` runs, typed
/// `script`/`reference`/`asset`, and listed under `**Skill Resources:**` in the result (§3.4.1).
/// Deeper files (`scripts/lib/util.py`) are not: the scan is one level deep.
#[test]
fn test_discover_resources_standard_dirs() {
    let (_t, root) = library(&[
        ("csv-tables/SKILL.md", TABLES),
        ("csv-tables/scripts/clean.py", "x"),
        ("csv-tables/scripts/lib/util.py", "x"),
        ("csv-tables/references/dialects.md", "x"),
        ("csv-tables/assets/sample.csv", "a,b\n"),
    ]);
    let mut s = v2(&root, 10);
    let out = load(&mut s, "csv-tables");
    let dir = format!("{}/csv-tables", root.display());
    assert_eq!(
        out.result,
        format!(
            "{TABLES}\n\n\n---\n**Skill Resources:**\n\n- [asset] `{dir}/assets/sample.csv`\n- [reference] `{dir}/references/dialects.md`\n- [script] `{dir}/scripts/clean.py`"
        )
    );
    assert!(!out.is_error);
    assert!(!out.result.contains("util.py"));
    assert!(s.prompt_text().contains("  -> Resources: 1 asset, 1 reference, 1 script"));
}

/// §8.1 资源发现 `test_discover_resources_empty_skill`: a skill with only `SKILL.md` discovers no
/// resources: the result is the file's text alone (no `**Skill Resources:**` part) and the next
/// prompt marks it `[Loaded]` without a `-> Resources:` line.
#[test]
fn test_discover_resources_empty_skill() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    let out = load(&mut s, "meeting-notes");
    assert_eq!(out.result, NOTES);
    assert!(!out.is_error);
    assert_eq!(
        entry(&s.prompt_text(), "meeting-notes"),
        "- **meeting-notes** [Loaded]: Turn a transcript into meeting notes."
    );
}

/// §8.1 资源发现 `test_discover_resources_backend_error`, §7.1: when `ls_info` fails the scan
/// degrades to "no resources" and `load_skill` still succeeds. The simulator lists real folders,
/// and these tests may run as root, where permissions cannot make a folder unlistable; a resource
/// folder that cannot be listed is produced instead as a dangling `scripts` symlink and an
/// `assets` symlink that loops onto itself. Both yield no resources (the seed's `except
/// Exception: continue`), while the listable `references/` is still discovered.
#[cfg(unix)]
#[test]
fn test_discover_resources_backend_error() {
    let (_t, root) = library(&[("csv-tables/SKILL.md", TABLES), ("csv-tables/references/dialects.md", "x")]);
    let dir = root.join("csv-tables");
    std::os::unix::fs::symlink(dir.join("no-such-folder"), dir.join("scripts")).unwrap();
    std::os::unix::fs::symlink(dir.join("assets"), dir.join("assets")).unwrap();
    let mut s = v2(&root, 10);
    let out = load(&mut s, "csv-tables");
    assert!(!out.is_error);
    assert_eq!(
        out.result,
        format!("{TABLES}\n\n\n---\n**Skill Resources:**\n\n- [reference] `{}/references/dialects.md`", dir.display())
    );
    assert_eq!(s.loaded, ["csv-tables"]);
    assert!(s.prompt_text().contains("  -> Resources: 1 reference\n"));

    // Nothing listable at all: no resources, and still a successful load.
    let (_t2, root2) = library(&[("csv-tables/SKILL.md", TABLES)]);
    std::os::unix::fs::symlink(root2.join("csv-tables/gone"), root2.join("csv-tables/scripts")).unwrap();
    let mut s = v2(&root2, 10);
    let out = load(&mut s, "csv-tables");
    assert_eq!((out.result.as_str(), out.is_error), (TABLES, false));
    assert_eq!(entry(&s.prompt_text(), "csv-tables"), "- **csv-tables** [Loaded]: Clean and reshape CSV tables.");
}

/// §8.1 资源发现 `test_discover_resources_non_standard_dirs_ignored`: folders other than the three
/// of `RESOURCE_TYPE_MAP` (`temp/`, `examples/`) are skipped, with everything in them.
#[test]
fn test_discover_resources_non_standard_dirs_ignored() {
    let (_t, root) = library(&[
        ("csv-tables/SKILL.md", TABLES),
        ("csv-tables/temp/scratch.txt", "x"),
        ("csv-tables/examples/one.csv", "x"),
        ("csv-tables/scripts/clean.py", "x"),
    ]);
    let mut s = v2(&root, 10);
    let out = load(&mut s, "csv-tables");
    assert_eq!(
        out.result,
        format!(
            "{TABLES}\n\n\n---\n**Skill Resources:**\n\n- [script] `{}/csv-tables/scripts/clean.py`",
            root.display()
        )
    );
    assert!(s.prompt_text().contains("  -> Resources: 1 script\n"));
}

/// §8.1 资源发现 `test_discover_resources_root_level_files`: files at the skill root other than
/// `SKILL.md` are resources of type `other` (§3.2.1), counted as `others` in the summary.
#[test]
fn test_discover_resources_root_level_files() {
    let (_t, root) =
        library(&[("csv-tables/SKILL.md", TABLES), ("csv-tables/template.md", "x"), ("csv-tables/LICENSE.txt", "x")]);
    let mut s = v2(&root, 10);
    let out = load(&mut s, "csv-tables");
    let dir = format!("{}/csv-tables", root.display());
    assert_eq!(
        out.result,
        format!(
            "{TABLES}\n\n\n---\n**Skill Resources:**\n\n- [other] `{dir}/LICENSE.txt`\n- [other] `{dir}/template.md`"
        )
    );
    assert!(!out.result.contains(&format!("`{dir}/SKILL.md`")));
    assert!(s.prompt_text().contains("  -> Resources: 2 others\n"));
}

/// §8.1 状态初始化 `test_before_agent_initializes_new_state`: `before_agent` sets `skills_loaded`
/// to `[]` and `skill_resources` to `{}` (§3.3). A new session has nothing loaded, no turns, and
/// its prompt shows every skill unmarked, with the `load_skill` guidance and no resource summary
/// (resources are discovered lazily, §3.2), exactly as a render with nothing loaded.
#[test]
fn test_before_agent_initializes_new_state() {
    let (_t, root) = three();
    let s = v2(&root, 10);
    assert!(s.loaded.is_empty());
    assert!(s.turns.is_empty());
    let p = s.prompt_text();
    assert_eq!(p, s.initial_prompt);
    assert!(!p.contains("[Loaded]"));
    assert!(!p.contains("-> Resources:"));
    for name in ["web-research", "csv-tables", "meeting-notes"] {
        assert!(entry(&p, name).ends_with(&guidance(name)), "{name}");
    }
    let none = s.agent.render(&s.library, &PromptOptions::default()).unwrap().text;
    assert_eq!(p, none);
}

/// §8.1 状态初始化 `test_before_agent_idempotent`: a second `before_agent` returns `None` and does
/// not overwrite the state. In the simulator the state is built once, by `Session::new`: two new
/// sessions on the same library start identical, rendering the prompt again gives the same text,
/// and asking for the prompt (a later model call) never resets what was loaded.
#[test]
fn test_before_agent_idempotent() {
    let (_t, root) = three();
    let a = v2(&root, 10);
    let b = v2(&root, 10);
    assert_eq!(a.initial_prompt, b.initial_prompt);
    assert_eq!(a.prompt_text(), a.prompt_text());
    let mut s = v2(&root, 10);
    load(&mut s, "csv-tables");
    let first = s.prompt_text();
    let second = s.prompt_text();
    assert_eq!(first, second);
    assert_eq!(first, full_render(&s));
    assert_eq!(s.loaded, ["csv-tables"]);
    assert!(first.contains("- **csv-tables** [Loaded]"));
}

/// §8.1 load_skill `test_load_skill_returns_command_with_content`: success is a `Command` with the
/// whole `SKILL.md` and the resource list (§3.4.1 `result_parts` joined with `\n`): a result
/// that is not an error and changes the state.
#[test]
fn test_load_skill_returns_command_with_content() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    let t = s.apply(Step::Load { skill: "csv-tables".into() }).clone();
    let dir = format!("{}/csv-tables", root.display());
    assert_eq!(t.outcome.call, "load_skill(\"csv-tables\")");
    assert_eq!(
        t.outcome.result,
        format!(
            "{TABLES}\n\n\n---\n**Skill Resources:**\n\n- [reference] `{dir}/references/dialects.md`\n- [script] `{dir}/scripts/clean.py`\n- [script] `{dir}/scripts/pivot.py`"
        )
    );
    assert!(!t.outcome.is_error);
    assert!(t.outcome.blocks.is_empty());
    assert_eq!(t.loaded, ["csv-tables"]);
    assert!(!t.prompt_changes.is_empty());
    assert_eq!(t.cost.chars, t.outcome.result.chars().count());
}

/// §8.1 load_skill `test_load_skill_updates_skills_loaded`: `Command.update["skills_loaded"]`
/// gains the name, appended in load order.
#[test]
fn test_load_skill_updates_skills_loaded() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    load(&mut s, "meeting-notes");
    assert_eq!(s.loaded, ["meeting-notes"]);
    let t = s.apply(Step::Load { skill: "web-research".into() }).clone();
    assert_eq!(t.loaded, ["meeting-notes", "web-research"]);
    assert_eq!(s.loaded, ["meeting-notes", "web-research"]);
    assert_eq!(s.prompt_options().loaded, ["meeting-notes", "web-research"]);
}

/// §8.1 load_skill `test_load_skill_updates_skill_resources`: `Command.update["skill_resources"]`
/// holds the lazily discovered resources. The simulator shows them in the next prompt: the loaded
/// skill's entry gains `-> Resources: 1 reference, 2 scripts`, and the turn's prompt changes are
/// exactly that entry going from the guidance line to the marked one.
#[test]
fn test_load_skill_updates_skill_resources() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    let t = s.apply(Step::Load { skill: "csv-tables".into() }).clone();
    assert_eq!(
        entry(&s.prompt_text(), "csv-tables"),
        "- **csv-tables** [Loaded]: Clean and reshape CSV tables.\n  -> Resources: 1 reference, 2 scripts"
    );
    assert_eq!(
        t.prompt_changes,
        [
            "- - **csv-tables**: Clean and reshape CSV tables.".to_string(),
            format!("- {}", guidance("csv-tables")),
            "+ - **csv-tables** [Loaded]: Clean and reshape CSV tables.".into(),
            "+   -> Resources: 1 reference, 2 scripts".into(),
        ]
    );
    assert_eq!(t.usage.prompt, skillkit::session::Size::of(&s.prompt_text()));
}

/// §8.1 load_skill `test_load_skill_not_found_returns_error`: an unknown name gives the §3.4.1
/// string with the available names (in listing order), an error that changes nothing.
#[test]
fn test_load_skill_not_found_returns_error() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    let before = s.prompt_text();
    let t = s.apply(Step::Load { skill: "pdf-forms".into() }).clone();
    assert_eq!(
        t.outcome.result,
        "Error: Skill 'pdf-forms' not found. Available skills: csv-tables, meeting-notes, web-research"
    );
    assert!(t.outcome.is_error);
    assert!(t.loaded.is_empty());
    assert!(t.prompt_changes.is_empty());
    assert_eq!(s.prompt_text(), before);
}

/// §8.1 load_skill `test_load_skill_already_loaded_returns_message`: loading a loaded skill
/// returns the §3.4.1 string (not a `Command`): no state change, the skill stays loaded once. It
/// is not an `Error:` string, so the turn is not an error.
#[test]
fn test_load_skill_already_loaded_returns_message() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    load(&mut s, "web-research");
    let t = s.apply(Step::Load { skill: "web-research".into() }).clone();
    assert_eq!(t.outcome.result, "Skill 'web-research' is already loaded. Its instructions are already active.");
    assert!(!t.outcome.is_error);
    assert_eq!(t.loaded, ["web-research"]);
    assert!(t.prompt_changes.is_empty());
}

/// §8.1 load_skill `test_load_skill_file_read_error`: `download_files` fails, so the result is
/// `Error: Failed to read skill file at {path}: {error}` (§3.4.1). The simulator keeps the text
/// it read when the session started, so the failure is injected into the session's library: the
/// file is gone (`file_not_found`) or became a folder (`is_directory`) after `before_agent`
/// listed it. Nothing is loaded.
#[test]
fn test_load_skill_file_read_error() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    let i = s.entry_named("meeting-notes").unwrap();
    s.library.entries[i].skill.file_problems.push(FileProblem::Missing);
    let out = load(&mut s, "meeting-notes");
    assert_eq!(
        out.result,
        format!("Error: Failed to read skill file at {}: file_not_found", md(&root, "meeting-notes"))
    );
    assert!(out.is_error);
    assert!(s.loaded.is_empty());

    let i = s.entry_named("web-research").unwrap();
    s.library.entries[i].skill.file_problems.push(FileProblem::NotAFile { kind: "directory" });
    let out = load(&mut s, "web-research");
    assert_eq!(out.result, format!("Error: Failed to read skill file at {}: is_directory", md(&root, "web-research")));
    assert!(s.loaded.is_empty());
    assert!(!s.prompt_text().contains("[Loaded]"));
}

/// §8.1 load_skill `test_load_skill_file_size_exceeded`: a `SKILL.md` over `MAX_SKILL_FILE_SIZE`
/// (10 MB) when `load_skill` reads it gives the §3.4.1 error. A file that large on disk is never
/// listed (the V1 reader skips it), so the file grows mid-session: an `edit` step.
#[test]
fn test_load_skill_file_size_exceeded() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    let mut big = NOTES.to_string();
    big.push_str(&"a".repeat(MAX_SKILL_FILE_SIZE as usize));
    s.apply(Step::Edit { skill: "meeting-notes".into(), content: big });
    let out = load(&mut s, "meeting-notes");
    assert_eq!(
        out.result,
        format!("Error: Skill file at {} exceeds maximum size (10485760 bytes)", md(&root, "meeting-notes"))
    );
    assert!(out.is_error);
    assert!(s.loaded.is_empty());
}

/// §8.1 load_skill `test_load_skill_max_loaded_reached`: at `max_loaded_skills` the result is the
/// §3.4.1 error naming the loaded skills, with the `unload_skill` guidance; nothing changes.
#[test]
fn test_load_skill_max_loaded_reached() {
    let (_t, root) = three();
    let mut s = v2(&root, 2);
    load(&mut s, "web-research");
    load(&mut s, "csv-tables");
    let t = s.apply(Step::Load { skill: "meeting-notes".into() }).clone();
    assert_eq!(
        t.outcome.result,
        "Error: Cannot load skill 'meeting-notes'. Maximum number of simultaneously loaded skills reached (2). Currently loaded: web-research, csv-tables. Use `unload_skill(\"skill-name\")` to unload a skill you no longer need, then retry loading."
    );
    assert!(t.outcome.is_error);
    assert_eq!(t.loaded, ["web-research", "csv-tables"]);
    assert!(t.prompt_changes.is_empty());
    // The default limit is 10.
    assert_eq!(Settings::default().max_loaded_skills, 10);
}

/// §8.1 unload_skill `test_unload_skill_success`: a `Command` removing the name, with the §3.5.1
/// message: `n/max` and the free slots.
#[test]
fn test_unload_skill_success() {
    let (_t, root) = three();
    let mut s = v2(&root, 3);
    load(&mut s, "web-research");
    load(&mut s, "csv-tables");
    let out = unload(&mut s, "web-research");
    assert_eq!(
        out.result,
        format!("Skill 'web-research' has been unloaded. Currently loaded: 1/3 (2 slot(s) available). {NOTE}")
    );
    assert!(!out.is_error);
    assert_eq!(out.call, "unload_skill(\"web-research\")");
    assert_eq!(s.loaded, ["csv-tables"]);
    let out = unload(&mut s, "csv-tables");
    assert_eq!(
        out.result,
        format!("Skill 'csv-tables' has been unloaded. Currently loaded: 0/3 (3 slot(s) available). {NOTE}")
    );
    assert!(s.loaded.is_empty());
}

/// §8.1 unload_skill `test_unload_skill_clears_resources`: `skill_resources` loses the entry. The
/// next prompt shows it: the skill's `[Loaded]` mark and `-> Resources:` line are gone and the
/// `load_skill` guidance is back. The earlier `load_skill` result stays in the history (§3.5.1
/// point 4): the turn log still holds it unchanged.
#[test]
fn test_unload_skill_clears_resources() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    let loaded = load(&mut s, "csv-tables");
    let t = s.apply(Step::Unload { skill: "csv-tables".into() }).clone();
    assert_eq!(
        entry(&s.prompt_text(), "csv-tables"),
        format!("- **csv-tables**: Clean and reshape CSV tables.\n{}", guidance("csv-tables"))
    );
    assert!(!s.prompt_text().contains("-> Resources:"));
    assert_eq!(
        t.prompt_changes,
        [
            "- - **csv-tables** [Loaded]: Clean and reshape CSV tables.".to_string(),
            "-   -> Resources: 1 reference, 2 scripts".into(),
            "+ - **csv-tables**: Clean and reshape CSV tables.".into(),
            format!("+ {}", guidance("csv-tables")),
        ]
    );
    assert_eq!(s.turns[0].outcome, loaded);
    assert_eq!(s.prompt_text(), s.initial_prompt);
    // The history still costs what it cost: unloading frees a slot, not context.
    assert_eq!(t.usage.history.chars, loaded.result.chars().count() + t.outcome.result.chars().count());
}

/// §8.1 unload_skill `test_unload_skill_not_loaded_returns_error`: the §3.5.1 error, with
/// `(none)` or the loaded names; no state change.
#[test]
fn test_unload_skill_not_loaded_returns_error() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    let out = unload(&mut s, "csv-tables");
    assert_eq!(out.result, "Error: Skill 'csv-tables' is not currently loaded. Currently loaded skills: (none).");
    assert!(out.is_error);
    load(&mut s, "web-research");
    load(&mut s, "meeting-notes");
    let t = s.apply(Step::Unload { skill: "csv-tables".into() }).clone();
    assert_eq!(
        t.outcome.result,
        "Error: Skill 'csv-tables' is not currently loaded. Currently loaded skills: web-research, meeting-notes."
    );
    assert!(t.outcome.is_error);
    assert_eq!(t.loaded, ["web-research", "meeting-notes"]);
    assert!(t.prompt_changes.is_empty());
    // A name that is no skill at all gets the same answer.
    assert!(unload(&mut s, "nope").result.starts_with("Error: Skill 'nope' is not currently loaded."));
}

/// §8.1 unload_skill `test_unload_skill_then_reload`: after an unload the same skill loads again
/// and its resources are discovered again (the unload dropped them from `skill_resources`): the
/// second result lists them in full and the summary comes back. The simulator's files are the
/// library as read when the session started (plus `edit` steps), so the second discovery finds
/// the same files as the first: a file added on disk mid-session is not seen.
#[test]
fn test_unload_skill_then_reload() {
    let (_t, root) = three();
    let mut s = v2(&root, 1);
    let first = load(&mut s, "csv-tables");
    let t = s.apply(Step::Unload { skill: "csv-tables".into() }).clone();
    assert!(!t.outcome.is_error);
    assert!(!s.prompt_text().contains("-> Resources:"));
    std::fs::write(root.join("csv-tables/scripts/merge.py"), "print('merge')\n").unwrap();
    let second = load(&mut s, "csv-tables");
    assert!(!second.is_error);
    assert_eq!(s.loaded, ["csv-tables"]);
    assert_eq!(second.result, first.result);
    assert!(second.result.contains("**Skill Resources:**"));
    assert!(s.prompt_text().contains("  -> Resources: 1 reference, 2 scripts"));
    assert_eq!(s.turns[0].outcome, first, "the first result stays as it was");
}

/// §8.1 系统提示 `test_format_skills_list_with_loaded_status`: loaded skills are marked
/// `[Loaded]` after the name (§3.6.1); others are not. A skill with `allowed-tools` keeps its
/// `-> Recommended tools` line when loaded.
#[test]
fn test_format_skills_list_with_loaded_status() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    load(&mut s, "web-research");
    let p = s.prompt_text();
    assert_eq!(
        entry(&p, "web-research"),
        "- **web-research** [Loaded]: Research a topic on the web and cite sources.\n  -> Recommended tools: web_search, fetch_url"
    );
    assert_eq!(p.matches("[Loaded]").count(), 1);
    assert!(entry(&p, "meeting-notes").starts_with("- **meeting-notes**: "));
    assert_eq!(p, full_render(&s));
}

/// §8.1 系统提示 `test_format_skills_list_with_resources`: the summary counts resources per type,
/// types in sorted order with a plural `s` (`_format_resource_summary`). The seed's example
/// "2 scripts, 1 reference" is not in sorted order; the seed's code (sorted) gives
/// `1 reference, 2 scripts`, which is what is checked.
#[test]
fn test_format_skills_list_with_resources() {
    let (_t, root) = library(&[
        ("csv-tables/SKILL.md", TABLES),
        ("csv-tables/scripts/a.py", "x"),
        ("csv-tables/scripts/b.py", "x"),
        ("csv-tables/references/r.md", "x"),
        ("csv-tables/assets/x.csv", "x"),
        ("csv-tables/assets/y.csv", "x"),
        ("csv-tables/notes.md", "x"),
    ]);
    let mut s = v2(&root, 10);
    load(&mut s, "csv-tables");
    assert_eq!(
        entry(&s.prompt_text(), "csv-tables"),
        "- **csv-tables** [Loaded]: Clean and reshape CSV tables.\n  -> Resources: 2 assets, 1 other, 1 reference, 2 scripts"
    );
}

/// §8.1 系统提示 `test_format_skills_list_load_skill_guidance`: every skill not loaded ends with
/// the `load_skill("name")` line; a loaded one does not.
#[test]
fn test_format_skills_list_load_skill_guidance() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    load(&mut s, "meeting-notes");
    let p = s.prompt_text();
    assert_eq!(
        entry(&p, "web-research"),
        format!(
            "- **web-research**: Research a topic on the web and cite sources.\n  -> Recommended tools: web_search, fetch_url\n{}",
            guidance("web-research")
        )
    );
    assert!(entry(&p, "csv-tables").ends_with(&guidance("csv-tables")));
    assert!(!p.contains(&guidance("meeting-notes")));
    assert!(p.contains(
        "2. **Load the skill**: Use `load_skill(\"skill-name\")` to read full instructions and discover resources\n"
    ));
    assert!(p.contains("5. **Unload when done**: Use `unload_skill(\"skill-name\")` to free up a loading slot"));
}

/// §8.1 向后兼容 `test_v1_skills_work_without_modification`: a V1 skill (just `name` and
/// `description`, the 7 `SkillMetadata` fields unchanged, §6.1) is listed, loads, and marks,
/// and the same folder still works with the V1-era profile (`deepagents`, 0.7.32) whose
/// invocation is `read_file` of the listed path.
#[test]
fn test_v1_skills_work_without_modification() {
    let (_t, root) = library(&[("meeting-notes/SKILL.md", NOTES)]);
    let mut s = v2(&root, 10);
    assert!(entry(&s.prompt_text(), "meeting-notes").ends_with(&guidance("meeting-notes")));
    let out = load(&mut s, "meeting-notes");
    assert_eq!((out.result.as_str(), out.is_error), (NOTES, false));
    assert!(s.prompt_text().contains("- **meeting-notes** [Loaded]: Turn a transcript into meeting notes."));

    let v1 = skillkit::find_agent("deepagents").unwrap();
    let mut old = Session::new(v1, std::slice::from_ref(&root), Settings::default());
    assert!(old.prompt_text().contains(&format!("Read `{}` for full instructions", md(&root, "meeting-notes"))));
    let t = old.apply(Step::Invoke { skill: "meeting-notes".into(), args: None }).clone();
    assert_eq!(t.outcome.call, format!("read_file(file_path=\"{}\", limit=1000)", md(&root, "meeting-notes")));
    assert!(!t.outcome.is_error);
    assert!(t.outcome.result.contains("Write decisions first, then actions."));
}

/// §8.1 向后兼容 `test_read_file_still_works_for_skills`: the model may still `read_file` a
/// `SKILL.md` (§6.2): no error, no state change (no `[Loaded]` mark), and a later `load_skill`
/// still succeeds (the idempotence boundary of §6.2). The simulator runs no ordinary tools, so
/// the call is judged (never blocked: `read_file` is always allowed, even under RESTRICT with a
/// restricting skill loaded) and the file's answer is what DeepAgents' `read_file` returns for
/// the listed path.
#[test]
fn test_read_file_still_works_for_skills() {
    let (_t, root) = three();
    for policy in [Policy::Recommend, Policy::Restrict] {
        let agent = skillkit::find_agent("deepagents-v2").unwrap();
        let mut s = Session::new(agent, std::slice::from_ref(&root), Settings { policy, ..Settings::default() });
        let path = md(&root, "meeting-notes");
        let t = s.apply(Step::Tool { name: "read_file".into(), args: serde_json::json!({"file_path": path}) }).clone();
        assert!(!t.outcome.is_error, "{policy:?}");
        assert!(t.loaded.is_empty());
        assert!(t.prompt_changes.is_empty());
        assert!(!s.prompt_text().contains("[Loaded]"));
        // With a restricting skill loaded, read_file still passes.
        load(&mut s, "web-research");
        let t = s.apply(Step::Tool { name: "read_file".into(), args: serde_json::json!({"file_path": path}) }).clone();
        assert!(!t.outcome.is_error, "{policy:?}");
        let out = load(&mut s, "meeting-notes");
        assert_eq!((out.result.as_str(), out.is_error), (NOTES, false));
        assert_eq!(s.loaded, ["web-research", "meeting-notes"]);
        let bytes = std::fs::read(&path).unwrap();
        let read = read_file_result(&path, FileRead::File(&bytes), 0, 100);
        assert!(!read.is_error);
        assert!(read.content.contains("Write decisions first, then actions."));
    }
}

/// §8.2 integration 1, with `FilesystemMiddleware`: `load_skill` and `read_file` coexist; after a
/// load, the resource paths the result lists are real files that `read_file` can read. The
/// simulator runs no ordinary tools: the `read_file` call is judged by the policy (allowed even
/// under RESTRICT) and the content is what DeepAgents' `read_file` returns for that path.
#[test]
fn integration_1_filesystem_read_file_after_load_skill() {
    let (_t, root) = three();
    let agent = skillkit::find_agent("deepagents-v2").unwrap();
    let mut s =
        Session::new(agent, std::slice::from_ref(&root), Settings { policy: Policy::Restrict, ..Settings::default() });
    load(&mut s, "web-research");
    let out = load(&mut s, "csv-tables");
    let paths: Vec<&str> =
        out.result.lines().filter_map(|l| l.strip_prefix("- [script] `")).map(|l| l.trim_end_matches('`')).collect();
    assert_eq!(paths.len(), 2, "{}", out.result);
    for p in paths {
        let t = s.apply(Step::Tool { name: "read_file".into(), args: serde_json::json!({"file_path": p}) }).clone();
        assert!(!t.outcome.is_error, "{p}");
        let bytes = std::fs::read(p).unwrap();
        let read = read_file_result(p, FileRead::File(&bytes), 0, 100);
        assert!(!read.is_error, "{}", read.content);
        assert!(read.content.starts_with("@@ lines 1-1 of 1"), "{}", read.content);
    }
    // An ordinary tool outside web-research's allowed-tools is blocked, so read_file's pass is
    // the always-allowed list at work.
    let t = s.apply(Step::Tool { name: "execute".into(), args: serde_json::json!({"command": "ls"}) }).clone();
    assert!(t.outcome.is_error);
}

/// §8.2 integration 2, with `SubAgentMiddleware`: main agent and subagent have their own
/// `skills_loaded` (§6.3, `PrivateStateAttr`). In the simulator: two sessions over one library
/// keep separate state; the "subagent" loads on its own after the main agent did.
#[test]
fn integration_2_subagent_isolation() {
    let (_t, root) = three();
    let mut main = v2(&root, 2);
    let mut sub = v2(&root, 2);
    load(&mut main, "web-research");
    load(&mut main, "csv-tables");
    assert!(sub.loaded.is_empty());
    assert_eq!(sub.prompt_text(), sub.initial_prompt);
    assert!(!sub.prompt_text().contains("[Loaded]"));
    // The main agent is at its limit; the subagent is not.
    let out = load(&mut sub, "meeting-notes");
    assert!(!out.is_error);
    let out = load(&mut sub, "web-research");
    assert!(!out.is_error, "{}", out.result);
    assert_eq!(sub.loaded, ["meeting-notes", "web-research"]);
    assert_eq!(main.loaded, ["web-research", "csv-tables"]);
    assert!(load(&mut main, "meeting-notes").result.starts_with("Error: Cannot load skill 'meeting-notes'."));
    assert_ne!(main.prompt_text(), sub.prompt_text());
}

/// §8.2 integration 3, with `SummarizationMiddleware`: the skills prompt is still right after the
/// history is compacted, because it is rebuilt from the state on every model call. In the
/// simulator the prompt depends only on the state, not the history: a long session and a short
/// one that end with the same skills loaded show the same prompt, equal to a fresh render.
#[test]
fn integration_3_summarization_prompt_survives_compaction() {
    let (_t, root) = three();
    let mut long = v2(&root, 2);
    for step in [
        Step::Load { skill: "meeting-notes".into() },
        Step::Load { skill: "web-research".into() },
        Step::Load { skill: "csv-tables".into() },
        Step::Unload { skill: "meeting-notes".into() },
        Step::Load { skill: "csv-tables".into() },
        Step::Load { skill: "nope".into() },
    ] {
        long.apply(step);
    }
    let mut short = v2(&root, 2);
    load(&mut short, "web-research");
    load(&mut short, "csv-tables");
    assert_eq!(long.loaded, short.loaded);
    assert_eq!(long.prompt_text(), short.prompt_text());
    assert_eq!(long.prompt_text(), full_render(&long));
    assert!(long.turns.last().unwrap().usage.history.chars > short.turns.last().unwrap().usage.history.chars);
    assert_eq!(long.turns.last().unwrap().usage.prompt, short.turns.last().unwrap().usage.prompt);
}

/// §8.2 integration 4: after a successful `load_skill`, the next `wrap_model_call` prompt marks the
/// skill `[Loaded]` with its resource summary, and drops its `load_skill` guidance.
#[test]
fn integration_4_prompt_after_load_skill() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    let before = s.prompt_text();
    load(&mut s, "csv-tables");
    let after = s.prompt_text();
    assert_eq!(
        entry(&after, "csv-tables"),
        "- **csv-tables** [Loaded]: Clean and reshape CSV tables.\n  -> Resources: 1 reference, 2 scripts"
    );
    assert!(!after.contains(&guidance("csv-tables")));
    assert_eq!(entry(&before, "web-research"), entry(&after, "web-research"));
    assert_eq!(after, full_render(&s));
    let t = s.turns.last().unwrap();
    assert_eq!(t.usage.prompt, skillkit::session::Size::of(&after));
    assert!(t.usage.prompt.chars > skillkit::session::Size::of(&before).chars - guidance("csv-tables").len());
}

/// §8.2 integration 5: after a successful `unload_skill`, the next prompt no longer marks the
/// skill `[Loaded]` and shows its `load_skill` guidance again.
#[test]
fn integration_5_prompt_after_unload_skill() {
    let (_t, root) = three();
    let mut s = v2(&root, 10);
    load(&mut s, "web-research");
    load(&mut s, "csv-tables");
    unload(&mut s, "web-research");
    let p = s.prompt_text();
    assert_eq!(
        entry(&p, "web-research"),
        format!(
            "- **web-research**: Research a topic on the web and cite sources.\n  -> Recommended tools: web_search, fetch_url\n{}",
            guidance("web-research")
        )
    );
    assert!(p.contains("- **csv-tables** [Loaded]"));
    assert_eq!(p, full_render(&s));
}

/// §8.2 integration 6: load → unload → reload, each load discovering resources and updating the
/// state; the slots count goes 1/2 → 0/2 and back.
#[test]
fn integration_6_load_unload_reload_lifecycle() {
    let (_t, root) = three();
    let mut s = v2(&root, 2);
    let first = load(&mut s, "csv-tables");
    assert_eq!(s.loaded, ["csv-tables"]);
    let marked = s.prompt_text();
    let out = unload(&mut s, "csv-tables");
    assert_eq!(
        out.result,
        format!("Skill 'csv-tables' has been unloaded. Currently loaded: 0/2 (2 slot(s) available). {NOTE}")
    );
    assert_eq!(s.prompt_text(), s.initial_prompt);
    let again = load(&mut s, "csv-tables");
    assert_eq!(again, first);
    assert_eq!(s.prompt_text(), marked);
    load(&mut s, "meeting-notes");
    let out = unload(&mut s, "csv-tables");
    assert!(out.result.contains("Currently loaded: 1/2 (1 slot(s) available)."));
    let loaded: Vec<Vec<String>> = s.turns.iter().map(|t| t.loaded.clone()).collect();
    assert_eq!(
        loaded,
        [
            vec!["csv-tables".to_string()],
            vec![],
            vec!["csv-tables".into()],
            vec!["csv-tables".into(), "meeting-notes".into()],
            vec!["meeting-notes".into()],
        ]
    );
}
