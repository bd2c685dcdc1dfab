//! The use cases over the bundled library and small ones on disk, through an in-memory host.

use crate::events::{LibraryChanged, LibraryEvent};
use crate::host::{MemoryHost, Notify};
use crate::prelude::*;
use crate::state::Startup;
use crate::studio::*;
use skillkit::find_agent;
use std::sync::Arc;

fn bundled() -> String {
    path_string(&Path::new(env!("CARGO_MANIFEST_DIR")).join("../../skills").canonicalize().unwrap())
}

fn opened() -> (Studio, LibraryView) {
    let state = Studio::new(
        Startup { sources: vec![bundled()], agent: "spec".into(), examples: None },
        Arc::new(MemoryHost::default()),
    );
    let lib = state.open_library(OpenLibrary { sources: vec![bundled()], agent: "spec".into() }).unwrap();
    (state, lib)
}

#[test]
fn open_library_lists_the_bundled_skills_without_errors() {
    let (_, lib) = opened();
    assert_eq!(lib.sources.len(), 1);
    assert!(lib.skills.len() >= 8);
    assert!(lib.skills.iter().all(|s| s.errors == 0 && s.hidden_by.is_none()));
}

#[test]
fn lint_text_reports_a_typed_error_on_its_exact_span() {
    let (state, lib) = opened();
    let skill = &lib.skills[0];
    let text = state.read_file(ReadFile { path: skill.path.clone() }).unwrap().text;
    let broken = format!("x{text}");
    let linted = state.lint_text(LintText { path: skill.path.clone(), text: broken, agent: "spec".into() }).unwrap();
    let d = linted.diagnostics.iter().find(|d| d.code == "SK101").expect("SK101");
    assert_eq!((d.start.line, d.start.column), (1, 1));
    let clean = state.lint_text(LintText { path: skill.path.clone(), text, agent: "spec".into() }).unwrap();
    assert!(clean.diagnostics.iter().all(|d| d.severity != Severity::Error));
}

#[test]
fn errors_carry_stable_codes() {
    let (state, lib) = opened();
    let code = |r: Result<_, AppError>| r.map(|_: ()| ()).unwrap_err().code;
    assert_eq!(
        code(state.open_library(OpenLibrary { sources: vec![], agent: "nope".into() }).map(|_| ())),
        ErrorCode::UnknownAgent
    );
    let render = RenderPrompt {
        sources: vec![bundled()],
        agent: "spec".into(),
        context_window: None,
        char_budget: None,
        loaded: vec![],
        agent_settings: vec![],
    };
    assert_eq!(code(state.render_prompt(render).map(|_| ())), ErrorCode::NoPrompt);
    let outside = SaveFile { path: "/tmp/skill-studio-outside/SKILL.md".into(), text: String::new(), base: None };
    assert_eq!(code(state.save_file(outside).map(|_| ())), ErrorCode::OutsideLibrary);
    let not_skill =
        LintText { path: format!("{}/README.md", lib.skills[0].dir), text: String::new(), agent: "spec".into() };
    assert_eq!(code(state.lint_text(not_skill).map(|_| ())), ErrorCode::NotASkillFile);
    let script = RunSessionScript { path: "s.yaml".into(), text: "agent: [".into() };
    let err = state.run_session_script(script).unwrap_err();
    assert_eq!(err.code, ErrorCode::InvalidScript);
    assert!(!err.details.is_empty());
}

/// The Matrix pane's command: the engine's matrix, the open file's unsaved text standing for
/// the file on disk (a broken frontmatter typed in is skipped at once, nothing saved).
#[test]
fn the_matrix_follows_the_unsaved_text() {
    let (state, lib) = opened();
    let args = |edit: Option<MatrixEdit>| RenderMatrix {
        sources: vec![bundled()],
        agents: vec!["deepagents".into(), "claude-code".into()],
        context_window: None,
        char_budget: None,
        edit,
    };
    let m = state.render_matrix(args(None)).unwrap();
    assert_eq!(m.columns.iter().map(|c| c.agent.as_str()).collect::<Vec<_>>(), ["deepagents", "claude-code"]);
    assert_eq!(m.rows.len(), lib.skills.len());
    let skill = &lib.skills[0];
    let row = m.rows.iter().position(|r| r.name == skill.name).unwrap();
    assert!(m.rows[row].cells.iter().all(|c| c.status.listed()), "{:?}", m.rows[row]);
    let disk = std::fs::read_to_string(&skill.path).unwrap();
    let broken = MatrixEdit { path: skill.path.clone(), text: "---\nname: [unclosed\n---\n".into() };
    let m = state.render_matrix(args(Some(broken))).unwrap();
    let cell = &m.rows.iter().find(|r| r.path.ends_with(&format!("{}/SKILL.md", skill.name))).unwrap().cells[0];
    assert_eq!(cell.status, skillkit::matrix::Status::Skipped, "{cell:?}");
    assert_eq!(std::fs::read_to_string(&skill.path).unwrap(), disk);
    let spec = RenderMatrix { agents: vec!["spec".into()], ..args(None) };
    assert_eq!(state.render_matrix(spec).unwrap_err().code, ErrorCode::NoPrompt);
}

