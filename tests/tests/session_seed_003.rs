//! Seed `003_32eee1f43a409d1e.txt` §6.1, the `allowed-tools` policy cases (权限控制, plus
//! `test_default_policy_is_recommend`), run through the session simulator: a `deepagents-v2`
//! session with `policy: restrict` or `recommend`, ordinary tool calls as `Step::Tool`. The
//! seed's `wrap_tool_call` either passes the call to the handler (here: a turn that is not an
//! error, with nothing in the context since the simulator runs no tools) or returns the
//! `ToolMessage(status="error")` of §3.4.2 (here: an error turn whose result is that message).

use skillkit::agents::deepagents::v2::{check_allowed_tools, AllowedToolsPolicy, ALWAYS_ALLOWED_TOOLS};
use skillkit::session::{Policy, Session, Settings, Step, Turn};
use std::path::PathBuf;

fn library() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let root = tmp.path().canonicalize().unwrap();
    e2e::write_tree(
        &root,
        &[
            (
                "web-research/SKILL.md",
                b"---\nname: web-research\ndescription: Research a topic on the web.\nallowed-tools: web_search fetch_url\n---\n\nSearch first.\n",
            ),
            (
                "git-helper/SKILL.md",
                b"---\nname: git-helper\ndescription: Explain git history.\nallowed-tools: execute, fetch_url\n---\n\nRun git log.\n",
            ),
            ("plain-notes/SKILL.md", b"---\nname: plain-notes\ndescription: Take notes.\n---\n\nWrite notes.\n"),
        ],
    );
    (tmp, root)
}

fn session(root: &PathBuf, policy: Policy) -> Session {
    let agent = skillkit::find_agent("deepagents-v2").unwrap();
    Session::new(agent, std::slice::from_ref(root), Settings { policy, ..Settings::default() })
}

fn tool(s: &mut Session, name: &str) -> Turn {
    s.apply(Step::Tool { name: name.into(), args: serde_json::json!({"query": "x"}) }).clone()
}

fn load(s: &mut Session, name: &str) {
    let t = s.apply(Step::Load { skill: name.into() });
    assert!(!t.outcome.is_error, "{}", t.outcome.result);
}

fn passes(t: &Turn) -> bool {
    !t.outcome.is_error && t.outcome.result.is_empty()
}

/// `test_allowed_tools_recommend_mode_passthrough`: RECOMMEND never intercepts (§3.4.2's fast
/// path): with a restricting skill loaded, tools outside its list still pass, and the prompt
/// only recommends (`-> Recommended tools`).
#[test]
fn test_allowed_tools_recommend_mode_passthrough() {
    let (_t, root) = library();
    let mut s = session(&root, Policy::Recommend);
    load(&mut s, "web-research");
    for name in ["execute", "write_file", "web_search", "unload_skill", "anything"] {
        let t = tool(&mut s, name);
        assert!(passes(&t), "{name}: {:?}", t.outcome);
        assert!(t.outcome.note.as_deref().unwrap().starts_with("RECOMMEND never blocks"));
    }
    assert!(s.prompt_text().contains("  -> Recommended tools: web_search, fetch_url"));
}

/// `test_allowed_tools_restrict_mode_allows_listed`: under RESTRICT a tool in a loaded skill's
/// `allowed-tools` passes; with two loaded skills, the union of their lists does.
#[test]
fn test_allowed_tools_restrict_mode_allows_listed() {
    let (_t, root) = library();
    let mut s = session(&root, Policy::Restrict);
    load(&mut s, "web-research");
    for name in ["web_search", "fetch_url"] {
        let t = tool(&mut s, name);
        assert!(passes(&t), "{name}: {:?}", t.outcome);
        assert!(t.outcome.note.as_deref().unwrap().starts_with("allowed under RESTRICT"));
    }
    assert!(tool(&mut s, "execute").outcome.is_error);
    load(&mut s, "git-helper");
    assert!(passes(&tool(&mut s, "execute")));
    assert!(passes(&tool(&mut s, "web_search")));
}

