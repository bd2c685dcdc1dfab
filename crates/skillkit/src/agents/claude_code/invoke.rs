//! Invocation texts: what `/name args` and the Skill tool return (for the session simulator).

use super::*;

/// Shell-style splitting of arguments for `$0`, `$ARGUMENTS[N]` and named arguments: words split
/// on whitespace, `'…'` and `"…"` quote, a backslash escapes the next character.
pub fn split_args(args: &str) -> Vec<String> {
    let mut out = vec![];
    let mut cur = String::new();
    let mut has = false;
    let mut chars = args.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                has = true;
                for d in chars.by_ref() {
                    if d == '\'' {
                        break;
                    }
                    cur.push(d);
                }
            }
            '"' => {
                has = true;
                while let Some(d) = chars.next() {
                    match d {
                        '"' => break,
                        '\\' if matches!(chars.peek(), Some('"' | '\\' | '$' | '`')) => cur.push(chars.next().unwrap()),
                        _ => cur.push(d),
                    }
                }
            }
            '\\' => {
                has = true;
                if let Some(d) = chars.next() {
                    cur.push(d);
                }
            }
            c if c.is_whitespace() => {
                if has {
                    out.push(std::mem::take(&mut cur));
                    has = false;
                }
            }
            c => {
                has = true;
                cur.push(c);
            }
        }
    }
    if has {
        out.push(cur);
    }
    out
}

/// Arguments as Claude Code fills them in: `` !` `` and `` `! `` split, a `!` after whitespace
/// escaped, so they cannot start shell commands.
pub(super) fn defuse(args: &str) -> String {
    let s = args.replace("`!", "` !").replace("!`", "! `");
    let mut out = String::with_capacity(s.len());
    let mut prev: Option<char> = None;
    for c in s.chars() {
        if c == '!' && prev.is_none_or(|p| p.is_whitespace()) {
            out.push('\\');
        }
        out.push(c);
        prev = Some(c);
    }
    out
}

pub(super) const HOLD: char = '\u{FFFF}';
pub(super) const MARK: char = '\u{FFFE}';

/// Fills the arguments into a skill text: named `$name`, `$ARGUMENTS[N]`, `$N`, `$ARGUMENTS`
/// (`\$` before one of them keeps it literal); when none was used and `args` is not empty,
/// `\n\nARGUMENTS: {args}` is appended. `None` leaves the text as it is.
pub fn substitute_arguments(text: &str, args: Option<&str>, names: &[String]) -> String {
    let Some(args) = args else { return text.to_string() };
    let mut e = text.replace([HOLD, MARK], "\u{FFFD}");
    let words = split_args(args);
    let wrap = |v: &str| {
        format!("{MARK}{}{MARK}", defuse(v).replace([HOLD, MARK], "\u{FFFD}").replace('$', &HOLD.to_string()))
    };
    let mut used = false;
    let mut named: Vec<(usize, &String)> =
        names.iter().enumerate().filter(|(_, n)| !n.is_empty() && n.len() <= 64).take(64).collect();
    named.sort_by_key(|(_, n)| std::cmp::Reverse(n.len()));
    // `\$` before a placeholder keeps the `$`.
    let mut alts = vec![r"\d".to_string(), "ARGUMENTS".to_string()];
    alts.extend(named.iter().map(|(_, n)| format!(r"{}(?:[^\[\w]|$)", regex::escape(n))));
    let esc = regex::Regex::new(&format!(r"(^|[^\\])\\\$(?:{})", alts.join("|"))).expect("valid regex");
    while let Some(m) = esc.find(&e) {
        let start = m.start() + e[m.start()..].find("\\$").expect("matched");
        e.replace_range(start..start + 2, &HOLD.to_string());
    }
    for (i, n) in &named {
        let re = regex::Regex::new(&format!(r"\${}([^\[\w]|$)", regex::escape(n))).expect("valid regex");
        let v = words.get(*i).cloned().unwrap_or_default();
        if re.is_match(&e) {
            used = true;
            e = re.replace_all(&e, |c: &regex::Captures| format!("{}{}", wrap(&v), &c[1])).into_owned();
        }
    }
    let idx = regex::Regex::new(r"\$ARGUMENTS\[(\d+)\]").expect("valid regex");
    e = idx
        .replace_all(&e, |c: &regex::Captures| match c[1].parse::<usize>().ok().and_then(|n| words.get(n)) {
            Some(v) => {
                used = true;
                wrap(v)
            }
            None => format!("{HOLD}{}", &c[0][1..]),
        })
        .into_owned();
    let pos = regex::Regex::new(r"\$(\d+)(\W|$)").expect("valid regex");
    e = pos
        .replace_all(&e, |c: &regex::Captures| match c[1].parse::<usize>().ok().and_then(|n| words.get(n)) {
            Some(v) => {
                used = true;
                format!("{}{}", wrap(v), &c[2])
            }
            None => c[0].to_string(),
        })
        .into_owned();
    if e.contains("$ARGUMENTS") {
        used = true;
        e = e.replace("$ARGUMENTS", &wrap(args));
    }
    if !used && !args.is_empty() {
        e.push_str("\n\nARGUMENTS: ");
        e.push_str(&wrap(args));
    }
    e.replace(HOLD, "$").replace(MARK, "")
}