/// The library's `skillkit.toml` `[agents.claude-code]` reaches the Prompt and the Matrix
/// panes as it reaches `skillkit prompt` and `skillkit matrix`; the pane's own assignments
/// win over it.
#[test]
fn the_projects_agent_settings_reach_the_prompt_and_the_matrix() {
    let tmp = tempfile::tempdir().unwrap();
    let root = skillkit::scope::resolve_lenient(tmp.path());
    let skills = root.join("skills");
    std::fs::create_dir_all(skills.join("pdf-tools")).unwrap();
    let description = "Reads, fills and merges PDF forms and documents. Use when the user mentions a PDF.";
    std::fs::write(
        skills.join("pdf-tools/SKILL.md"),
        format!("---\nname: pdf-tools\ndescription: {description}\n---\nBody.\n"),
    )
    .unwrap();
    std::fs::write(root.join("skillkit.toml"), "[agents.claude-code]\nskillListingMaxDescChars = 20\n").unwrap();
    let src = skills.to_string_lossy().into_owned();
    let state = Studio::new(
        Startup { sources: vec![src.clone()], agent: "claude-code".into(), examples: None },
        Arc::new(MemoryHost::default()),
    );
    state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "claude-code".into() }).unwrap();
    let render = |agent_settings: Vec<String>| RenderPrompt {
        sources: vec![src.clone()],
        agent: "claude-code".into(),
        context_window: None,
        char_budget: None,
        loaded: vec![],
        agent_settings,
    };
    let p = state.render_prompt(render(vec![])).unwrap();
    assert!(!p.text.contains(description), "{}", p.text);
    assert!(p.text.contains("Reads, fills"), "{}", p.text);
    let p = state.render_prompt(render(vec!["skillListingMaxDescChars=1000".into()])).unwrap();
    assert!(p.text.contains(description), "{}", p.text);
    let m = state
        .render_matrix(RenderMatrix {
            sources: vec![src.clone()],
            agents: vec!["claude-code".into()],
            context_window: None,
            char_budget: None,
            edit: None,
        })
        .unwrap();
    assert_eq!(m.rows[0].cells[0].status, skillkit::matrix::Status::Shortened, "{:?}", m.rows[0]);
}

#[test]
fn prompt_and_session_come_from_the_engine() {
    let (state, _) = opened();
    let render = RenderPrompt {
        sources: vec![bundled()],
        agent: "claude-code".into(),
        context_window: None,
        char_budget: None,
        loaded: vec![],
        agent_settings: vec![],
    };
    let p = state.render_prompt(render).unwrap();
    let agent = find_agent("claude-code").unwrap();
    let lib = Library::for_agent(&[PathBuf::from(bundled())], agent);
    let expected = agent.render(&lib, &Default::default()).unwrap();
    assert_eq!(p.text, expected.text);
    let session = state
        .run_session(RunSession {
            sources: vec![bundled()],
            agent: "deepagents-v2".into(),
            settings: SessionSettings::default(),
            steps: vec![Step::Load { skill: "commit-message".into() }, Step::Unload { skill: "commit-message".into() }],
        })
        .unwrap();
    assert_eq!(session.turns.len(), 2);
    assert_eq!(session.turns[0].loaded, vec!["commit-message".to_string()]);
    assert!(session.loaded.is_empty());
}

const DEMO: &str = "---\nname: demo\ndescription: Shows a demo. Use when testing the app.\n---\n\n# Demo\n\nBody.\n";

