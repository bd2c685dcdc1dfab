//! `skillkit prompt --agent letta-code` reproduces the `<available_skills>` block the real Letta
//! Code 0.32.18 (local backend) appends to its system message, byte for byte, on every captured
//! tree (`tests/oracles/capture_letta_code.sh`); its `Skill` tool and the tool's answers (the
//! tool result and the `<skill_content>` message queued after it) match too.

use e2e::goldens::{assert_same, golden, golden_jsons, open_library, substitute, tree, TREES};
use e2e::skillkit;
use skillkit::agents::letta_code;
use skillkit::library::Library;
use skillkit::prompt::Decision;

const AGENT: &str = "letta-code-0.32.18";
const PROJECT_ROOT: &str = "{WORK}/proj/.agents/skills";
const LEGACY_ROOT: &str = "{WORK}/proj/.skills";
const USER_ROOT: &str = "{WORK}/home/.letta/skills";
/// Trees captured for Letta Code besides the shared ones.
const MORE: [&str; 4] = ["name-order", "collation", "same-name", "letta-parse"];

/// A capture: tree name, `--source` folders (lowest priority first), and the placeholders.
type Case = (&'static str, Vec<String>, Vec<(&'static str, String)>);

fn cases() -> Vec<Case> {
    let mut out: Vec<Case> =
        TREES.iter().chain(MORE.iter()).map(|t| (*t, vec![tree(t)], vec![(PROJECT_ROOT, tree(t))])).collect();
    let (base, project) = (tree("override-base"), tree("override-project"));
    out.push(("override", vec![base.clone(), project.clone()], vec![(USER_ROOT, base), (PROJECT_ROOT, project)]));
    // Kept out of prompt-trees (other profiles do not model it): skills nested in folders and in
    // other skills, in a hidden folder, and a lower-case `skill.md` are all found.
    let d = e2e::goldens::fixtures().join("letta-discovery");
    let d = d.canonicalize().unwrap_or(d).to_string_lossy().into_owned();
    out.push(("letta-nested", vec![d.clone()], vec![(PROJECT_ROOT, d)]));
    let (user, legacy, project) = (tree("letta-dup-user"), tree("letta-dup-legacy"), tree("letta-dup-project"));
    out.push((
        "letta-dup",
        vec![user.clone(), legacy.clone(), project.clone()],
        vec![(USER_ROOT, user), (LEGACY_ROOT, legacy), (PROJECT_ROOT, project)],
    ));
    out
}

fn library(sources: &[String]) -> Library {
    open_library(sources, &letta_code::AGENT)
}

/// How every golden but the `*-bundled` ones was captured (`--no-bundled-skills`; meta.json).
const BUNDLED_OFF: &str = "noBundledSkills=true";

fn render(sources: &[String]) -> String {
    render_with(sources, &["--agent-setting", BUNDLED_OFF])
}

fn render_with(sources: &[String], extra: &[&str]) -> String {
    let mut args = vec!["prompt", "--agent", "letta-code"];
    args.extend(extra);
    for s in sources {
        args.extend(["--source", s.as_str()]);
    }
    let out = skillkit(&args);
    assert_eq!(out.code, 0, "{}", out.stderr);
    out.stdout
}

#[test]
fn every_listing_is_byte_exact() {
    let mut checked = 0;
    for (t, sources, _) in cases() {
        let text = render(&sources);
        match golden(AGENT, t, "listing.txt") {
            Some(want) => assert_same(&text, &want, t),
            None => {
                assert!(golden(AGENT, t, "no-listing.txt").is_some(), "no golden for {t}");
                assert_eq!(text, "", "{t}: Letta Code appends no block");
            }
        }
        checked += 1;
    }
    assert_eq!(checked, TREES.len() + MORE.len() + 3);
}

/// The three folders Letta Code reads (`.agents/skills`, the legacy `.skills`, `~/.letta/skills`)
/// list a skill alike.
#[test]
fn every_folder_lists_alike() {
    let ours = render(&[tree("minimal")]);
    for scope in ["project", "project-legacy", "user"] {
        let want = golden(AGENT, "scopes", &format!("listing-{scope}.txt")).unwrap();
        assert_same(&ours, &want, scope);
    }
}

