//! The session: the Skill tool, `/name args` and permission rules.

use super::*;

/// Whether permission rule `rule` (`Read`, `Bash(git:*)`, `Bash(git *)`, `Skill(name)`) covers a
/// call of `tool` whose main argument is `arg` (Bash's command, a file path, a skill name).
/// `Tool(prefix:*)` matches `prefix` alone or followed by a space; `*` elsewhere is a wildcard.
pub fn permission_matches(rule: &str, tool: &str, arg: Option<&str>) -> bool {
    let (name, pattern) = match rule.split_once('(') {
        Some((n, rest)) => (n, rest.strip_suffix(')')),
        None => (rule, None),
    };
    if name != tool {
        return false;
    }
    let Some(pattern) = pattern else { return true };
    let Some(arg) = arg else { return false };
    if let Some(prefix) = pattern.strip_suffix(":*") {
        return arg == prefix || arg.strip_prefix(prefix).is_some_and(|r| r.starts_with(' '));
    }
    glob(pattern, arg)
}

pub(super) fn glob(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split('*').collect();
    if parts.len() == 1 {
        return pattern == text;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || text.len() < first.len() + last.len() || !text.ends_with(last) {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for mid in &parts[1..parts.len() - 1] {
        match rest.find(mid) {
            Some(i) => rest = &rest[i + mid.len()..],
            None => return false,
        }
    }
    true
}

/// What `claude -p` returns for a tool call no rule pre-approves (the interactive CLI asks the
/// user instead).
pub fn not_granted_message(tool: &str) -> String {
    format!("Claude requested permissions to use {tool}, but you haven't granted it yet.")
}

/// The skills Claude Code knows in a library, with their base directories.
pub(super) fn known(lib: &crate::library::Library) -> Vec<(ClaudeSkill, String)> {
    lib.entries
        .iter()
        .filter(|e| e.is_active())
        .filter_map(|e| {
            let base = base_dir(&lib.sources[e.source].path, e);
            load(e, &format!("{base}/SKILL.md")).ok().map(|s| (s, base))
        })
        .collect()
}

/// One session step as Claude Code (`claude -p`) handles it.
pub fn session_step(s: &mut crate::session::Session, step: &crate::session::Step) -> crate::session::Outcome {
    use crate::session::{Outcome, Step};
    // `${CLAUDE_SESSION_ID}` is the session's id wherever the body has it (captured from 2.1.330:
    // every occurrence, with the arguments substituted too).
    let sid = s.settings.session_id.clone();
    let skills: Vec<(ClaudeSkill, String)> = known(&s.library)
        .into_iter()
        .map(|(mut k, base)| {
            k.body = k.body.replace("${CLAUDE_SESSION_ID}", &sid);
            (k, base)
        })
        .collect();
    let find = |name: &str| {
        skills
            .iter()
            .find(|(k, _)| k.name == name)
            .or_else(|| skills.iter().find(|(k, _)| k.display_name.as_deref() == Some(name)))
    };
    match step {
        Step::Invoke { skill, .. } | Step::Load { skill } => {
            let args = match step {
                Step::Invoke { args, .. } => args.as_deref(),
                _ => None,
            };
            let call = match args {
                Some(a) => format!("Skill({{\"skill\": \"{skill}\", \"args\": \"{a}\"}})"),
                None => format!("Skill({{\"skill\": \"{skill}\"}})"),
            };
            let Some((k, base)) = find(skill) else {
                return Outcome::error(call, format!("<tool_use_error>Unknown skill: {skill}</tool_use_error>"))
                    .with_note("not a listed skill (this error text is the studio's; not captured)");
            };
            let allowed = s.settings.allow.iter().any(|r| permission_matches(r, "Skill", Some(&k.name)));
            let r = skill_tool_call(k, base, args, allowed);
            let mut out =
                if r.is_error { Outcome::error(call, r.tool_result) } else { Outcome::ok(call, r.tool_result) };
            out.blocks = r.blocks;
            if !r.is_error {
                if !s.loaded.contains(&k.name) {
                    s.loaded.push(k.name.clone());
                }
                for t in &k.allowed_tools {
                    s.granted.push((t.clone(), k.name.clone()));
                }
            }
            out
        }
        Step::Slash { name, args } => {
            let call = if args.is_empty() { format!("/{name}") } else { format!("/{name} {args}") };
            let Some((k, base)) = find(name) else {
                return Outcome::error(call, String::new()).with_note(format!("Unknown skill: {name}"));
            };
            match slash_command(k, base, args) {
                Slash::Blocks(mut blocks) => {
                    let first = blocks.remove(0);
                    let mut out = Outcome::ok(call, first).with_note("one user message with these text blocks");
                    out.blocks = blocks;
                    if !s.loaded.contains(&k.name) {
                        s.loaded.push(k.name.clone());
                    }
                    for t in &k.allowed_tools {
                        s.granted.push((t.clone(), k.name.clone()));
                    }
                    out
                }
                Slash::Printed(msg) => {
                    Outcome::ok(call, String::new()).with_note(format!("printed, nothing sent: {msg}"))
                }
            }
        }
        Step::Unload { skill } => Outcome::unsupported(format!("unload {skill}"), "claude-code", "unload"),
        Step::Tool { name, args } => {
            let call = format!("{name}({args})");
            let arg = ["command", "file_path", "path", "skill", "url"]
                .iter()
                .find_map(|k| args.get(*k).and_then(|v| v.as_str()))
                .map(str::to_string);
            let from_settings = s.settings.allow.iter().find(|r| permission_matches(r, name, arg.as_deref()));
            let from_skill = s.granted.iter().find(|(r, _)| permission_matches(r, name, arg.as_deref()));
            match (from_settings, from_skill) {
                (Some(r), _) => Outcome::ok(call, String::new())
                    .with_note(format!("pre-approved by the setting `{r}`; the tool would run now")),
                (None, Some((r, skill))) => Outcome::ok(call, String::new())
                    .with_note(format!("pre-approved by `{r}` in {skill}'s allowed-tools; the tool would run now")),
                (None, None) => Outcome::error(call, not_granted_message(name))
                    .with_note("no rule pre-approves it: claude -p denies it (the interactive CLI asks the user)"),
            }
        }
        Step::Edit { .. } | Step::User { .. } | Step::Model { .. } => {
            unreachable!("edits and conversation turns are handled by the session")
        }
    }
}