fn demo_library() -> (tempfile::TempDir, String) {
    let tmp = tempfile::tempdir().unwrap();
    std::fs::create_dir_all(tmp.path().join("skills/demo")).unwrap();
    std::fs::write(tmp.path().join("skills/demo/SKILL.md"), DEMO).unwrap();
    let src = path_string(&tmp.path().join("skills").canonicalize().unwrap());
    (tmp, src)
}

fn channel() -> (Notify, std::sync::mpsc::Receiver<LibraryChanged>) {
    let (tx, rx) = std::sync::mpsc::channel();
    (Arc::new(move |c| tx.send(c).unwrap()), rx)
}

#[test]
fn an_external_edit_updates_the_kept_libraries_until_another_library_is_opened() {
    let (_tmp, src) = demo_library();
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    let (notify, rx) = channel();
    let lib =
        state.open_library_watched(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }, Some(notify));
    assert_eq!(lib.unwrap().skills[0].errors, 0);
    assert!(state.library.watching());
    let render = || RenderPrompt {
        sources: vec![src.clone()],
        agent: "claude-code".into(),
        context_window: None,
        char_budget: None,
        loaded: vec![],
        agent_settings: vec![],
    };
    let before = state.render_prompt(render()).unwrap();
    assert_eq!(before.skills[0].decision, Decision::Full);

    std::fs::write(format!("{src}/demo/SKILL.md"), DEMO.replace("name: demo", "name: Demo_Bad")).unwrap();
    state.library.flush().unwrap();
    let changed = rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
    let dir = format!("{src}/demo");
    assert!(
        changed.events.contains(&LibraryEvent::SkillChanged { dir, name: "Demo_Bad".into() }),
        "{:?}",
        changed.events
    );
    assert!(changed.library.skills[0].errors > 0);
    // The prompt comes from the current library of that agent, which the watcher updated too.
    let after = state.render_prompt(render()).unwrap();
    let agent = find_agent("claude-code").unwrap();
    let fresh = agent.render(&Library::for_agent(&[PathBuf::from(&src)], agent), &Default::default());
    assert_eq!(after.text, fresh.unwrap().text);
    assert_ne!(after.text, before.text);

    // Another library: the old watcher and its thread stop, so the channel disconnects.
    state.open_library(OpenLibrary { sources: vec![bundled()], agent: "spec".into() }).unwrap();
    assert!(!state.library.watching());
    assert!(matches!(
        rx.recv_timeout(std::time::Duration::from_secs(10)),
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected)
    ));
}

#[test]
fn lint_text_sees_the_skill_folder_as_the_watcher_keeps_it() {
    let (_tmp, src) = demo_library();
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    let (notify, rx) = channel();
    state.open_library_watched(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }, Some(notify)).unwrap();
    assert!(state.library.watching());
    let path = format!("{src}/demo/SKILL.md");
    let text = format!("{DEMO}\nRead [the guide](references/guide.md).\n");
    let lint = || state.lint_text(LintText { path: path.clone(), text: text.clone(), agent: "spec".into() }).unwrap();
    let missing = |l: Linted| l.diagnostics.iter().any(|d| d.code == "SK601");
    assert!(missing(lint()));
    // The file appears: once the watcher has told the library, the next lint finds it.
    std::fs::create_dir_all(format!("{src}/demo/references")).unwrap();
    std::fs::write(format!("{src}/demo/references/guide.md"), "# Guide\n").unwrap();
    state.library.flush().unwrap();
    rx.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
    assert!(!missing(lint()));
}

#[test]
fn a_missing_source_opens_without_a_watcher_and_without_panicking() {
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    let (notify, _rx) = channel();
    let args = OpenLibrary { sources: vec!["/nonexistent/skill-studio".into()], agent: "spec".into() };
    let lib = state.open_library_watched(args, Some(notify)).unwrap();
    assert!(!lib.sources[0].exists);
    assert!(!state.library.watching());
}

