//! The session-script target: the input as a session script followed by the files of the library
//! it runs on ([`split_archive`]: a line `#== PATH` starts a file). The files are written to a
//! fresh temporary folder; the script is parsed with `skillkit::simulate::parse_script` and, when
//! it parses, run as `skillkit simulate` runs it (a `Session` over its sources, every step
//! applied, rendered as text and JSON by the CLI's renderers). Every path the session could read
//! (its sources, a `read_file` tool call's `file_path`) is rewritten to lie inside that folder:
//! nothing outside it is read, and nothing is ever written.
//!
//! Invariants: no panic; a script that does not parse has errors located inside the text (line
//! and column from 1, line at most one past the last); one that parses writes back
//! (`Script::to_text`) to a text that parses to the same agent, sources, settings and steps; the
//! JSON rendering is JSON.

use crate::{violation, Outcome};
use skillkit::session::script::Script;
use skillkit::session::{Session, Step};
use skillkit::simulate::parse_script;
use std::path::{Component, Path, PathBuf};

/// The line that starts a file of the library in an input.
pub const FILE_MARKER: &str = "#== ";

/// At most this many files are written for one input, each path at most this deep.
const MAX_FILES: usize = 64;
const MAX_DEPTH: usize = 8;

/// The script and the library's files (relative path, content) of an input.
pub fn split_archive(text: &str) -> (&str, Vec<(&str, &str)>) {
    let mut marks: Vec<usize> = vec![];
    if text.starts_with(FILE_MARKER) {
        marks.push(0);
    }
    marks.extend(text.match_indices(&format!("\n{FILE_MARKER}")).map(|(i, _)| i + 1));
    let Some(&first) = marks.first() else { return (text, vec![]) };
    let mut files = vec![];
    for (n, &at) in marks.iter().enumerate() {
        let end = marks.get(n + 1).copied().unwrap_or(text.len());
        let section = &text[at + FILE_MARKER.len()..end];
        let (path, content) = section.split_once('\n').unwrap_or((section, ""));
        files.push((path.trim_end_matches('\r'), content));
    }
    (&text[..first], files)
}

/// An input holding `script` and `files`, as [`split_archive`] reads it.
pub fn archive(script: &str, files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut out = script.as_bytes().to_vec();
    if !out.ends_with(b"\n") {
        out.push(b'\n');
    }
    for (path, content) in files {
        out.extend_from_slice(FILE_MARKER.as_bytes());
        out.extend_from_slice(path.as_bytes());
        out.push(b'\n');
        out.extend_from_slice(content);
        if !content.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
    out
}

/// `path` placed inside `root`: only its plain components are kept (no root, no `..`, no `.`),
/// at most [`MAX_DEPTH`] of them, each cut to 100 bytes.
pub fn inside(root: &Path, path: &str) -> PathBuf {
    let mut out = root.to_path_buf();
    for c in Path::new(path).components().filter(|c| matches!(c, Component::Normal(_))).take(MAX_DEPTH) {
        let name = c.as_os_str().to_string_lossy();
        let mut cut = name.len().min(100);
        while !name.is_char_boundary(cut) {
            cut -= 1;
        }
        out.push(&name[..cut]);
    }
    out
}

/// Runs the target on `data`, with `dir` (which must not exist yet) as the library's folder; the
/// folder is removed afterwards.
pub fn run(data: &[u8], dir: &Path) -> Outcome {
    let text = String::from_utf8_lossy(data);
    let (script, files) = split_archive(&text);
    let _ = std::fs::create_dir_all(dir);
    for (path, content) in files.iter().take(MAX_FILES) {
        let path = inside(dir, path);
        if path == dir {
            continue;
        }
        if let Some(parent) = path.parent() {
            let _ = std::fs::create_dir_all(parent);
        }
        let _ = std::fs::write(&path, content);
    }
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| run_script(script, dir)));
    let _ = std::fs::remove_dir_all(dir);
    match outcome {
        Ok(o) => o,
        Err(e) => std::panic::resume_unwind(e),
    }
}