/// The text block that brings a skill's instructions into the conversation (slash command and
/// Skill tool alike): `Base directory for this skill: {base_dir}\n\n{body}` with
/// `${CLAUDE_SKILL_DIR}` and the arguments filled in.
pub fn skill_text(skill: &ClaudeSkill, base_dir: &str, args: Option<&str>) -> String {
    let text =
        format!("Base directory for this skill: {base_dir}\n\n{}", skill.body).replace("${CLAUDE_SKILL_DIR}", base_dir);
    substitute_arguments(&text, args, &skill.argument_names)
}

/// The first block of the user message `/name args` sends (with its trailing newline).
pub fn command_message(name: &str, args: &str) -> String {
    let mut s = format!("<command-message>{name}</command-message>\n<command-name>/{name}</command-name>");
    if !args.is_empty() {
        s.push_str(&format!("\n<command-args>{args}</command-args>"));
    }
    s.push('\n');
    s
}

/// What `/name args` in `claude -p` does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Slash {
    /// The user message's text blocks (after the `<system-reminder>` block).
    Blocks(Vec<String>),
    /// Nothing is sent; this is printed (without the final newline).
    Printed(String),
}

/// The notice `/name` prints for a `user-invocable: false` skill (`typed` as the user typed it).
pub fn not_user_invocable_message(typed: &str) -> String {
    format!(
        "This skill can only be invoked by Claude, not directly by users. Ask Claude to use the \"{typed}\" skill for you."
    )
}

/// `/name args` for a loaded skill.
pub fn slash_command(skill: &ClaudeSkill, base_dir: &str, args: &str) -> Slash {
    if !skill.user_invocable {
        return Slash::Printed(not_user_invocable_message(&skill.name));
    }
    Slash::Blocks(vec![command_message(&skill.name, args), skill_text(skill, base_dir, Some(args))])
}

/// The Skill tool's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ToolCall {
    /// The `tool_result` content.
    pub tool_result: String,
    pub is_error: bool,
    /// Text blocks added to the same user message after the tool result.
    pub blocks: Vec<String>,
}

/// `Launching skill: {name}`.
pub fn launching_message(name: &str) -> String {
    format!("Launching skill: {name}")
}

/// The denial in `-p` mode for a skill with `allowed-tools` when `Skill` is not allowed.
pub fn permission_denied_message(name: &str) -> String {
    format!(
        "Execute skill: {name}. The user can add the allow rule Skill({name}) to .claude/settings.local.json to let it run without asking."
    )
}

/// The tool's refusal for a `disable-model-invocation` skill.
pub fn model_invocation_refusal(name: &str) -> String {
    format!(
        "<tool_use_error>Skill {name} cannot be used with Skill tool due to disable-model-invocation. Ask the user to run /{name} themselves \u{2014} it cannot be invoked via the Skill tool. Do not replicate this skill's workflow by other means \u{2014} it is reserved for explicit user invocation.</tool_use_error>"
    )
}

/// `Skill({"skill": name, "args": args})` in `claude -p`; `skill_allowed` is `--allowedTools
/// Skill` (or an allow rule), without which a skill with `allowed-tools` is denied.
pub fn skill_tool_call(skill: &ClaudeSkill, base_dir: &str, args: Option<&str>, skill_allowed: bool) -> ToolCall {
    if skill.disable_model_invocation {
        return ToolCall { tool_result: model_invocation_refusal(&skill.name), is_error: true, blocks: vec![] };
    }
    if !skill.allowed_tools.is_empty() && !skill_allowed {
        return ToolCall { tool_result: permission_denied_message(&skill.name), is_error: true, blocks: vec![] };
    }
    ToolCall {
        tool_result: launching_message(&skill.name),
        is_error: false,
        blocks: vec![skill_text(skill, base_dir, args)],
    }
}