#[test]
fn render_preview_embeds_images_of_the_skill_folder_only() {
    let (tmp, src) = demo_library();
    std::fs::create_dir_all(format!("{src}/demo/assets")).unwrap();
    std::fs::write(format!("{src}/demo/assets/d.png"), b"png").unwrap();
    std::fs::write(tmp.path().join("outside.png"), b"png").unwrap();
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    let text =
        format!("{DEMO}\n## Usage\n\n![d](assets/d.png) ![o](../../outside.png) ![r](https://x.test/r.png) ![m](assets/none.png)\n");
    let p = state.render_preview(RenderPreview { path: format!("{src}/demo/SKILL.md"), text }).unwrap();
    assert!(p.html.contains("src=\"data:image/png;base64,cG5n\""), "{}", p.html);
    assert_eq!(p.html.matches("<img").count(), 1, "{}", p.html);
    assert_eq!(p.headings.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["demo", "usage"]);
    assert_eq!(p.skipped_images.len(), 1, "{:?}", p.skipped_images);
    assert_eq!(p.skipped_images[0].path, "assets/none.png");
    assert_eq!(p.skipped_images[0].reason, "no such file in the skill folder");
    let outside = RenderPreview { path: tmp.path().join("x/SKILL.md").to_string_lossy().into(), text: String::new() };
    assert_eq!(state.render_preview(outside).unwrap_err().code, ErrorCode::OutsideLibrary);
    let not_skill = RenderPreview { path: format!("{src}/demo/README.md"), text: String::new() };
    assert_eq!(state.render_preview(not_skill).unwrap_err().code, ErrorCode::NotASkillFile);
}

#[test]
fn the_library_and_the_editor_show_the_chosen_agents_verdict_as_check_does() {
    let (_tmp, src) = demo_library();
    // Unquoted `: `: DeepAgents (PyYAML) skips the skill; Codex reads the rest of the line.
    let colon = "---\nname: colon\ndescription: Use when: the user asks\n---\nBody.\n";
    std::fs::create_dir_all(format!("{src}/colon")).unwrap();
    std::fs::write(format!("{src}/colon/SKILL.md"), colon).unwrap();
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    let codes = |view: &LibraryView| -> Vec<(String, usize, Vec<&'static str>)> {
        let mut v: Vec<_> = view
            .skills
            .iter()
            .map(|s| {
                let errors = s.diagnostics.iter().filter(|d| d.severity == Severity::Error).map(|d| d.code).collect();
                (s.name.clone(), s.errors, errors)
            })
            .collect();
        v.sort();
        v
    };
    let deep = state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "deepagents".into() }).unwrap();
    assert_eq!(codes(&deep), [("colon".into(), 1, vec!["SK702"]), ("demo".into(), 0, vec![])]);
    let codex = state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "codex".into() }).unwrap();
    assert_eq!(codes(&codex), [("colon".into(), 0, vec![]), ("demo".into(), 0, vec![])]);
    let lint = |agent: &str| {
        let args = LintText { path: format!("{src}/colon/SKILL.md"), text: colon.into(), agent: agent.into() };
        let d = state.lint_text(args).unwrap().diagnostics;
        d.iter().filter(|d| d.severity == Severity::Error).map(|d| d.code).collect::<Vec<_>>()
    };
    assert_eq!(lint("deepagents"), ["SK702"]);
    assert!(lint("codex").is_empty());
    assert_eq!(lint("spec"), ["SK301"]);
}

#[test]
fn the_projects_skillkit_toml_sets_rule_levels_in_the_library_and_the_editor() {
    let (tmp, src) = demo_library();
    let colon = "---\nname: colon\ndescription: Use when: the user asks\n---\nBody.\n";
    std::fs::create_dir_all(format!("{src}/colon")).unwrap();
    std::fs::write(format!("{src}/colon/SKILL.md"), colon).unwrap();
    std::fs::write(tmp.path().join("skillkit.toml"), "[rules]\nunquoted-colon = \"warning\"\n").unwrap();
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    let view = state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    let skill = view.skills.iter().find(|s| s.name == "colon").unwrap();
    assert_eq!(skill.errors, 0, "{:?}", skill.diagnostics);
    assert!(skill.diagnostics.iter().any(|d| d.code == "SK301" && d.severity == Severity::Warning));
    let args = LintText { path: format!("{src}/colon/SKILL.md"), text: colon.into(), agent: "spec".into() };
    let d = state.lint_text(args).unwrap().diagnostics;
    assert!(d.iter().any(|d| d.code == "SK301" && d.severity == Severity::Warning), "{d:?}");
}