#[test]
fn the_skill_tool_is_letta_codes() {
    let want: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(e2e::goldens::fixtures().join("prompt-goldens").join(AGENT).join("tool-Skill.json"))
            .unwrap(),
    )
    .unwrap();
    for (t, sources, _) in cases() {
        let prompt = letta_code::AGENT.render(&library(&sources), &Default::default()).unwrap();
        assert_eq!(prompt.tools.len(), 1, "{t}: the Skill tool is always offered");
        let tool = &prompt.tools[0];
        assert_eq!(want["name"], tool.name.as_str());
        assert_eq!(want["description"], tool.description.as_str());
        assert_eq!(want["parameters"], tool.parameters);
    }
}

#[test]
fn skill_calls_answer_as_letta_code_does() {
    let mut checked = 0;
    for (t, sources, map) in cases() {
        let lib = library(&sources);
        for (_, f, v) in golden_jsons(AGENT, t, "call-") {
            let name = v["skill"].as_str().unwrap();
            let result = substitute(v["tool_result"].as_str().unwrap(), &map);
            let after: Vec<String> =
                v["after"].as_array().unwrap().iter().map(|m| substitute(m["text"].as_str().unwrap(), &map)).collect();
            match letta_code::activate_with(&lib, name, false) {
                Ok((ours, message)) => {
                    assert_same(&ours, &result, &format!("{t}/{f}"));
                    assert_eq!(after.len(), 1, "{t}/{f}");
                    assert_same(&message, &after[0], &format!("{t}/{f}"));
                }
                Err(ours) => {
                    assert_same(&ours, &result, &format!("{t}/{f}"));
                    assert!(after.is_empty(), "{t}/{f}: {after:?}");
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 15, "only {checked} call goldens");
}

/// The decisions behind the text: a `disable-model-invocation` skill is hidden, a description of
/// several lines is cut to its first, a copy of an id in an earlier location is shadowed, and
/// nothing is ever invalid.
#[test]
fn decisions_name_what_letta_code_did() {
    let of = |sources: &[String], d: Decision| -> Vec<String> {
        let p = letta_code::AGENT.render(&library(sources), &Default::default()).unwrap();
        let mut v: Vec<String> = p.skills.iter().filter(|s| s.decision == d).map(|s| s.name.clone()).collect();
        v.sort();
        v
    };
    let parse = [tree("letta-parse")];
    assert_eq!(of(&parse, Decision::Hidden), ["dmi-upper"]);
    assert_eq!(of(&parse, Decision::Invalid), Vec::<String>::new());
    let cut = of(&parse, Decision::Truncated);
    for name in ["first-line-spaces", "keep-literal", "when-to-use"] {
        assert!(cut.iter().any(|n| n == name), "{name} not truncated: {cut:?}");
    }
    let (_, dup, _) = cases().into_iter().find(|c| c.0 == "letta-dup").unwrap();
    assert_eq!(of(&dup, Decision::Shadowed), ["dup-skill", "dup-skill", "legacy-vs-user"]);
    let nested = e2e::goldens::fixtures().join("letta-discovery");
    let out = skillkit(&["prompt", "--agent", "letta-code", "--source", nested.to_str().unwrap(), "--format", "json"]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let v: serde_json::Value = serde_json::from_str(&out.stdout).unwrap();
    assert_eq!(v["placement"], "system-prompt");
    let text = v["text"].as_str().unwrap();
    for s in v["skills"].as_array().unwrap() {
        let r = &s["range"];
        let (a, b) = (r["start"].as_u64().unwrap() as usize, r["end"].as_u64().unwrap() as usize);
        assert!(text[a..b].starts_with(&format!("- `{}`", s["name"].as_str().unwrap())), "{s}");
    }
}

/// A session's `Skill` call answers with the tool result and the queued message.
#[test]
fn sessions_activate_with_the_skill_tool() {
    let lib = library(&[tree("minimal")]);
    let (result, message) = letta_code::activate(&lib, "hello-note").unwrap();
    let want = substitute(
        golden_jsons(AGENT, "minimal", "call-").iter().find(|(_, _, v)| v["skill"] == "hello-note").unwrap().2["after"]
            [0]["text"]
            .as_str()
            .unwrap(),
        &[(PROJECT_ROOT, tree("minimal"))],
    );
    assert_eq!(result, "Launching skill: hello-note");
    assert_same(&message, &want, "minimal/hello-note");
    let prompt = letta_code::AGENT.render(&lib, &Default::default()).unwrap();
    let call = (letta_code::ACTIVATION.call)(&prompt, "Skill", &serde_json::json!({"skill": "hello-note"}));
    assert_eq!(call, Some(skillkit::agent::SkillCall::invoke("hello-note".into())));
    assert_eq!((letta_code::ACTIVATION.call)(&prompt, "skill", &serde_json::json!({"skill": "hello-note"})), None);
}

/// With the bundled skills on (Letta Code's default, no `--no-bundled-skills`), every listing is
/// byte-exact: the 20 bundled entries sorted in among the library's by id, and the library's copy
/// of a bundled id, from the project or the global folder, listed in its place.
#[test]
fn listings_with_the_bundled_skills_are_byte_exact() {
    let names = tree("bundled-names");
    let cases: [Case; 4] = [
        ("minimal-bundled", vec![tree("minimal")], vec![(PROJECT_ROOT, tree("minimal"))]),
        ("bundled-names-bundled", vec![names.clone()], vec![(PROJECT_ROOT, names.clone())]),
        ("bundled-names-user-bundled", vec![names.clone(), tree("empty")], vec![(USER_ROOT, names.clone())]),
        ("empty-bundled", vec![tree("empty")], vec![]),
    ];
    for (golden_dir, sources, map) in cases {
        let want = golden(AGENT, golden_dir, "listing.txt").unwrap_or_else(|| panic!("no golden for {golden_dir}"));
        assert_same(&render_with(&sources, &[]), &want, golden_dir);
        assert_same(&render_with(&sources, &["--agent-setting", "noBundledSkills=false"]), &want, golden_dir);
        let lib = library(&sources);
        for (_, f, v) in golden_jsons(AGENT, golden_dir, "call-") {
            let name = v["skill"].as_str().unwrap();
            let result = substitute(v["tool_result"].as_str().unwrap(), &map);
            let ours = match letta_code::activate(&lib, name) {
                Ok((ours, message)) => {
                    let after = substitute(v["after"][0]["text"].as_str().unwrap(), &map);
                    assert_same(&message, &after, &format!("{golden_dir}/{f}"));
                    ours
                }
                Err(ours) => ours,
            };
            assert_same(&ours, &result, &format!("{golden_dir}/{f}"));
        }
    }
}

/// A bundled skill gives way to the library's skill of its id, and the verdict names the winner.
#[test]
fn a_bundled_skill_gives_way_to_the_librarys() {
    let p = letta_code::AGENT.render(&library(&[tree("bundled-names")]), &Default::default()).unwrap();
    let replaced: Vec<_> = p.skills.iter().filter(|s| s.decision == Decision::Shadowed).collect();
    assert_eq!(replaced.iter().map(|s| s.name.as_str()).collect::<Vec<_>>(), ["browser-use", "workflow-authoring"]);
    let why = replaced[0].reason.as_deref().unwrap();
    assert!(why.contains("bundled `browser-use` gives way to the library's `browser-use`"), "{why}");
    assert_eq!(p.skills.iter().filter(|s| s.source.is_none() && s.decision == Decision::Full).count(), 18);
    let off = render_with(&[tree("bundled-names")], &["--agent-setting", BUNDLED_OFF]);
    assert!(!off.contains("acquiring-skills") && off.contains("zz-plain"), "{off}");
}
