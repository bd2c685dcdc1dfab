//! A cloned library's text never reaches a terminal or a CI log as anything but text (issue #33):
//! control characters in skill names, descriptions, folder names, bodies, session scripts, eval
//! suites, configuration values and model replies are shown escaped (`\u{1b}`), and no line of
//! human output reads as a GitHub Actions workflow command (`::add-mask::…` after whitespace, or
//! `##[…` anywhere); JSON and SARIF hold neither `##[` nor a raw DEL or C1 control (JSON escapes
//! them). SARIF names a file by a percent-encoded URI reference.

use e2e::{skillkit, write_tree};
use mock_provider::{MockServer, Reply, Rule, Script};
use std::path::Path;

/// OSC 52 (sets the clipboard), then a bell, a clear screen, a C1 CSI and DEL.
const CONTROLS: &str = "\x1b]52;c;c2VjcmV0\x07\x1b[2J\u{9b}\x7f";
/// The same, as a YAML double-quoted string writes it.
const CONTROLS_YAML: &str = r"\e]52;c;c2VjcmV0\a\e[2J\x9b\x7f";

/// Panics when `out` holds a control character of [`CONTROLS`], a line the runner would read as
/// a command, or `##[`. Lines end at `\n`, `\r` or `\r\n`, as the runner reads them.
#[track_caller]
fn assert_shown(out: &str, what: &str) {
    for (i, c) in out.char_indices() {
        let bad = matches!(c, '\x1b' | '\x07' | '\x7f' | '\u{80}'..='\u{9f}');
        assert!(!bad, "{what}: {c:?} at byte {i} in:\n{out}");
    }
    for line in out.split(['\n', '\r']) {
        assert!(!line.trim_start().starts_with("::"), "{what}: a workflow command line {line:?} in:\n{out}");
    }
    assert!(!out.contains("##["), "{what}: `##[` in:\n{out}");
}

/// A library whose one skill has hostile text everywhere: its folder's name, its name and
/// description (the name, with a newline, quoted in messages), and body lines that are workflow
/// commands, one of them with a finding (a missing link) so that the check shows it.
fn library(root: &Path) -> std::path::PathBuf {
    let dir = format!("evil{CONTROLS}");
    let skill = format!(
        "---\nname: \"evil{CONTROLS_YAML}\\n::add-mask::secret ##[add-mask]n\"\ndescription: \"Does {CONTROLS_YAML} things.\\n::error::x Use when asked.\"\n---\n\
         # Evil\n\n::add-mask::secret\n  ::error title=x::owned\n##[add-mask]secret2\n\nSee [x](missing{CONTROLS}.md) \x1b[2J ::x\n"
    );
    // A valid skill, so that its body is checked: a missing link next to workflow commands.
    let body = format!(
        "---\nname: body\ndescription: Shows a body. Use when asked.\n---\n::add-mask::secret\nSee [x](missing.md) {CONTROLS}\n  ::error::x ##[add-mask]y\n"
    );
    write_tree(
        root,
        &[(&format!("skills/{dir}/SKILL.md"), skill.as_bytes()), ("skills/body/SKILL.md", body.as_bytes())],
    );
    root.join("skills")
}

#[test]
fn check_text_shows_a_hostile_skill_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let skills = library(tmp.path());
    let out = skillkit(&["check", skills.to_str().unwrap(), "--color", "never"]);
    assert_eq!(out.code, 1, "{}\n{}", out.stdout, out.stderr);
    assert_shown(&out.stdout, "check");
    assert_shown(&out.stderr, "check's errors");
    // Escaped, not dropped: the name and the source line are there to read.
    assert!(out.stdout.contains(r"evil\u{1b}]52;c;c2VjcmV0\u{7}\u{1b}[2J\u{9b}\u{7f}"), "{}", out.stdout);
    assert!(out.stdout.contains(r"See [x](missing.md) \u{1b}]52;"), "{}", out.stdout);
    assert!(out.stdout.contains(r"\::add-mask::secret"), "{}", out.stdout);
}