#[test]
fn a_body_too_deep_to_preview_gets_a_sentence_not_a_freeze() {
    let (_tmp, src) = demo_library();
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    // 100,000 block quotes in one line: minutes in the sanitizer before the depth cap.
    let text = format!("{DEMO}\n{}x\n", "> ".repeat(100_000));
    let p = state.render_preview(RenderPreview { path: format!("{src}/demo/SKILL.md"), text }).unwrap();
    assert!(
        p.html.starts_with("<p class=\"preview-refused\">Preview too deep"),
        "{}",
        &p.html[..200.min(p.html.len())]
    );
    assert_eq!(p.headings.iter().map(|h| h.id.as_str()).collect::<Vec<_>>(), ["demo"]);
}

#[test]
fn the_form_reads_fields_and_sets_one_keeping_the_rest() {
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    let text = "---\nname: demo # mine\ndescription: Old.\nmetadata:\n  a: b\n---\nBody\n".to_string();
    let form = state.frontmatter_form(FrontmatterText { text: text.clone(), agent: None }).unwrap();
    assert!(form.limits.is_empty());
    let spec = state.frontmatter_form(FrontmatterText { text: text.clone(), agent: Some("spec".into()) }).unwrap();
    let description: Vec<usize> = spec.limits.iter().filter(|l| l.key == "description").map(|l| l.max_chars).collect();
    assert_eq!(description, [1024, 1536]);
    assert_eq!(
        form.fields,
        vec![
            FormField { key: "name".into(), value: Some("demo".into()) },
            FormField { key: "description".into(), value: Some("Old.".into()) },
            FormField { key: "metadata".into(), value: None },
        ]
    );
    let set = |key: &str, value: &str| {
        state.set_frontmatter_field(SetFrontmatterField { text: text.clone(), key: key.into(), value: value.into() })
    };
    assert_eq!(set("description", "New: better.").unwrap().text, text.replace("Old.", "\"New: better.\""));
    assert_eq!(set("metadata", "x").unwrap_err().code, ErrorCode::NotEditable);
}

#[test]
fn a_new_skill_is_checked_then_created_inside_an_opened_source_only() {
    let (tmp, src) = demo_library();
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    let new = |name: &str, folders: &[&str]| NewSkill {
        source: src.clone(),
        name: name.into(),
        description: "Drafts release notes from merged changes. Use when asked for release notes.".into(),
        folders: folders.iter().map(|f| f.to_string()).collect(),
    };
    let bad = state.check_new_skill(new("Bad_Name", &[])).unwrap();
    assert!(
        bad.problems.iter().any(|p| p.severity == Severity::Error && p.field.as_deref() == Some("name")),
        "{bad:?}"
    );
    assert_eq!(bad.suggestion.as_deref(), Some("bad-name"));
    assert_eq!(state.create_skill(new("Bad_Name", &[])).unwrap_err().code, ErrorCode::InvalidNewSkill);
    assert!(!Path::new(&src).join("Bad_Name").exists());

    let good = state.check_new_skill(new("release-notes", &["scripts", "assets"])).unwrap();
    assert!(good.problems.is_empty() && !good.exists && good.suggestion.is_none(), "{good:?}");
    let created = state.create_skill(new("release-notes", &["scripts", "assets"])).unwrap();
    assert_eq!(created.path, format!("{src}/release-notes/SKILL.md"));
    assert_eq!(std::fs::read_to_string(&created.path).unwrap(), created.text);
    assert!(Path::new(&src).join("release-notes/scripts").is_dir());
    assert!(!Path::new(&src).join("release-notes/references").exists());
    // The library reads it with no error or warning.
    let lib = state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    let entry = lib.skills.iter().find(|s| s.name == "release-notes").unwrap();
    assert_eq!((entry.errors, entry.warnings), (0, 0));
    // Not twice, not outside the sources, not into a path.
    assert!(state.check_new_skill(new("release-notes", &[])).unwrap().exists);
    assert_eq!(state.create_skill(new("release-notes", &[])).unwrap_err().code, ErrorCode::InvalidNewSkill);
    let outside = NewSkill { source: path_string(tmp.path()), ..new("elsewhere", &[]) };
    assert_eq!(state.create_skill(outside).unwrap_err().code, ErrorCode::InvalidNewSkill);
    assert_eq!(state.create_skill(new("../escape", &[])).unwrap_err().code, ErrorCode::InvalidNewSkill);
    assert!(!tmp.path().join("escape").exists());
}