/// `test_allowed_tools_restrict_mode_blocks_unlisted`: a tool outside every loaded skill's list is
/// blocked with §3.4.2's message verbatim (the allowed names sorted and deduplicated, as
/// `sorted(all_allowed)` of a set gives), as an error (`status="error"`). The block changes no
/// state; unloading the restricting skill lifts it.
#[test]
fn test_allowed_tools_restrict_mode_blocks_unlisted() {
    let (_t, root) = library();
    let mut s = session(&root, Policy::Restrict);
    load(&mut s, "web-research");
    let t = tool(&mut s, "execute");
    assert!(t.outcome.is_error);
    assert_eq!(
        t.outcome.result,
        "Tool 'execute' is not in the allowed-tools list for the currently loaded skills. Allowed tools: fetch_url, web_search. If you believe this tool is necessary, explain your reasoning."
    );
    assert_eq!(t.outcome.note.as_deref(), Some("blocked by the RESTRICT policy"));
    assert_eq!(t.outcome.call, "execute({\"query\":\"x\"})");
    assert_eq!(t.loaded, ["web-research"]);
    assert!(t.prompt_changes.is_empty());
    load(&mut s, "git-helper");
    let t = tool(&mut s, "write_file");
    assert_eq!(
        t.outcome.result,
        "Tool 'write_file' is not in the allowed-tools list for the currently loaded skills. Allowed tools: execute, fetch_url, web_search. If you believe this tool is necessary, explain your reasoning."
    );
    // The block message enters the context like any tool result.
    assert_eq!(t.cost.chars, t.outcome.result.chars().count());
    s.apply(Step::Unload { skill: "web-research".into() });
    s.apply(Step::Unload { skill: "git-helper".into() });
    assert!(passes(&tool(&mut s, "write_file")));
}

/// `test_allowed_tools_whitelist_always_allowed`: `_ALWAYS_ALLOWED_TOOLS` (`load_skill`,
/// `write_todos`, `read_file`, `ls`) pass under RESTRICT whatever is loaded; `unload_skill` is
/// not on seed 003's list (seed 003 has no unload tool), so as an ordinary call it is judged.
#[test]
fn test_allowed_tools_whitelist_always_allowed() {
    assert_eq!(ALWAYS_ALLOWED_TOOLS, ["load_skill", "write_todos", "read_file", "ls"]);
    let (_t, root) = library();
    let mut s = session(&root, Policy::Restrict);
    load(&mut s, "web-research");
    for name in ALWAYS_ALLOWED_TOOLS {
        let t = tool(&mut s, name);
        assert!(passes(&t), "{name}: {:?}", t.outcome);
    }
    assert!(tool(&mut s, "unload_skill").outcome.is_error);
}

/// `test_allowed_tools_no_loaded_skills_passthrough`: with nothing loaded RESTRICT does not limit
/// (§5.3 point 2), even when listed skills declare `allowed-tools`.
#[test]
fn test_allowed_tools_no_loaded_skills_passthrough() {
    let (_t, root) = library();
    let mut s = session(&root, Policy::Restrict);
    assert!(s.prompt_text().contains("-> Recommended tools: web_search, fetch_url"));
    for name in ["execute", "write_file", "web_search"] {
        assert!(passes(&tool(&mut s, name)), "{name}");
    }
}

/// `test_allowed_tools_no_restrictions_defined_passthrough`: when no loaded skill declares
/// `allowed-tools`, RESTRICT does not limit (§5.3 point 3).
#[test]
fn test_allowed_tools_no_restrictions_defined_passthrough() {
    let (_t, root) = library();
    let mut s = session(&root, Policy::Restrict);
    load(&mut s, "plain-notes");
    for name in ["execute", "write_file", "web_search"] {
        assert!(passes(&tool(&mut s, name)), "{name}");
    }
    // Loading one that does declare a list switches the restriction on.
    load(&mut s, "web-research");
    assert!(tool(&mut s, "execute").outcome.is_error);
}

/// `test_default_policy_is_recommend`: `allowed_tools_policy` defaults to RECOMMEND (§4.1, §4.2):
/// in the engine's enum, the session settings and a script without `policy`; and a default
/// session does not block. The policy never changes the prompt text.
#[test]
fn test_default_policy_is_recommend() {
    assert_eq!(AllowedToolsPolicy::default(), AllowedToolsPolicy::Recommend);
    assert_eq!(Settings::default().policy, Policy::Recommend);
    let script = skillkit::simulate::parse_script("agent: deepagents-v2\nsources: [skills]\nsteps: []\n").unwrap();
    assert_eq!(script.settings.policy, Policy::Recommend);
    let (_t, root) = library();
    let agent = skillkit::find_agent("deepagents-v2").unwrap();
    let mut s = Session::new(agent, std::slice::from_ref(&root), Settings::default());
    load(&mut s, "web-research");
    assert!(passes(&tool(&mut s, "execute")));
    let mut r = session(&root, Policy::Restrict);
    load(&mut r, "web-research");
    assert_eq!(s.prompt_text(), r.prompt_text());
    // The check itself, as the profile exposes it.
    let model = r.skills_prompt.prompt_as::<skillkit::agents::deepagents::v2::SessionPrompt>().unwrap();
    assert!(check_allowed_tools(&model.skills, &r.loaded, "web_search").is_none());
    assert!(check_allowed_tools(&model.skills, &r.loaded, "execute").is_some());
    assert!(check_allowed_tools(&model.skills, &[], "execute").is_none());
}