#[test]
fn check_text_in_colour_keeps_its_colours_and_escapes_the_skills_text() {
    let tmp = tempfile::tempdir().unwrap();
    let skills = library(tmp.path());
    let out = skillkit(&["check", skills.to_str().unwrap(), "--color", "always"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    // The renderer's colours are SGR sequences (`ESC [ … m`), and nothing else is.
    assert!(out.stdout.contains("\x1b[0m"), "colours: {:?}", out.stdout);
    let mut rest = out.stdout.as_str();
    while let Some(at) = rest.find('\x1b') {
        let seq = &rest[at + 1..];
        let end = seq.find('m').expect("an SGR sequence");
        assert!(seq.starts_with('[') && seq[1..end].bytes().all(|b| b.is_ascii_digit() || b == b';'), "{seq:?}");
        rest = &seq[end + 1..];
    }
    let plain: String = {
        let mut s = String::new();
        let mut rest = out.stdout.as_str();
        while let Some(at) = rest.find('\x1b') {
            s.push_str(&rest[..at]);
            rest = &rest[at + rest[at..].find('m').unwrap() + 1..];
        }
        s.push_str(rest);
        s
    };
    assert_shown(&plain, "check in colour");
}

#[test]
fn tree_shows_a_hostile_skill_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let skills = library(tmp.path());
    // A resource named as a command, with a control character.
    write_tree(&skills.join(format!("evil{CONTROLS}")), &[("references/::error::x\x1b[2J.md", b"notes\n")]);
    let out = skillkit(&["tree", "--source", skills.to_str().unwrap()]);
    assert_shown(&out.stdout, "tree");
    assert_shown(&out.stderr, "tree's errors");
    assert!(out.stdout.contains(r"references/::error::x\u{1b}[2J.md"), "{}", out.stdout);
}

#[test]
fn a_simulated_sessions_transcript_shows_the_library_script_and_replies_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    library(tmp.path());
    let dir = format!("evil{CONTROLS}");
    // The script is the library's too: a slash command's arguments, a user message and a model
    // reply hold commands on lines of their own and control characters.
    let script = format!(
        "agent: claude-code\nsources: [skills]\nsteps:\n\
         \x20 - load: \"evil{CONTROLS_YAML}\\n::add-mask::secret\"\n\
         \x20 - slash: \"/{dir_yaml} now\\n::add-mask::secret {CONTROLS_YAML}\"\n\
         \x20 - user: \"hi\\n::error::x {CONTROLS_YAML}\\r::warning::y\"\n\
         \x20 - model: \"sure\\n  ::add-mask::secret\\n##[add-mask]z {CONTROLS_YAML}\"\n\
         \x20   calls:\n\
         \x20     - tool: \"Bash{CONTROLS_YAML}\\n::error::x\"\n\
         \x20       args: {{command: \"ls\\n::error::x\"}}\n\
         \x20       result: \"a\\n::add-mask::secret\\n{CONTROLS_YAML}\"\n",
        dir_yaml =
            dir.replace('\x1b', r"\e").replace('\x07', r"\a").replace('\u{9b}', r"\x9b").replace('\x7f', r"\x7f")
    );
    write_tree(tmp.path(), &[("session.yaml", script.as_bytes())]);
    let out = skillkit(&["simulate", tmp.path().join("session.yaml").to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}\n{}", out.stdout, out.stderr);
    assert_shown(&out.stdout, "simulate");
    assert_shown(&out.stderr, "simulate's errors");
    // The skill's body is quoted with its own lines, escaped.
    assert!(out.stdout.contains(r"[2J\u{9b}\u{7f}\u{a}::add-mask::secret"), "{}", out.stdout);
}

#[test]
fn eval_text_junit_and_json_show_case_ids_and_model_replies_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(
        tmp.path(),
        &[
            ("skills/pdf/SKILL.md", b"---\nname: pdf\ndescription: Fills PDF forms. Use when asked for PDF forms.\n---\nFill it.\n"),
            (
                "evals.yaml",
                format!(
                    "sources: [skills]\ncases:\n  - id: \"case{CONTROLS_YAML}\\n::add-mask::secret\"\n    query: \"Fill tax.pdf {CONTROLS_YAML}\\n::error::x ##[add-mask]y\"\n    expect: pdf\n"
                )
                .as_bytes(),
            ),
        ],
    );
    // The model activates a skill whose name is hostile.
    let server = MockServer::start(Script {
        rules: vec![Rule {
            contains: Some("tax.pdf".into()),
            replies: vec![Reply::tool(
                "Skill",
                serde_json::json!({"skill": format!("x{CONTROLS}\n::add-mask::secret")}),
            )],
            ..Rule::default()
        }],
        ..Script::default()
    });
    let suite = tmp.path().join("evals.yaml");
    for format in ["text", "junit", "json"] {
        let out = skillkit(&[
            "eval",
            suite.to_str().unwrap(),
            "--agent",
            "claude-code",
            "--provider",
            "openai",
            "--base-url",
            &server.base_url(),
            "--model",
            "m",
            "--runs",
            "1",
            "--format",
            format,
        ]);
        assert_eq!(out.code, 0, "{format}: {}\n{}", out.stdout, out.stderr);
        assert_shown(&out.stdout, format);
        assert_shown(&out.stderr, format);
        if format == "json" {
            let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
            assert_eq!(v["cases"][0]["id"], format!("case{CONTROLS}\n::add-mask::secret"));
        } else {
            assert!(out.stdout.contains(r"case\u{1b}]52;"), "{format}: {}", out.stdout);
        }
    }
}