#[test]
fn drafts_newer_than_their_file_are_offered_and_a_save_removes_them() {
    let (tmp, src) = demo_library();
    let file = format!("{src}/demo/SKILL.md");
    let host = Arc::new(MemoryHost::in_dir(tmp.path()));
    let state = Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, host);
    state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    assert!(state.drafts().unwrap().is_empty());
    // The file's time is set in the past, so the draft written now is newer.
    let past = std::time::SystemTime::now() - std::time::Duration::from_secs(60);
    std::fs::File::options().write(true).open(&file).unwrap().set_modified(past).unwrap();
    state.save_draft(SaveFile { path: file.clone(), text: "unsaved".into(), base: None }).unwrap();
    let drafts = state.drafts().unwrap();
    assert_eq!(drafts.len(), 1);
    assert_eq!((drafts[0].path.as_str(), drafts[0].text.as_str()), (file.as_str(), "unsaved"));
    assert!(drafts[0].file_modified_ms.unwrap() < drafts[0].written_ms);
    // A file changed after the draft: the draft is stale and dropped.
    std::fs::File::options()
        .write(true)
        .open(&file)
        .unwrap()
        .set_modified(past + std::time::Duration::from_secs(3600))
        .unwrap();
    assert!(state.drafts().unwrap().is_empty());
    // A save removes the draft; outside the library nothing is written.
    std::fs::File::options().write(true).open(&file).unwrap().set_modified(past).unwrap();
    state.save_draft(SaveFile { path: file.clone(), text: "unsaved".into(), base: None }).unwrap();
    assert_eq!(state.drafts().unwrap().len(), 1);
    state.save_file(SaveFile { path: file.clone(), text: DEMO.into(), base: None }).unwrap();
    assert!(state.drafts().unwrap().is_empty());
    let outside =
        SaveFile { path: tmp.path().join("x/SKILL.md").to_string_lossy().into(), text: "x".into(), base: None };
    assert_eq!(state.save_draft(outside).unwrap_err().code, ErrorCode::OutsideLibrary);
}

#[test]
fn the_last_opened_library_is_remembered_and_reopened() {
    let (tmp, src) = demo_library();
    let file = tmp.path().join("config").join(crate::last_library::FILE);
    let fallback = Startup { sources: vec![bundled()], agent: "spec".into(), examples: None };
    let host = Arc::new(MemoryHost::in_dir(tmp.path()));
    let first = Studio::remembering(fallback.clone(), host.clone());
    assert_eq!(first.startup().unwrap(), fallback, "the first start opens the bundled library");
    first.open_library(OpenLibrary { sources: vec![src.clone()], agent: "claude-code".into() }).unwrap();
    let next = Studio::remembering(fallback.clone(), host.clone());
    assert_eq!(
        next.startup().unwrap(),
        Startup { sources: vec![src.clone()], agent: "claude-code".into(), examples: None }
    );
    // Started on explicit sources: the memory is neither used nor replaced.
    let explicit = Studio::new(fallback.clone(), host.clone());
    assert_eq!(explicit.startup().unwrap(), fallback);
    explicit.open_library(OpenLibrary { sources: vec![bundled()], agent: "spec".into() }).unwrap();
    assert_eq!(crate::last_library::read(&file).unwrap().sources, vec![src]);
}

#[test]
fn a_library_opened_anew_is_judged_by_the_agent_its_project_configures() {
    let (tmp, src) = demo_library();
    let startup = Startup { sources: vec![src.clone()], agent: "spec".into(), examples: None };
    assert_eq!(Studio::new(startup.clone(), Arc::new(MemoryHost::default())).startup().unwrap().agent, "spec");
    std::fs::write(tmp.path().join("skillkit.toml"), "agent = \"codex\"\n").unwrap();
    let configured = Startup { agent: "codex".into(), ..startup.clone() };
    assert_eq!(Studio::new(startup.clone(), Arc::new(MemoryHost::default())).startup().unwrap(), configured);
    // A library opened later says which agent its project names (the window switches to it).
    let state = Studio::new(startup.clone(), Arc::new(MemoryHost::default()));
    let view = state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    assert_eq!((view.agent.as_str(), view.configured_agent.as_deref()), ("spec", Some("codex")));
    // The remembered library keeps the agent last chosen for it.
    let host = Arc::new(MemoryHost::in_dir(tmp.path()));
    let first = Studio::remembering(startup.clone(), host.clone());
    assert_eq!(first.startup().unwrap(), configured, "the first start");
    first.open_library(OpenLibrary { sources: vec![src.clone()], agent: "claude-code".into() }).unwrap();
    let next = Studio::remembering(startup.clone(), host);
    assert_eq!(next.startup().unwrap().agent, "claude-code");
    // An agent the engine does not know is left to the library's own report.
    std::fs::write(tmp.path().join("skillkit.toml"), "agent = \"nobody\"\n").unwrap();
    assert_eq!(Studio::new(startup.clone(), Arc::new(MemoryHost::default())).startup().unwrap().agent, "spec");
    std::fs::remove_file(tmp.path().join("skillkit.toml")).unwrap();
    let view = state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    assert_eq!(view.configured_agent, None);
}