fn run_script(text: &str, dir: &Path) -> Outcome {
    let mut outcome = Outcome::default();
    let parsed = outcome.timed(|| parse_script(text));
    let script = match parsed {
        Err(errors) => {
            let last_line = text.split('\n').count();
            for e in &errors {
                if e.line == 0 || e.column == 0 || e.line > last_line {
                    violation(
                        "script-error-outside-the-text",
                        format!("error {e:?} in a text of {last_line} lines: {:?}", cut(text)),
                    );
                }
                outcome.feature(("error", e.message.split(' ').take(2).collect::<Vec<_>>()));
            }
            return outcome;
        }
        Ok(s) => s,
    };
    check_round_trip(text, &script);

    let Some(agent) = skillkit::find_agent(&script.agent) else {
        violation("script-names-an-unknown-agent", format!("parse accepted agent {:?}", script.agent))
    };
    outcome.feature(("agent", agent.id));
    let sources: Vec<PathBuf> = script.sources.iter().map(|s| inside(dir, s)).collect();
    let steps: Vec<Step> = script.steps.iter().cloned().map(|s| confine(s, dir)).collect();
    let (turns, json_out) = outcome.timed(|| {
        let mut session = Session::new(agent, &sources, script.settings.clone());
        for step in steps {
            session.apply(step);
        }
        let mut text_out = vec![];
        let mut json_out = vec![];
        skillkit_cli::render::session::render_text(&session, &script.sources, &mut text_out).expect("writes to a Vec");
        skillkit_cli::render::session::render_json(&session, &script.sources, &mut json_out).expect("writes to a Vec");
        let turns: Vec<_> = session
            .turns
            .iter()
            .map(|t| {
                let kind = serde_json::to_value(&t.step).ok().and_then(|v| v["action"].as_str().map(str::to_string));
                let note = t.outcome.note.as_deref().map(|n| n.split(' ').take(3).collect::<Vec<_>>().join(" "));
                (kind, t.outcome.is_error, note)
            })
            .collect();
        (turns, json_out)
    });
    for t in turns {
        outcome.feature(("turn", agent.id, t));
    }
    if let Err(e) = serde_json::from_slice::<serde_json::Value>(&json_out) {
        violation("simulate-json-is-not-json", format!("{e}: {:?}", String::from_utf8_lossy(&json_out)));
    }
    outcome
}

/// A step whose paths stay inside `dir`: a tool call's `file_path` (DeepAgents' `read_file`
/// reads it from disk) is placed inside the folder.
fn confine(step: Step, dir: &Path) -> Step {
    match step {
        Step::Tool { name, mut args } => {
            if let Some(p) = args.get_mut("file_path") {
                if let Some(s) = p.as_str() {
                    *p = serde_json::Value::String(inside(dir, s).to_string_lossy().into_owned());
                }
            }
            Step::Tool { name, args }
        }
        other => other,
    }
}

fn check_round_trip(text: &str, script: &Script) {
    let written = script.to_text();
    let again = match parse_script(&written) {
        Ok(s) => s,
        Err(errors) => violation(
            "script-to-text-does-not-parse",
            format!("{errors:?}; script {:?} was written as {written:?}", cut(text)),
        ),
    };
    let settings = |s: &Script| {
        let mut v = serde_json::to_value(&s.settings).expect("settings are JSON");
        v.as_object_mut().map(|o| o.remove("session_id"));
        v
    };
    let same = again.agent == script.agent
        && again.sources == script.sources
        && settings(&again) == settings(script)
        && again.steps == script.steps;
    if !same {
        violation(
            "script-to-text-does-not-round-trip",
            format!(
                "script {:?} was written as {written:?}, which reads back as agent {:?} sources {:?} settings {} \
                 steps {:?} instead of agent {:?} sources {:?} settings {} steps {:?}",
                cut(text),
                again.agent,
                again.sources,
                settings(&again),
                again.steps,
                script.agent,
                script.sources,
                settings(script),
                script.steps
            ),
        );
    }
}

fn cut(text: &str) -> String {
    text.chars().take(400).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_archive_splits_into_the_script_and_its_files() {
        let files = vec![("lib/a/SKILL.md".to_string(), b"---\nname: a\n---\n".to_vec())];
        let bytes = archive("agent: codex\nsteps: []", &files);
        let text = String::from_utf8(bytes).unwrap();
        let (script, got) = split_archive(&text);
        assert_eq!(script, "agent: codex\nsteps: []\n");
        assert_eq!(got, [("lib/a/SKILL.md", "---\nname: a\n---\n")]);
    }

    #[test]
    fn paths_are_kept_inside_the_folder() {
        let root = Path::new("/tmp/root");
        assert_eq!(inside(root, "/etc/passwd"), root.join("etc/passwd"));
        assert_eq!(inside(root, "../../x/./y"), root.join("x/y"));
        assert_eq!(inside(root, ".."), root);
    }

    #[test]
    fn a_script_runs_on_its_library() {
        let tmp = tempfile::tempdir().unwrap();
        let files = vec![(
            "lib/demo/SKILL.md".to_string(),
            b"---\nname: demo\ndescription: Does things.\n---\nBody\n".to_vec(),
        )];
        let input = archive(
            "agent: deepagents\nsources: [lib]\nsteps:\n  - invoke: demo\n  - tool: read_file\n    args: {file_path: /etc/hostname}\n",
            &files,
        );
        let out = run(&input, &tmp.path().join("s"));
        assert!(!out.features.is_empty());
        assert!(!tmp.path().join("s").exists());
    }
}
