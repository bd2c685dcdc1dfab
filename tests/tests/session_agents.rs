//! Each agent's invocation results coming out of a `Session` (and out of `skillkit simulate`) equal
//! what the real programs sent: Claude Code's Skill tool and `/name args` (goldens
//! `claude-code-2.1.332/*/slash-*.json`, `tool-*.json`), Gemini CLI's `activate_skill`
//! (`gemini-cli-0.61.0/*/activate-*.json`) and Codex's `$name` items
//! (`codex-0.171.0/*/mention-*.json`), over the trees in `tests/fixtures/prompt-trees/`. The
//! goldens' placeholders (`{WORK}/proj/.claude/skills`, the user folder `{WORK}/home/...` of the
//! two-source capture) become the tree paths the sessions are opened on: Claude Code's
//! `Base directory for this skill:` is built from the source path as given. harness9 (`use_skill`,
//! `/name args`) and DeepAgents 0.7.32 (`read_file` of the listed path) have no goldens here and
//! are checked against their seeds' and profile's rules.

use e2e::goldens::{assert_same, golden, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::session::{Outcome, Session, Settings, Step};
use std::path::PathBuf;

const CLAUDE: &str = "claude-code-2.1.332";
const GEMINI: &str = "gemini-cli-0.61.0";
const CODEX: &str = "codex-0.171.0";

/// A capture: its name, the sources (lowest priority first) and the placeholder map.
struct Capture {
    name: &'static str,
    sources: Vec<String>,
    map: Vec<(&'static str, String)>,
}

/// Every capture, with `project`/`user` the agent's skills folders in the goldens.
fn captures(project: &'static str, user: &'static str, user_first: bool) -> Vec<Capture> {
    let mut out: Vec<Capture> =
        TREES.iter().map(|t| Capture { name: t, sources: vec![tree(t)], map: vec![(project, tree(t))] }).collect();
    let (base, proj) = (tree("override-base"), tree("override-project"));
    // override-base was the user folder, override-project the project folder.
    let sources = if user_first { vec![base.clone(), proj.clone()] } else { vec![proj.clone(), base.clone()] };
    out.push(Capture { name: "override", sources, map: vec![(user, base), (project, proj)] });
    out
}

fn session(agent: &str, sources: &[String], settings: Settings) -> Session {
    let sources: Vec<PathBuf> = sources.iter().map(PathBuf::from).collect();
    Session::new(skillkit::find_agent(agent).unwrap(), &sources, settings)
}

/// Golden files of a capture whose names start with `prefix`, sorted, with the part between
/// the prefix and `.json`.
fn golden_files(agent_dir: &str, capture: &str, prefix: &str) -> Vec<(String, String)> {
    let dir = e2e::goldens::fixtures().join("prompt-goldens").join(agent_dir).join(capture);
    let mut files: Vec<(String, String)> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(prefix) && n.ends_with(".json"))
        .map(|n| (n.clone(), n[prefix.len()..n.len() - ".json".len()].to_string()))
        .collect();
    files.sort();
    files
}

fn json(agent_dir: &str, capture: &str, file: &str) -> serde_json::Value {
    serde_json::from_str(&golden(agent_dir, capture, file).unwrap()).unwrap()
}

fn strings(v: &serde_json::Value) -> Vec<&str> {
    v.as_array().unwrap().iter().map(|b| b.as_str().unwrap()).collect()
}

/// A Skill tool golden against a session turn: the `tool_result`, `is_error` and the text blocks
/// after it.
fn check_tool(out: &Outcome, g: &serde_json::Value, map: &[(&'static str, String)], what: &str) {
    assert_same(&out.result, &substitute(g["tool_result"].as_str().unwrap(), map), what);
    assert_eq!(out.is_error, g["is_error"].as_bool().unwrap(), "{what}");
    let want = strings(&g["blocks"]);
    assert_eq!(out.blocks.len(), want.len(), "{what}");
    for (ours, theirs) in out.blocks.iter().zip(want) {
        assert_same(ours, &substitute(theirs, map), what);
    }
}

/// A slash golden against a session turn: the user message's blocks (the first is the turn's
/// result, the rest its blocks), or nothing sent and the printed notice.
fn check_slash(out: &Outcome, g: &serde_json::Value, map: &[(&'static str, String)], what: &str) {
    match g.get("blocks") {
        Some(blocks) => {
            let want = strings(blocks);
            assert!(!out.is_error, "{what}");
            assert_same(&out.result, &substitute(want[0], map), what);
            assert_eq!(out.blocks.len(), want.len() - 1, "{what}");
            for (ours, theirs) in out.blocks.iter().zip(&want[1..]) {
                assert_same(ours, &substitute(theirs, map), what);
            }
        }
        None => {
            assert_eq!(g["requests"], 0, "{what}");
            assert_eq!(out.result, "", "{what}: nothing is sent");
            let printed = g["stdout"].as_str().unwrap().trim_end_matches('\n');
            assert_eq!(out.note.as_deref(), Some(format!("printed, nothing sent: {printed}").as_str()), "{what}");
        }
    }
}

#[test]
fn claude_code_skill_tool_and_slash_results_equal_the_goldens() {
    let mut checked = 0;
    for c in captures("{WORK}/proj/.claude/skills", "{WORK}/home/.claude/skills", false) {
        for (file, name) in golden_files(CLAUDE, c.name, "slash-") {
            let mut s = session("claude-code", &c.sources, Settings::default());
            let out = s.apply(Step::Slash { name: name.clone(), args: "some args".into() }).outcome.clone();
            assert_eq!(out.call, format!("/{name} some args"));
            check_slash(&out, &json(CLAUDE, c.name, &file), &c.map, &format!("{}/{file}", c.name));
            checked += 1;
        }
        for (file, stem) in golden_files(CLAUDE, c.name, "tool-") {
            if stem == "Skill" {
                continue;
            }
            let (name, allow) = match stem.strip_suffix("-allowedTools") {
                Some(n) => (n.to_string(), vec!["Skill".to_string()]),
                None => (stem.clone(), vec![]),
            };
            let mut s = session("claude-code", &c.sources, Settings { allow, ..Settings::default() });
            let t = s.apply(Step::Invoke { skill: name.clone(), args: Some("some args".into()) }).clone();
            assert_eq!(t.outcome.call, format!("Skill({{\"skill\": \"{name}\", \"args\": \"some args\"}})"));
            let g = json(CLAUDE, c.name, &file);
            check_tool(&t.outcome, &g, &c.map, &format!("{}/{file}", c.name));
            // A launched skill is in the session's state; a refused one is not.
            assert_eq!(t.loaded.contains(&name), !t.outcome.is_error, "{}/{file}", c.name);
            // The context pays for the result and the body block.
            let paid: usize =
                std::iter::once(&t.outcome.result).chain(&t.outcome.blocks).map(|b| b.chars().count()).sum();
            assert_eq!(t.cost.chars, paid);
            checked += 1;
        }
    }
    // Every slash-*.json and tool-*.json golden but tool-Skill.json, as in prompt_claude_code.rs.
    assert_eq!(checked, 89);
}

/// `Skill(name)` allows just that skill; a bare `Skill` rule allows all. The denial names the
/// rule to add.
#[test]
fn claude_code_skill_permission_rules() {
    let t = tree("minimal");
    let sources = std::slice::from_ref(&t);
    let root = e2e::goldens::fixtures().join("prompt-trees/all-fields");
    let all = vec![root.canonicalize().unwrap().to_string_lossy().into_owned()];
    let g = json(CLAUDE, "all-fields", "tool-report-builder.json");
    assert!(g["is_error"].as_bool().unwrap(), "report-builder has allowed-tools: denied without a rule");
    for (allow, denied) in [(vec![], true), (vec!["Skill(other)"], true), (vec!["Skill(report-builder)"], false)] {
        let allow = allow.into_iter().map(String::from).collect();
        let mut s = session("claude-code", &all, Settings { allow, ..Settings::default() });
        let out = s.apply(Step::Invoke { skill: "report-builder".into(), args: None }).outcome.clone();
        assert_eq!(out.is_error, denied, "{out:?}");
        if denied {
            assert_eq!(out.result, skillkit::agents::claude_code::permission_denied_message("report-builder"));
        } else {
            assert_eq!(out.result, "Launching skill: report-builder");
        }
    }
    // A skill without allowed-tools needs no rule.
    let mut s = session("claude-code", sources, Settings::default());
    assert!(!s.apply(Step::Invoke { skill: "hello-note".into(), args: None }).outcome.is_error);
    // An unknown skill is the studio's error.
    let out = s.apply(Step::Invoke { skill: "nope".into(), args: None }).outcome.clone();
    assert!(out.is_error);
    assert_eq!(out.result, "<tool_use_error>Unknown skill: nope</tool_use_error>");
}

/// The same results through `skillkit simulate`: a script with absolute sources and the JSON
/// transcript. Scripts are written in a temporary folder inside this repository: a script's sources
/// stay inside its project (issue #33), here the repository, which holds the fixtures.
#[test]
fn claude_code_through_simulate() {
    let t = tree("claude-fields");
    let map = vec![("{WORK}/proj/.claude/skills", t.clone())];
    let tmp = e2e::repo_tempdir();
    let script = tmp.path().join("claude.yaml");
    std::fs::write(
        &script,
        format!(
            "agent: claude-code\nsources: [\"{t}\"]\nallow: [Skill]\nsteps:\n  - invoke: with-when\n    args: some args\n  - slash: /with-when some args\n  - slash: /model-only some args\n  - invoke: manual-only\n    args: some args\n"
        ),
    )
    .unwrap();
    let out = skillkit(&["simulate", script.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let turns = v["turns"].as_array().unwrap();
    assert_eq!(turns.len(), 4);
    let outcome = |t: &serde_json::Value| Outcome {
        call: t["call"].as_str().unwrap().into(),
        result: t["result"].as_str().unwrap().into(),
        is_error: t["is_error"].as_bool().unwrap(),
        blocks: t.get("blocks").map(|b| strings(b).into_iter().map(String::from).collect()).unwrap_or_default(),
        note: t.get("note").and_then(|n| n.as_str()).map(String::from),
    };
    let c = "claude-fields";
    check_tool(&outcome(&turns[0]), &json(CLAUDE, c, "tool-with-when-allowedTools.json"), &map, "with-when tool");
    check_slash(&outcome(&turns[1]), &json(CLAUDE, c, "slash-with-when.json"), &map, "with-when slash");
    check_slash(&outcome(&turns[2]), &json(CLAUDE, c, "slash-model-only.json"), &map, "model-only slash");
    check_tool(&outcome(&turns[3]), &json(CLAUDE, c, "tool-manual-only-allowedTools.json"), &map, "manual-only");
    assert_eq!(turns[0]["loaded"], serde_json::json!(["with-when"]));
}

#[test]
fn claude_code_arguments_and_variables() {
    let tmp = e2e::repo_tempdir();
    let root = tmp.path().canonicalize().unwrap();
    e2e::write_tree(
        &root,
        &[
            (
                "fix-issue/SKILL.md",
                b"---\ndescription: Fix an issue.\n---\nFix issue $ARGUMENTS[0] in $1 (all: $ARGUMENTS).\nNotes in ${CLAUDE_SKILL_DIR}/notes.md\n",
            ),
            ("plain/SKILL.md", b"---\ndescription: Plain.\n---\nDo it.\n"),
            ("manual/SKILL.md", b"---\ndescription: Manual.\ndisable-model-invocation: true\n---\nBy hand.\n"),
        ],
    );
    let src = root.to_string_lossy().into_owned();
    let mut s = session("claude-code", std::slice::from_ref(&src), Settings::default());
    let out = s.apply(Step::Slash { name: "fix-issue".into(), args: "123 src/main.rs".into() }).outcome.clone();
    assert_eq!(
        out.result,
        "<command-message>fix-issue</command-message>\n<command-name>/fix-issue</command-name>\n<command-args>123 src/main.rs</command-args>\n"
    );
    assert_eq!(
        out.blocks,
        [format!(
            "Base directory for this skill: {src}/fix-issue\n\nFix issue 123 in src/main.rs (all: 123 src/main.rs).\nNotes in {src}/fix-issue/notes.md\n"
        )]
    );
    // No $ARGUMENTS in the body: the ARGUMENTS line is appended.
    let out = s.apply(Step::Slash { name: "plain".into(), args: "a b".into() }).outcome.clone();
    assert_eq!(out.blocks, [format!("Base directory for this skill: {src}/plain\n\nDo it.\n\n\nARGUMENTS: a b")]);
    // No args: no <command-args> line, nothing appended.
    let out = s.apply(Step::Slash { name: "plain".into(), args: String::new() }).outcome.clone();
    assert_eq!(out.result, "<command-message>plain</command-message>\n<command-name>/plain</command-name>\n");
    assert_eq!(out.blocks, [format!("Base directory for this skill: {src}/plain\n\nDo it.\n")]);
    // disable-model-invocation: the model cannot, the user can.
    let out = s.apply(Step::Invoke { skill: "manual".into(), args: None }).outcome.clone();
    assert_eq!(out.result, skillkit::agents::claude_code::model_invocation_refusal("manual"));
    assert!(out.is_error);
    let out = s.apply(Step::Slash { name: "manual".into(), args: String::new() }).outcome.clone();
    assert!(!out.is_error);
    assert_eq!(out.blocks, [format!("Base directory for this skill: {src}/manual\n\nBy hand.\n")]);
    assert_eq!(s.loaded, ["fix-issue", "plain", "manual"]);
}

/// Claude Code's permission patterns for ordinary tools: settings rules and a loaded skill's
/// `allowed-tools` pre-approve; anything else is `claude -p`'s refusal.
#[test]
fn claude_code_tool_permissions() {
    let tmp = e2e::repo_tempdir();
    let root = tmp.path().canonicalize().unwrap();
    e2e::write_tree(
        &root,
        &[(
            "git-log/SKILL.md",
            b"---\ndescription: Read git history.\nallowed-tools: Bash(git log:*) Read\n---\nRun git log.\n",
        )],
    );
    let src = root.to_string_lossy().into_owned();
    let settings = Settings { allow: vec!["Skill".into(), "Bash(npm *)".into()], ..Settings::default() };
    let mut s = session("claude-code", std::slice::from_ref(&src), settings);
    let bash = |s: &mut Session, cmd: &str| {
        s.apply(Step::Tool { name: "Bash".into(), args: serde_json::json!({"command": cmd}) }).outcome.clone()
    };
    let out = bash(&mut s, "git log -3");
    assert!(out.is_error);
    assert_eq!(out.result, "Claude requested permissions to use Bash, but you haven't granted it yet.");
    assert!(!bash(&mut s, "npm test").is_error);
    s.apply(Step::Invoke { skill: "git-log".into(), args: None });
    let out = bash(&mut s, "git log -3");
    assert!(!out.is_error);
    assert_eq!(
        out.note.as_deref(),
        Some("pre-approved by `Bash(git log:*)` in git-log's allowed-tools; the tool would run now")
    );
    assert!(bash(&mut s, "git push").is_error);
    let out = s.apply(Step::Tool { name: "Read".into(), args: serde_json::json!({"file_path": "/etc/hosts"}) });
    assert!(!out.outcome.is_error);
}

#[test]
fn gemini_activate_skill_results_equal_the_goldens() {
    let mut checked = 0;
    for c in captures("{WORK}/proj/.gemini/skills", "{WORK}/home/.gemini/skills", true) {
        let mut s = session("gemini-cli", &c.sources, Settings::default());
        for (file, name) in golden_files(GEMINI, c.name, "activate-") {
            let t = s.apply(Step::Invoke { skill: name.clone(), args: None }).clone();
            let g = json(GEMINI, c.name, &file);
            let what = format!("{}/{file}", c.name);
            assert_same(
                &t.outcome.result,
                &substitute(g["function_response"]["output"].as_str().unwrap(), &c.map),
                &what,
            );
            assert!(!t.outcome.is_error, "{what}");
            assert_eq!(t.outcome.call, format!("activate_skill({{\"name\": \"{name}\"}})"));
            assert!(t.loaded.contains(&name), "{what}");
            checked += 1;
        }
        let out = s.apply(Step::Invoke { skill: "no-such-skill".into(), args: None }).outcome.clone();
        assert!(out.is_error);
        assert!(out.result.starts_with("Error: Skill \"no-such-skill\""), "{}", out.result);
    }
    assert!(checked >= 24, "only {checked} activation goldens");
}

#[test]
fn gemini_through_simulate() {
    let t = tree("minimal");
    let tmp = e2e::repo_tempdir();
    let script = tmp.path().join("gemini.yaml");
    std::fs::write(&script, format!("agent: gemini-cli\nsources: [\"{t}\"]\nsteps:\n  - invoke: hello-note\n"))
        .unwrap();
    let out = skillkit(&["simulate", script.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let g = json(GEMINI, "minimal", "activate-hello-note.json");
    let want = substitute(g["function_response"]["output"].as_str().unwrap(), &[("{WORK}/proj/.gemini/skills", t)]);
    assert_same(v["turns"][0]["result"].as_str().unwrap(), &want, "simulate gemini");
}

#[test]
fn codex_mention_items_equal_the_goldens() {
    let mut checked = 0;
    for c in captures("{WORK}/proj/.agents/skills", "{WORK}/home/.agents/skills", true) {
        let mut s = session("codex", &c.sources, Settings::default());
        for (file, folder) in golden_files(CODEX, c.name, "mention-") {
            let g = json(CODEX, c.name, &file);
            let want: Vec<String> = g["items_after_prompt"]
                .as_array()
                .unwrap()
                .iter()
                .flat_map(|it| strings(&it["texts"]).into_iter().map(|s| substitute(s, &c.map)).collect::<Vec<_>>())
                .collect();
            let out = s.apply(Step::Invoke { skill: folder.clone(), args: Some("some args".into()) }).outcome.clone();
            let what = format!("{}/{file}", c.name);
            assert_eq!(out.call, format!("use ${folder} some args"));
            assert!(!out.is_error, "{what}");
            assert_same(&out.result, &want.join("\n"), &what);
            checked += 1;
        }
    }
    assert!(checked >= 25, "only {checked} mention goldens");
}

#[test]
fn codex_through_simulate() {
    let t = tree("unicode");
    let tmp = e2e::repo_tempdir();
    let script = tmp.path().join("codex.yaml");
    std::fs::write(
        &script,
        format!(
            "agent: codex\nsources: [\"{t}\"]\nsteps:\n  - slash: /unicode-skill some args\n  - invoke: nothing-here\n"
        ),
    )
    .unwrap();
    let out = skillkit(&["simulate", script.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    let g = json(CODEX, "unicode", "mention-unicode-skill.json");
    let want =
        substitute(g["items_after_prompt"][0]["texts"][0].as_str().unwrap(), &[("{WORK}/proj/.agents/skills", t)]);
    assert_same(v["turns"][0]["result"].as_str().unwrap(), &want, "simulate codex");
    // A mention of no listed skill injects nothing.
    assert_eq!(v["turns"][1]["result"], "");
    assert!(v["turns"][1]["note"].as_str().unwrap().contains("matches no single listed skill"));
}

const GO: &str = "---\nname: go-refactor\ndescription: Refactor Go code the team's way.\ntrigger: \"refactor, clean up\"\n---\n# Go refactoring\n\nKeep functions short.\n";

fn harness9_library() -> (tempfile::TempDir, String) {
    let tmp = e2e::repo_tempdir();
    let root = tmp.path().canonicalize().unwrap();
    e2e::write_tree(
        &root,
        &[
            ("go-refactor/SKILL.md", GO.as_bytes()),
            ("sql-review/SKILL.md", b"---\nname: sql-review\ndescription: Review SQL.\n---\nCheck indexes.\n"),
        ],
    );
    (tmp, root.to_string_lossy().into_owned())
}

/// harness9 (seed 002 §4.1, §4.2): `use_skill` returns the body after the frontmatter; `/name
/// args` sends the body, a blank line, the args; unknown names get the error with the list.
#[test]
fn harness9_use_skill_and_slash() {
    let (_t, src) = harness9_library();
    let mut s = session("harness9", std::slice::from_ref(&src), Settings::default());
    let body = "# Go refactoring\n\nKeep functions short.\n";
    let out = s.apply(Step::Invoke { skill: "go-refactor".into(), args: None }).outcome.clone();
    assert_eq!((out.call.as_str(), out.result.as_str(), out.is_error), ("use_skill(\"go-refactor\")", body, false));
    let out = s.apply(Step::Slash { name: "go-refactor".into(), args: "清理 main.go".into() }).outcome.clone();
    assert_eq!(out.result, format!("{body}\n\n清理 main.go"));
    assert_eq!(out.call, "/go-refactor 清理 main.go");
    let out = s.apply(Step::Slash { name: "go-refactor".into(), args: String::new() }).outcome.clone();
    assert_eq!(out.result, body);
    let out = s.apply(Step::Invoke { skill: "nope".into(), args: None }).outcome.clone();
    assert!(out.is_error);
    assert_eq!(out.result, "skill \"nope\" not found; available skills: go-refactor, sql-review");
    let out = s.apply(Step::Slash { name: "nope".into(), args: "x".into() }).outcome.clone();
    assert!(out.is_error);
    assert_eq!(out.result, "");
    // The profile's functions give the same.
    assert_eq!(skillkit::agents::harness9::use_skill(&s.library, "sql-review").0, "Check indexes.\n");
    assert_eq!(
        skillkit::agents::harness9::slash(&s.library, "sql-review", "q.sql").unwrap(),
        "Check indexes.\n\n\nq.sql"
    );
}

#[test]
fn harness9_through_simulate() {
    let (_t, src) = harness9_library();
    let tmp = e2e::repo_tempdir();
    let script = tmp.path().join("h9.yaml");
    std::fs::write(
        &script,
        format!("agent: harness9\nsources: [\"{src}\"]\nsteps:\n  - invoke: go-refactor\n  - slash: /go-refactor fix main.go\n"),
    )
    .unwrap();
    let out = skillkit(&["simulate", script.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["turns"][0]["result"], "# Go refactoring\n\nKeep functions short.\n");
    assert_eq!(v["turns"][1]["result"], "# Go refactoring\n\nKeep functions short.\n\n\nfix main.go");
}

/// DeepAgents 0.7.32: invoking a skill is `read_file` of the `SKILL.md` path the listing shows,
/// with `limit=1000`; the result is `read_file`'s ToolMessage for the file as the session has it.
#[test]
fn deepagents_read_file_invoke() {
    use skillkit::agents::deepagents::read_file::{read_file_result, FileRead};
    let t = tree("minimal");
    let path = format!("{t}/hello-note/SKILL.md");
    let mut s = session("deepagents", std::slice::from_ref(&t), Settings::default());
    assert!(s.prompt_text().contains(&format!("Read `{path}` for full instructions")));
    let out = s.apply(Step::Invoke { skill: "hello-note".into(), args: None }).outcome.clone();
    assert_eq!(out.call, format!("read_file(file_path=\"{path}\", limit=1000)"));
    let bytes = std::fs::read(&path).unwrap();
    let want = read_file_result(&path, FileRead::File(&bytes), 0, 1000);
    assert_eq!((out.result.as_str(), out.is_error), (want.content.as_str(), false));
    assert!(out.result.starts_with("@@ lines 1-"), "{}", out.result);
    assert_eq!(s.loaded, ["hello-note"]);
    // An explicit read_file of a path that is not there is read_file's error.
    let missing = format!("{t}/nothing/SKILL.md");
    let out = s
        .apply(Step::Tool { name: "read_file".into(), args: serde_json::json!({"file_path": missing}) })
        .outcome
        .clone();
    assert!(out.is_error);
    assert_eq!(out.result, read_file_result(&missing, FileRead::Missing, 0, 100).content);
    // After an edit, read_file returns the new text.
    s.apply(Step::Edit {
        skill: "hello-note".into(),
        content: "---\nname: hello-note\ndescription: Writes a short greeting note.\n---\n\nWrite two sentences.\n"
            .into(),
    });
    let out = s.apply(Step::Invoke { skill: "hello-note".into(), args: None }).outcome.clone();
    assert!(out.result.contains("Write two sentences."), "{}", out.result);
    assert!(std::fs::read_to_string(&path).unwrap().contains("Write one friendly sentence."));
}

/// `${CLAUDE_SESSION_ID}` becomes the session's id (`Settings::session_id`) wherever the body
/// has it, as a capture of the real 2.1.330 showed (`/log some args` on a body with the variable
/// twice and `$ARGUMENTS`: both replaced by the session id, the arguments substituted too).
#[test]
fn claude_code_session_id_is_substituted() {
    let tmp = e2e::repo_tempdir();
    let root = tmp.path().canonicalize().unwrap();
    e2e::write_tree(
        &root,
        &[("log/SKILL.md", b"---\ndescription: Log.\n---\nWrite to logs/${CLAUDE_SESSION_ID}.log\n")],
    );
    let src = root.to_string_lossy().into_owned();
    let settings = Settings { session_id: "abc-123".into(), ..Settings::default() };
    let mut s = session("claude-code", std::slice::from_ref(&src), settings);
    let out = s.apply(Step::Slash { name: "log".into(), args: String::new() }).outcome.clone();
    assert_eq!(out.blocks, [format!("Base directory for this skill: {src}/log\n\nWrite to logs/abc-123.log\n")]);
}