#[test]
fn save_file_writes_inside_the_opened_library() {
    let tmp = std::env::temp_dir().join(format!("skill-studio-save-{}", std::process::id()));
    std::fs::create_dir_all(tmp.join("a")).unwrap();
    let src = path_string(&tmp);
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    state.open_library(OpenLibrary { sources: vec![src], agent: "spec".into() }).unwrap();
    let saved = state
        .save_file(SaveFile { path: path_string(&tmp.join("a/SKILL.md")), text: "hi".into(), base: None })
        .unwrap();
    assert_eq!(saved.bytes, 2);
    assert_eq!(std::fs::read_to_string(tmp.join("a/SKILL.md")).unwrap(), "hi");
    std::fs::remove_dir_all(&tmp).unwrap();
}

fn opened_on(files: &[(&str, &str)]) -> (tempfile::TempDir, PathBuf, Studio) {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("skills");
    for (rel, text) in files {
        let p = src.join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    state.open_library(OpenLibrary { sources: vec![path_string(&src)], agent: "spec".into() }).unwrap();
    (tmp, src, state)
}

#[test]
fn a_save_over_an_external_edit_is_refused_as_a_conflict() {
    let (_tmp, src, state) = opened_on(&[("a/SKILL.md", "---\nname: a\n---\nold\n")]);
    let path = path_string(&src.join("a/SKILL.md"));
    let read = state.read_file(ReadFile { path: path.clone() }).unwrap();
    // Someone else writes the file between the editor's read and its save.
    std::fs::write(src.join("a/SKILL.md"), "---\nname: a\n---\ntheirs\n").unwrap();
    let err = state
        .save_file(SaveFile { path: path.clone(), text: "mine".into(), base: Some(read.version.clone()) })
        .unwrap_err();
    assert_eq!(err.code, ErrorCode::Conflict, "{err:?}");
    assert!(std::fs::read_to_string(src.join("a/SKILL.md")).unwrap().contains("theirs"));
    // Based on the disk's version, the save goes through, and the next is based on its result.
    let disk = state.read_file(ReadFile { path: path.clone() }).unwrap();
    let saved =
        state.save_file(SaveFile { path: path.clone(), text: "mine".into(), base: Some(disk.version) }).unwrap();
    assert_eq!(std::fs::read_to_string(src.join("a/SKILL.md")).unwrap(), "mine");
    state.save_file(SaveFile { path, text: "mine again".into(), base: Some(saved.version) }).unwrap();
}

#[cfg(unix)]
#[test]
fn a_save_does_not_follow_a_planted_temporary_file_symlink() {
    let (tmp, src, state) = opened_on(&[("a/SKILL.md", "---\nname: a\n---\n")]);
    let outside = tmp.path().join("outside.txt");
    std::fs::write(&outside, "untouched").unwrap();
    // The names the old save used (`.SKILL.md.<pid>-<n>.tmp`) planted as links out.
    for n in 0..100 {
        let name = format!("a/.SKILL.md.{}-{n}.tmp", std::process::id());
        std::os::unix::fs::symlink(&outside, src.join(name)).unwrap();
    }
    let path = path_string(&src.join("a/SKILL.md"));
    state.save_file(SaveFile { path, text: "saved".into(), base: None }).unwrap();
    assert_eq!(std::fs::read_to_string(&outside).unwrap(), "untouched");
    assert_eq!(std::fs::read_to_string(src.join("a/SKILL.md")).unwrap(), "saved");
}

#[test]
fn opening_a_library_removes_what_interrupted_saves_left() {
    let (_tmp, src, _state) = opened_on(&[
        ("a/SKILL.md", "---\nname: a\n---\n"),
        ("a/.SKILL.md.0011223344556677.skillkit-tmp", "half a save"),
        ("a/references/.guide.md.8899aabbccddeeff.skillkit-tmp", "half a save"),
        ("a/references/guide.md", "# Guide\n"),
    ]);
    assert!(!src.join("a/.SKILL.md.0011223344556677.skillkit-tmp").exists());
    assert!(!src.join("a/references/.guide.md.8899aabbccddeeff.skillkit-tmp").exists());
    assert!(src.join("a/references/guide.md").exists());
}

#[test]
fn hover_and_complete_answer_at_editor_positions_from_the_workspace() {
    let (_tmp, src) = demo_library();
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    let path = format!("{src}/demo/SKILL.md");
    // Unsaved text: a line begun in the frontmatter, and a non-ASCII value before it.
    let text = "---\nname: demo\ndescription: Shows a démo. Use when testing the app.\nlic\n---\n\nBody.\n";
    let at = |line: usize, column_utf16: usize| AssistAt {
        path: path.clone(),
        text: text.into(),
        agent: "claude-code".into(),
        line,
        column_utf16,
    };
    let hover = state.hover(at(2, 2)).unwrap().hover.expect("a hover on `name`");
    assert!(hover.markdown.starts_with("**`name`**"), "{}", hover.markdown);
    assert_eq!((hover.start.line, hover.start.column_utf16, hover.end.column_utf16), (2, 1, 5));
    // The description's hover counts the unsaved value, not the file's.
    let hover = state.hover(at(3, 20)).unwrap().hover.expect("a hover on the description");
    assert!(hover.markdown.contains("39 characters"), "{}", hover.markdown);
    assert_eq!(state.hover(at(7, 2)).unwrap().hover, None);

    let items = state.complete(at(4, 4)).unwrap().items;
    let license = items.iter().find(|c| c.label == "license").expect("`license` offered");
    assert_eq!(license.kind, CompletionItemKind::Key);
    assert_eq!(license.insert, "license: ");
    assert_eq!((license.start.line, license.start.column_utf16, license.end.column_utf16), (4, 1, 4));
    assert!(items.iter().all(|c| c.label != "name"), "a key already there is not offered again");
    assert!(state.complete(at(7, 3)).unwrap().items.is_empty());

    let outside = AssistAt { path: "/tmp/elsewhere/SKILL.md".into(), ..at(1, 1) };
    assert_eq!(state.hover(outside).unwrap_err().code, ErrorCode::OutsideLibrary);
    let unknown = AssistAt { agent: "nope".into(), ..at(1, 1) };
    assert_eq!(state.complete(unknown).unwrap_err().code, ErrorCode::UnknownAgent);
}

#[test]
fn lint_text_under_another_agent_lints_alone_and_leaves_the_workspaces_text() {
    let (_tmp, src) = demo_library();
    let state =
        Studio::new(Startup { sources: vec![], agent: "spec".into(), examples: None }, Arc::new(MemoryHost::default()));
    state.open_library(OpenLibrary { sources: vec![src.clone()], agent: "spec".into() }).unwrap();
    let path = format!("{src}/demo/SKILL.md");
    let lint = |text: &str, agent: &str| {
        state.lint_text(LintText { path: path.clone(), text: text.into(), agent: agent.into() }).unwrap().diagnostics
    };
    let broken = DEMO.replace("description: Shows a demo.", "description: Use when: the user asks.");
    let under_spec = lint(&broken, "spec");
    // DeepAgents (PyYAML) skips the skill: its verdict is an error the spec profile does not give.
    let under_deep = lint(DEMO, "deepagents");
    let deep_broken = lint(&broken, "deepagents");
    assert_ne!(deep_broken, under_spec);
    assert!(deep_broken.len() > under_deep.len(), "{deep_broken:?}");
    // The agent pickers' lints leave the workspace (the library's agent) with the editor's text.
    let ws = state.library.workspace(find_agent("spec").unwrap(), Path::new(&path));
    assert_eq!(crate::lock::lock(&ws).findings(Path::new(&path)), under_spec);
}