#[test]
fn errors_echo_configuration_values_and_paths_escaped() {
    let tmp = tempfile::tempdir().unwrap();
    let skills = library(tmp.path());
    let toml = r#"agent = "evil\u001b]52;c;c2VjcmV0\u0007\u001b[2J\u009b\u007f\n::add-mask::secret""#;
    write_tree(tmp.path(), &[("skillkit.toml", toml.as_bytes())]);
    let out = skillkit(&["check", skills.to_str().unwrap()]);
    assert_eq!(out.code, 2, "{}\n{}", out.stdout, out.stderr);
    assert!(out.stderr.contains("unknown agent"), "{}", out.stderr);
    assert_shown(&out.stderr, "the configuration's agent");
    // A suite's source that does not exist, named with control characters.
    let suite = format!(
        "sources: [\"gone{CONTROLS_YAML}\\n::add-mask::secret\"]\ncases:\n  - id: a\n    query: q\n    expect: none\n"
    );
    write_tree(tmp.path(), &[("evals.yaml", suite.as_bytes())]);
    let out = skillkit(&["eval", tmp.path().join("evals.yaml").to_str().unwrap(), "--agent", "claude-code"]);
    assert_eq!(out.code, 2, "{}", out.stderr);
    assert!(out.stderr.contains("does not exist"), "{}", out.stderr);
    assert_shown(&out.stderr, "a suite's source");
}

#[test]
fn sarif_names_a_file_by_a_percent_encoded_uri() {
    let tmp = tempfile::tempdir().unwrap();
    write_tree(tmp.path(), &[("skills/my skill#1/SKILL.md", b"---\nname: Bad_Name\ndescription: x\n---\nBody.\n")]);
    let out = skillkit(&["check", tmp.path().join("skills").to_str().unwrap(), "--format", "sarif"]);
    assert_eq!(out.code, 1, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let uri =
        v["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"].as_str().unwrap();
    assert!(uri.ends_with("/my%20skill%231/SKILL.md"), "{uri}");
    assert!(!uri.contains([' ', '#']), "{uri}");
}

#[test]
fn json_and_sarif_hold_no_legacy_workflow_command_nor_c1_controls() {
    let tmp = tempfile::tempdir().unwrap();
    let skills = library(tmp.path());
    let skills = skills.to_str().unwrap();
    let script = "agent: claude-code\nsources: [skills]\nsteps:\n  - load: body\n  - user: \"##[add-mask]u\"\n";
    write_tree(tmp.path(), &[("session.yaml", script.as_bytes())]);
    let session = tmp.path().join("session.yaml");
    for args in [
        &["check", skills, "--format", "json"][..],
        &["check", skills, "--format", "sarif"],
        &["tree", "--source", skills, "--format", "json"],
        &["simulate", session.to_str().unwrap(), "--format", "json"],
    ] {
        let out = skillkit(args);
        assert_shown(&out.stdout, &format!("{args:?}"));
        // The same strings to a JSON reader.
        let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
        assert!(v.to_string().contains("##[add-mask]"), "{args:?}: {}", out.stdout);
    }
}
