//! Claude Code, verified against Claude Code CLI 2.1.330 (`@anthropic-ai/claude-code`, the native
//! Bun binary): the skill loader, listing and Skill tool read in the JavaScript the binary embeds,
//! and the requests captured from the real program (`claude -p` against a local mock API) on
//! every tree in `tests/fixtures/prompt-trees` (goldens in
//! `tests/fixtures/prompt-goldens/claude-code-2.1.330`) plus extra trees made to settle the edge
//! cases below. Only facts are encoded (formats, limits, messages); none of its code.
//!
//! - Discovery: every direct child folder of a skills folder that holds a file named exactly
//!   `SKILL.md` (a lowercase `skill.md` is not read), hidden folders included, symlinked folders
//!   followed, no recursion. Folders are taken in code-unit order of their names. Files over
//!   1 MiB are skipped with a log line. The command name is the folder name.
//! - Sources: Claude Code loads its folders highest priority first (managed, user `~/.claude/skills`,
//!   project `.claude/skills`) and keeps the first skill of each command name. Our `--source` list
//!   is lowest priority first, so the listing walks the sources from the last one given back to the
//!   first: `--source project --source user` lists the user's skills first and the user's copy wins
//!   a clash, as captured.
//! - Frontmatter: `^---\s*\n([\s\S]*?)---\s*\n?` on the text without its BOM, so the block ends at
//!   the first `---` anywhere (`a --- b` in a value cuts it) and all whitespace after the closing
//!   `---` is dropped from the body; a file starting with a blank line has no frontmatter. The block
//!   is parsed as YAML 1.2 (`Bun.YAML`); when that fails, each `key: value` line whose value holds
//!   one of `{}[]*&#!|>%@`` ` or `: ` is double-quoted and leading tabs become two spaces, and it is
//!   parsed again; when that fails too (a CRLF file with such a line, say), the metadata is empty
//!   and a log line says so. A root that is not a mapping is empty metadata too.
//! - Fields: `description` (trimmed string, or a number or boolean as text; a list or mapping is
//!   dropped with a log line) else the first non-blank body line without its leading `#`s (cut to
//!   97 + `...` past 100 characters) else `Skill`; `when_to_use` (any value as JavaScript text)
//!   appended as ` - {when_to_use}`; both have every run of control, format, unassigned and
//!   invisible characters (newlines of block scalars included) turned into one space and `<`/`>`
//!   escaped as `&lt;`/`&gt;` (`&` and quotes stay). `name` is only a display name (over 256
//!   characters it is ignored); the entry shows `- folder (name)` when the name differs from the
//!   folder, is made of letters, marks, digits, `_`, `:`, `.`, `-`, and no other command answers to
//!   it first (a folder of that name, a built-in command such as `/help`, or an earlier skill with
//!   the same display name). Booleans (`disable-model-invocation`, `user-invocable`) accept
//!   `true/false`, `1/0`, `yes/no`, `on/off` as text too.
//! - Listing: a system-role message in the middle of the conversation holds
//!   `The following skills are available for use with the Skill tool:\n\n` and one line per skill,
//!   `- {name}: {description}` joined by `\n`, no trailing newline; a `disable-model-invocation`
//!   skill is left out; `user-invocable: false` skills are listed. The combined description is cut
//!   past 1,536 UTF-16 code units to 1,535 + `…`. The built-in plugin skill `plugin-authoring` is
//!   always listed last (bundled skills switched off or not).
//! - Budget: `SLASH_COMMAND_TOOL_CHAR_BUDGET` (our `--char-budget`) when set, else
//!   `floor(context window × 3 × 1%)`: 3 characters per token for the default model
//!   `claude-opus-5-5` (4 for the claude-3, opus/sonnet 4.0-4.6 and haiku 4.5 models), whose
//!   window is 1,000,000 tokens, so 30,000 by default (measured: a 37,000-character listing keeps
//!   exactly the 70 descriptions that fit in 30,000). Line lengths are terminal display widths
//!   (wide CJK and emoji count 2, combining marks 0), plus one per joining newline. Over the
//!   budget, built-in skills keep their line, every other skill starts as `- name` and, most used
//!   first (usage counts start at zero, so listing order on a fresh machine), gets its full line
//!   back when the extra width still fits; a later shorter one can fit after a longer one did not.
//! - Invocation: the Skill tool answers `Launching skill: {name}` and adds the body as a text block
//!   (`Base directory for this skill: {dir}\n\n{body}` with `$ARGUMENTS`, `$ARGUMENTS[N]`, `$N`
//!   and named `arguments` filled in, else `\n\nARGUMENTS: {args}` appended); `/name args` sends a
//!   `<command-message>` block and the same body block. In `-p` mode a skill with `allowed-tools`
//!   is denied (`Execute skill: …`) unless `Skill` is allowed; the tool refuses
//!   `disable-model-invocation` skills; `/name` of a `user-invocable: false` skill prints a notice
//!   and sends nothing. `!` shell commands and `${CLAUDE_SESSION_ID}`-style variables other than
//!   `${CLAUDE_SKILL_DIR}` are not expanded here.
//! - Tokens: Claude's tokenizer is not public; counts are o200k estimates.

use crate::agent::{Agent, LintProfile};
use crate::library::discover::DiscoveryPolicy;
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{self, folder_name, Budget, Builder, Decision, Format, Placement, Prompt, RenderInput, ToolDef};
use crate::skill::FileProblem;
use crate::syntax::yaml::{self, Node, NodeKind, ScalarStyle};
use std::path::Path;

pub static AGENT: Agent = Agent {
    id: "claude-code",
    title: "Claude Code",
    source: "Claude Code CLI 2.1.330 (@anthropic-ai/claude-code, real program)",
    lint: LintProfile::DEFAULT,
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Folder,
    prompt: Some(render),
    read: Some(read_all),
};

const FORMAT: Format = Format {
    agent: "claude-code",
    source: AGENT.source,
    placement: Placement::SystemMessage,
    placement_detail: "a role \"system\" message in the middle of the conversation (messages[1], after the first user turn), one text block starting \"# Environment\": the listing follows the agent-type list after \"\\n\\n\" and is followed by \"\\n\\nToday's date is …\"; the text here is the listing from its header line to its last entry",
    default_context_window: DEFAULT_CONTEXT_WINDOW,
    estimate: true,
};

/// The context window of Claude Code 2.1.330's default model, `claude-opus-5-5`.
pub const DEFAULT_CONTEXT_WINDOW: u64 = 1_000_000;
/// Characters per token Claude Code assumes for the default model (4 for older models).
pub const CHARS_PER_TOKEN: u64 = 3;
/// `skillListingMaxDescChars`: the combined description is cut past this many UTF-16 units.
pub const MAX_LISTING_DESCRIPTION: usize = 1536;
/// Skill files larger than this are skipped.
pub const MAX_SKILL_FILE_BYTES: u64 = 1_048_576;
/// `name` values longer than this (UTF-16 units) are ignored.
pub const MAX_NAME: usize = 256;

/// The header line and blank line before the entries.
pub const HEADER: &str = "The following skills are available for use with the Skill tool:\n\n";

/// The built-in plugin skill Claude Code 2.1.330 always lists last.
pub const BUILTIN_NAME: &str = "plugin-authoring";
pub const BUILTIN_DESCRIPTION: &str = "Make a mod: a change to Claude's own interface or behaviour, such as a theme, a panel or pane that stays beside the chat and updates, a band, status line, toast, slash command, or hook on tool calls. Use to make, change or debug a mod or its hooks module.";

/// The Skill tool's description, exactly.
pub const SKILL_TOOL_DESCRIPTION: &str = "Invoke a skill.\n\nA skill is a packaged set of instructions the user or project has set up for a particular kind of task (deploy steps, a review checklist, a repo-specific workflow). Available skills appear in a listing from the system with one-line descriptions. When the task at hand is one a listed skill covers, call this tool first \u{2014} the skill's instructions load into the turn for you to follow in place of your default approach; some skills instead run in a subagent and return the finished result. A skill that runs in the background returns only the agent's name \u{2014} its result arrives later as a task notification, so don't wait on it or invoke it again in the meantime. Users may also ask for one by name (`/<name>`, or \"slash command\"); that's a request to invoke it.\n\n- `skill`: exact name from the listing, no leading slash. Plugin skills use `plugin:skill`. Directory-scoped skills are listed with a path prefix (`apps/web:deploy`); when both scoped and unscoped variants of a name exist, pick the one whose directory contains the files you're working on (most specific wins; unscoped otherwise).\n- `args`: optional arguments to pass through.\n\nOnly names from the listing (or that the user typed explicitly) are valid. Built-in CLI commands (`/help`, `/clear`, \u{2026}) aren't skills. If a `<command-name>` block is already present this turn, the skill is loaded \u{2014} follow it directly rather than calling again.\n";

/// Built-in commands a display name can collide with (a partial list of 2.1.330's commands).
const BUILTIN_COMMANDS: &[&str] = &[
    "add-dir",
    "agents",
    "btw",
    "bug",
    "chrome",
    "clear",
    "compact",
    "config",
    "context",
    "copy",
    "desktop",
    "doctor",
    "effort",
    "exit",
    "export",
    "extra-usage",
    "fast",
    "feedback",
    "help",
    "hooks",
    "ide",
    "insights",
    "install-github-app",
    "keybindings",
    "login",
    "logout",
    "mcp",
    "memory",
    "mobile",
    "model",
    "output-style",
    "permissions",
    "plan",
    "plugin",
    "privacy-settings",
    "release-notes",
    "remote-env",
    "rename",
    "resume",
    "rewind",
    "sandbox",
    "skills",
    "status",
    "statusline",
    "tasks",
    "terminal-setup",
    "theme",
    "todos",
    "upgrade",
    "usage",
];

/// The Skill tool as Claude Code declares it.
pub fn skill_tool() -> ToolDef {
    ToolDef {
        name: "Skill".into(),
        description: SKILL_TOOL_DESCRIPTION.into(),
        parameters: serde_json::json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "skill": {
                    "description": "The name of a skill from the available-skills list. Do not guess names.",
                    "type": "string"
                },
                "args": {"description": "Optional arguments for the skill", "type": "string"}
            },
            "required": ["skill"],
            "additionalProperties": false
        }),
    }
}

// ---------------------------------------------------------------------------------------------
// JavaScript string facts.

/// Length in UTF-16 code units (JavaScript's `.length`).
pub fn utf16_len(s: &str) -> usize {
    s.chars().map(char::len_utf16).sum()
}

/// The first `n` UTF-16 code units of `s` (`s.slice(0, n)`); a surrogate pair cut in half becomes
/// U+FFFD (the lone half JavaScript keeps cannot be sent as UTF-8).
fn utf16_prefix(s: &str, n: usize) -> String {
    let mut out = String::new();
    let mut used = 0;
    for c in s.chars() {
        let w = c.len_utf16();
        if used + w > n {
            if used < n {
                out.push('\u{FFFD}');
            }
            break;
        }
        out.push(c);
        used += w;
    }
    out
}

/// JavaScript's `WhiteSpace` and `LineTerminator` (what `trim()` and `\s` match).
pub fn is_js_space(c: char) -> bool {
    matches!(
        c,
        '\t' | '\n' | '\u{0B}' | '\u{0C}' | '\r' | ' ' | '\u{A0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200A}' | '\u{2028}' | '\u{2029}' | '\u{202F}' | '\u{205F}' | '\u{3000}' | '\u{FEFF}'
    )
}

fn js_trim(s: &str) -> &str {
    s.trim_matches(is_js_space)
}

/// A YAML value as `Bun.YAML.parse` (YAML 1.2 core schema) gives it to JavaScript.
#[derive(Clone, Debug, PartialEq)]
enum Js {
    Null,
    Bool(bool),
    Num(f64),
    Str(String),
    Arr(Vec<Js>),
    Obj,
}

fn js_value(node: &Node) -> Js {
    match &node.kind {
        NodeKind::Scalar { value, style } => {
            if *style != ScalarStyle::Plain || node.tag.as_deref().is_some_and(|t| t.ends_with("str")) {
                return Js::Str(value.clone());
            }
            use crate::syntax::yaml11::Typed;
            match crate::syntax::yaml11::resolve_core(value) {
                Typed::Null => Js::Null,
                Typed::Bool => Js::Bool(value.eq_ignore_ascii_case("true")),
                Typed::Int | Typed::Float => parse_number(value).map_or_else(|| Js::Str(value.clone()), Js::Num),
                _ => Js::Str(value.clone()),
            }
        }
        NodeKind::Sequence(items) => Js::Arr(items.iter().map(js_value).collect()),
        NodeKind::Mapping(_) => Js::Obj,
        NodeKind::Alias => Js::Null,
    }
}

fn parse_number(v: &str) -> Option<f64> {
    let (neg, u) = match v.as_bytes().first() {
        Some(b'-') => (true, &v[1..]),
        Some(b'+') => (false, &v[1..]),
        _ => (false, v),
    };
    let n = if let Some(o) = u.strip_prefix("0o") {
        i128::from_str_radix(o, 8).ok()? as f64
    } else if let Some(x) = u.strip_prefix("0x") {
        i128::from_str_radix(x, 16).ok()? as f64
    } else {
        match u.to_ascii_lowercase().as_str() {
            ".inf" => f64::INFINITY,
            ".nan" => f64::NAN,
            l => l.parse::<f64>().ok()?,
        }
    };
    Some(if neg { -n } else { n })
}

/// `String(n)` of a JavaScript number.
fn js_number(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 { "Infinity" } else { "-Infinity" }.into();
    }
    if f == 0.0 {
        return "0".into();
    }
    let a = f.abs();
    if !(1e-6..1e21).contains(&a) {
        let s = format!("{f:e}");
        return match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e}"),
            _ => s,
        };
    }
    format!("{f}")
}

/// `String(value)` in JavaScript.
fn js_string(v: &Js) -> String {
    match v {
        Js::Null => "null".into(),
        Js::Bool(b) => b.to_string(),
        Js::Num(n) => js_number(*n),
        Js::Str(s) => s.clone(),
        Js::Arr(items) => items
            .iter()
            .map(|i| if *i == Js::Null { String::new() } else { js_string(i) })
            .collect::<Vec<_>>()
            .join(","),
        Js::Obj => "[object Object]".into(),
    }
}

/// Boolean frontmatter fields: `true`/`false`, or text `1/true/yes/on` and `0/false/no/off`.
fn js_flag(v: Option<&Js>) -> Option<bool> {
    let text = match v? {
        Js::Bool(b) => return Some(*b),
        Js::Num(n) => js_number(*n),
        Js::Str(s) => s.clone(),
        _ => return None,
    };
    let t = js_trim(&text).to_lowercase();
    if ["1", "true", "yes", "on"].contains(&t.as_str()) {
        Some(true)
    } else if ["0", "false", "no", "off"].contains(&t.as_str()) {
        Some(false)
    } else {
        None
    }
}

// ---------------------------------------------------------------------------------------------
// Reading.

/// A skill as Claude Code loads it from its `SKILL.md`.
#[derive(Clone, Debug, PartialEq)]
pub struct ClaudeSkill {
    /// The command name: the folder name.
    pub name: String,
    /// `name` from the frontmatter as text, when present and at most 256 characters.
    pub display_name: Option<String>,
    /// The description as listed (joined to one line, `<`/`>` escaped).
    pub description: String,
    /// The description came from the frontmatter (not from the body).
    pub has_user_description: bool,
    /// `when_to_use`, joined and escaped the same way.
    pub when_to_use: Option<String>,
    pub disable_model_invocation: bool,
    pub user_invocable: bool,
    /// `allowed-tools` entries (only whether there are any changes what `-p` mode does).
    pub allowed_tools: Vec<String>,
    /// Named positional arguments (`arguments:`), for `$name` substitution.
    pub argument_names: Vec<String>,
    /// The text after the frontmatter and the whitespace that follows it.
    pub body: String,
    /// What Claude Code logs while reading it.
    pub warnings: Vec<String>,
}

/// Splits the frontmatter the way Claude Code does: `(yaml, body)`, or `None` when the text has
/// no frontmatter block (the body is then the whole text, BOM included).
pub fn split_frontmatter(text: &str) -> Option<(&str, &str)> {
    let t = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let rest = t.strip_prefix("---")?;
    let ws_end = rest.find(|c: char| !is_js_space(c)).unwrap_or(rest.len());
    let last_nl = rest[..ws_end].rfind('\n')?;
    let yaml_start = last_nl + 1;
    let close = rest[yaml_start..].find("---")? + yaml_start;
    let after = &rest[close + 3..];
    let body_at = after.find(|c: char| !is_js_space(c)).unwrap_or(after.len());
    Some((&rest[yaml_start..close], &after[body_at..]))
}

/// The retry Claude Code makes on YAML that does not parse: double-quote `key: value` lines whose
/// value holds a YAML indicator, then turn leading tabs into two spaces each.
pub fn quote_risky_values(yaml: &str) -> String {
    let risky =
        |v: &str| v.contains(['{', '}', '[', ']', '*', '&', '#', '!', '|', '>', '%', '@', '`']) || v.contains(": ");
    let lines: Vec<String> = yaml
        .split('\n')
        .map(|line| {
            let Some(colon) = line.find(':') else { return line.to_string() };
            let key = &line[..colon];
            let rest = &line[colon + 1..];
            let value = rest.trim_start_matches(is_js_space);
            // `^([a-zA-Z_-]+):\s+(\S.*)$`: `.` stops at line terminators, so a CR fails the match.
            let ok = !key.is_empty()
                && key.bytes().all(|b| b.is_ascii_alphabetic() || b == b'_' || b == b'-')
                && value.len() < rest.len()
                && !value.is_empty()
                && !value.contains(['\r', '\n', '\u{2028}', '\u{2029}']);
            if !ok {
                return line.to_string();
            }
            let quoted =
                (value.starts_with('"') && value.ends_with('"')) || (value.starts_with('\'') && value.ends_with('\''));
            if quoted {
                return line.to_string();
            }
            if value.starts_with('[') && value.ends_with(']') {
                let y = yaml::parse(value, 0);
                if y.error.is_none() && matches!(y.root.as_ref().map(|n| &n.kind), Some(NodeKind::Sequence(_))) {
                    return line.to_string();
                }
            }
            if risky(value) {
                return format!("{key}: \"{}\"", value.replace('\\', "\\\\").replace('"', "\\\""));
            }
            line.to_string()
        })
        .collect();
    lines
        .join("\n")
        .split('\n')
        .map(|l| {
            let tabs = l.len() - l.trim_start_matches('\t').len();
            format!("{}{}", "  ".repeat(tabs), &l[tabs..])
        })
        .collect::<Vec<_>>()
        .join("\n")
}

/// The frontmatter's top-level fields as JavaScript values (last duplicate wins), or the parse
/// error when even the retry fails.
fn frontmatter_fields(src: &str, parsed: Option<&yaml::Yaml>) -> Result<Vec<(String, Js)>, String> {
    let mut y = yaml::parse_or(src, parsed);
    if let Some(e) = &y.error {
        let first = e.message.clone();
        y = std::borrow::Cow::Owned(yaml::parse(&quote_risky_values(src), 0));
        if y.error.is_some() {
            return Err(first);
        }
    }
    let Some(entries) = y.root.as_ref().and_then(Node::entries) else { return Ok(vec![]) };
    let mut out: Vec<(String, Js)> = vec![];
    for e in entries {
        let Some(k) = e.key.as_str() else { continue };
        let v = js_value(&e.value);
        match out.iter_mut().find(|(key, _)| key == k) {
            Some(slot) => slot.1 = v,
            None => out.push((k.to_string(), v)),
        }
    }
    Ok(out)
}

/// The description taken from the body: its first non-blank line without leading `#`s, cut to
/// 97 characters + `...` past 100, or `fallback`.
pub fn description_from_body(body: &str, fallback: &str) -> String {
    for line in body.split('\n') {
        let h = js_trim(line);
        if h.is_empty() {
            continue;
        }
        let k = heading_text(h).unwrap_or(h);
        return if utf16_len(k) > 100 { format!("{}...", utf16_prefix(k, 97)) } else { k.to_string() };
    }
    fallback.to_string()
}

/// `^#+\s+(\S.*)$` on a trimmed line.
fn heading_text(h: &str) -> Option<&str> {
    let rest = h.trim_start_matches('#');
    if rest.len() == h.len() {
        return None;
    }
    let text = rest.trim_start_matches(is_js_space);
    if text.len() == rest.len() || text.is_empty() || text.contains(['\r', '\n', '\u{2028}', '\u{2029}']) {
        return None;
    }
    Some(text)
}

/// Characters Claude Code replaces with a space in names and descriptions: control, format,
/// private-use, unassigned and surrogate code points, line and paragraph separators, and a fixed
/// list of invisible ones (Hangul fillers, variation selectors, braille blank, …).
fn is_hidden_char(c: char) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    if c.is_ascii() {
        return c.is_ascii_control();
    }
    const RANGES: &[(u32, u32)] = &[
        (173, 173),
        (847, 847),
        (1564, 1564),
        (4447, 4448),
        (6068, 6069),
        (6155, 6159),
        (8203, 8207),
        (8234, 8238),
        (8288, 8303),
        (12644, 12644),
        (65024, 65039),
        (65279, 65279),
        (65440, 65440),
        (65520, 65531),
        (69759, 69759),
        (78896, 78911),
        (94180, 94180),
        (113824, 113827),
        (119155, 119162),
        (917504, 921599),
        (0x2800, 0x2800),
        (0x2028, 0x2029),
    ];
    let u = c as u32;
    matches!(get_general_category(c), G::Control | G::Format | G::PrivateUse | G::Unassigned | G::Surrogate)
        || RANGES.iter().any(|&(a, b)| (a..=b).contains(&u))
}

fn is_emoji_like(c: char) -> bool {
    let u = c as u32;
    (0x1F000..=0x1FAFF).contains(&u) || (0x2600..=0x27BF).contains(&u) || (0x2B00..=0x2BFF).contains(&u)
}

/// Drops terminal escape sequences (`Bun.stripANSI`): CSI, OSC and two-character ESC sequences.
fn strip_ansi(s: &str) -> String {
    if !s.contains(['\u{1B}', '\u{9B}']) {
        return s.to_string();
    }
    let chars: Vec<char> = s.chars().collect();
    let mut out = String::new();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c == '\u{1B}' && i + 1 < chars.len() && (chars[i + 1] == '[' || chars[i + 1] == ']') || c == '\u{9B}' {
            let osc = c == '\u{1B}' && chars[i + 1] == ']';
            i += if c == '\u{9B}' { 1 } else { 2 };
            if osc {
                while i < chars.len()
                    && chars[i] != '\u{7}'
                    && !(chars[i] == '\u{1B}' && chars.get(i + 1) == Some(&'\\'))
                {
                    i += 1;
                }
                i += if chars.get(i) == Some(&'\u{7}') { 1 } else { 2 };
            } else {
                while i < chars.len() && ('\u{20}'..='\u{3F}').contains(&chars[i]) {
                    i += 1;
                }
                i += 1;
            }
            continue;
        }
        out.push(c);
        i += 1;
    }
    out
}

/// How Claude Code flattens a description, `when_to_use` or display name to one line: terminal
/// escapes removed, each run of hidden characters (newlines, tabs, zero-width and format
/// characters, …) one space; zero-width joiners and variation selectors inside emoji are kept.
pub fn one_line(s: &str) -> String {
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return s.to_string();
    }
    let s = strip_ansi(s);
    let chars: Vec<char> = s.chars().collect();
    let joiners = s.contains(['\u{200C}', '\u{200D}', '\u{FE0F}', '\u{E007F}']);
    let mut out = String::with_capacity(s.len());
    let mut i = 0;
    while i < chars.len() {
        if !is_hidden_char(chars[i]) {
            out.push(chars[i]);
            i += 1;
            continue;
        }
        let mut run = String::new();
        while i < chars.len() && is_hidden_char(chars[i]) {
            let c = chars[i];
            let prev = if i == 0 { None } else { Some(chars[i - 1]) };
            let next = chars.get(i + 1).copied();
            let keep = joiners
                && match c {
                    '\u{200D}' => prev.is_some_and(is_emoji_like) && next.is_some_and(is_emoji_like),
                    '\u{FE0F}' => prev.is_some_and(|p| is_emoji_like(p) || p.is_ascii_digit() || p == '#' || p == '*'),
                    '\u{E0020}'..='\u{E007F}' => true,
                    _ => false,
                };
            if keep {
                run.push(c);
            } else if !run.ends_with(' ') {
                run.push(' ');
            }
            i += 1;
        }
        out.push_str(&run);
    }
    out
}

/// `<` and `>` as `&lt;` and `&gt;` (nothing else).
pub fn escape_angles(s: &str) -> String {
    s.replace('<', "&lt;").replace('>', "&gt;")
}

/// `allowed-tools`: a string or a list of strings, split on spaces and commas outside
/// parentheses.
fn tool_list(v: Option<&Js>) -> Vec<String> {
    let items: Vec<String> = match v {
        Some(Js::Str(s)) => vec![s.clone()],
        Some(Js::Arr(a)) => a.iter().filter_map(|i| if let Js::Str(s) = i { Some(s.clone()) } else { None }).collect(),
        _ => vec![],
    };
    let mut out = vec![];
    for item in items {
        let mut depth = 0i32;
        let mut cur = String::new();
        for c in item.chars() {
            match c {
                '(' => depth += 1,
                ')' => depth -= 1,
                _ => {}
            }
            if depth <= 0 && (c.is_whitespace() || c == ',') {
                if !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
            } else {
                cur.push(c);
            }
        }
        if !cur.is_empty() {
            out.push(cur);
        }
    }
    if out.iter().any(|t| t == "*") {
        return vec!["*".into()];
    }
    out
}

/// `arguments:` names: a whitespace-separated string or a list; not all-digit names.
fn argument_names(v: Option<&Js>) -> Vec<String> {
    let ok = |s: &str| !js_trim(s).is_empty() && !s.bytes().all(|b| b.is_ascii_digit());
    match v {
        Some(Js::Str(s)) => s.split(is_js_space).filter(|t| ok(t)).map(str::to_string).collect(),
        Some(Js::Arr(a)) => {
            a.iter().filter_map(|i| if let Js::Str(s) = i { Some(s.clone()) } else { None }).filter(|s| ok(s)).collect()
        }
        _ => vec![],
    }
}

/// Reads a `SKILL.md` text found in folder `folder` (`path` is used in log lines).
pub fn parse_skill(folder: &str, text: &str, path: &str) -> ClaudeSkill {
    parse_skill_with(folder, text, path, None)
}

/// [`parse_skill`], reusing the engine's parse of `skill` when the frontmatter text is the same.
fn parse_skill_with(folder: &str, text: &str, path: &str, skill: Option<&crate::Skill>) -> ClaudeSkill {
    let mut warnings = vec![];
    let (fields, body) = match split_frontmatter(text) {
        None => (vec![], text.to_string()),
        Some((y, body)) => match frontmatter_fields(y, skill.and_then(|s| s.yaml_for(y))) {
            Ok(f) => (f, body.to_string()),
            Err(e) => {
                warnings.push(format!("[skills] YAML frontmatter in {path} failed to parse and was ignored: {e}"));
                (vec![], body.to_string())
            }
        },
    };
    let get = |k: &str| fields.iter().find(|(key, _)| key == k).map(|(_, v)| v);
    let user_description = match get("description") {
        None | Some(Js::Null) => None,
        Some(Js::Str(s)) => Some(js_trim(s).to_string()).filter(|s| !s.is_empty()),
        Some(v @ (Js::Num(_) | Js::Bool(_))) => Some(js_string(v)),
        Some(_) => {
            warnings.push(format!("Description invalid for {folder} - omitting"));
            None
        }
    };
    let has_user_description = user_description.is_some();
    let description = user_description.unwrap_or_else(|| description_from_body(&body, "Skill"));
    let display_name = match get("name") {
        None | Some(Js::Null) => None,
        Some(v) => {
            let s = js_string(v);
            if utf16_len(&s) <= MAX_NAME {
                Some(s)
            } else {
                warnings.push(format!(
                    "Frontmatter \"name\" of skill {folder} is over {MAX_NAME} characters - ignoring it"
                ));
                None
            }
        }
    };
    let when_to_use = match get("when_to_use") {
        None | Some(Js::Null) => None,
        Some(v) => Some(escape_angles(&one_line(&js_string(v)))),
    };
    ClaudeSkill {
        name: folder.to_string(),
        display_name,
        description: escape_angles(&one_line(&description)),
        has_user_description,
        when_to_use,
        disable_model_invocation: js_flag(get("disable-model-invocation")).unwrap_or(false),
        user_invocable: match get("user-invocable") {
            None => true,
            v => js_flag(v).unwrap_or(false),
        },
        allowed_tools: tool_list(get("allowed-tools")),
        argument_names: argument_names(get("arguments")),
        body,
        warnings,
    }
}

/// Loads a library entry the way Claude Code does, or says why it does not.
pub fn load(entry: &Entry, path: &str) -> Result<ClaudeSkill, String> {
    let skill = &entry.skill;
    if skill.file_name != "SKILL.md" {
        return Err(format!("Claude Code reads only a file named `SKILL.md` (this folder has `{}`)", skill.file_name));
    }
    for p in &skill.file_problems {
        match p {
            FileProblem::Missing => return Err("no SKILL.md".into()),
            FileProblem::TooLarge { size } => {
                return Err(format!("[skills] skipping {path}: {size} bytes exceeds {MAX_SKILL_FILE_BYTES} byte limit"))
            }
            FileProblem::NotAFile { kind } => return Err(format!("[skills] failed to read {path}: it is a {kind}")),
            FileProblem::Unreadable { error } => return Err(format!("[skills] failed to read {path}: {error}")),
            FileProblem::InvalidUtf8 { .. } | FileProblem::Binary { .. } => {}
        }
    }
    let size = skill.text.len() as u64;
    if size > MAX_SKILL_FILE_BYTES {
        return Err(format!("[skills] skipping {path}: {size} bytes exceeds {MAX_SKILL_FILE_BYTES} byte limit"));
    }
    Ok(parse_skill_with(&folder_name(entry), &skill.text, path, Some(skill)))
}

/// The folder Claude Code names in `Base directory for this skill:`: the skills folder as an
/// absolute, normalised path (Claude Code resolves a project's `.claude/skills` from its real
/// working directory: `././skills` is never printed) joined with the skill's folder name
/// (symlinks kept).
pub fn base_dir(source: &Path, entry: &Entry) -> String {
    let src = prompt::path_string(&prompt::absolute(source));
    let sep = if src.ends_with('/') { "" } else { "/" };
    format!("{src}{sep}{}", folder_name(entry))
}

// ---------------------------------------------------------------------------------------------
// The listing.

/// The combined description as listed: `description` plus ` - {when_to_use}`, cut past 1,536
/// UTF-16 units to 1,535 + `…`. The flag says whether it was cut.
pub fn listing_description(skill: &ClaudeSkill) -> (String, bool) {
    let full = match &skill.when_to_use {
        Some(w) => format!("{} - {w}", skill.description),
        None => skill.description.clone(),
    };
    if utf16_len(&full) > MAX_LISTING_DESCRIPTION {
        (format!("{}\u{2026}", utf16_prefix(&full, MAX_LISTING_DESCRIPTION - 1)), true)
    } else {
        (full, false)
    }
}

/// `[\p{L}\p{M}\p{N}_:.-]+`, at most 256 UTF-16 units: a display name Claude Code will show.
fn showable_name(s: &str) -> bool {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    !s.is_empty()
        && utf16_len(s) <= MAX_NAME
        && s.chars().all(|c| {
            matches!(c, '_' | ':' | '.' | '-')
                || matches!(
                    get_general_category(c),
                    G::UppercaseLetter
                        | G::LowercaseLetter
                        | G::TitlecaseLetter
                        | G::ModifierLetter
                        | G::OtherLetter
                        | G::NonspacingMark
                        | G::SpacingMark
                        | G::EnclosingMark
                        | G::DecimalNumber
                        | G::LetterNumber
                        | G::OtherNumber
                )
        })
}

/// The name part of an entry: `name`, or `name (display)` when the display name differs, is
/// showable, and resolves to this skill among `all` (every loaded skill, in load order).
pub fn entry_name(skill: &ClaudeSkill, all: &[&ClaudeSkill]) -> String {
    let Some(display) = &skill.display_name else { return skill.name.clone() };
    if *display == skill.name || !showable_name(display) {
        return skill.name.clone();
    }
    if all.iter().any(|s| s.name == *display) || display == BUILTIN_NAME || BUILTIN_COMMANDS.contains(&display.as_str())
    {
        return skill.name.clone();
    }
    match all.iter().find(|s| s.display_name.as_deref() == Some(display.as_str())) {
        Some(first) if first.name == skill.name => format!("{} ({display})", skill.name),
        _ => skill.name.clone(),
    }
}

/// Terminal display width as Bun's `stringWidth` (ambiguous characters narrow) measures it:
/// wide East Asian and emoji characters 2, combining marks, format and control characters 0,
/// the second half of a joined emoji 0.
pub fn display_width(s: &str) -> usize {
    use unicode_general_category::{get_general_category, GeneralCategory as G};
    // Printable ASCII (the common case) is one column a character.
    if s.bytes().all(|b| (0x20..0x7f).contains(&b)) {
        return s.len();
    }
    let s = strip_ansi(s);
    let mut width = 0;
    let mut prev = '\0';
    for c in s.chars() {
        let u = c as u32;
        let zero = (prev == '\u{200D}' && is_emoji_like(c))
            || (0x1F3FB..=0x1F3FF).contains(&u)
            || matches!(
                get_general_category(c),
                G::Control | G::Format | G::NonspacingMark | G::EnclosingMark | G::Surrogate
            )
            || (0xFE00..=0xFE0F).contains(&u)
            || (0xE0100..=0xE01EF).contains(&u)
            || (0x1160..=0x11FF).contains(&u);
        let w = if zero {
            0
        } else if is_wide(u) {
            2
        } else {
            1
        };
        width += w;
        prev = c;
    }
    width
}

fn is_wide(u: u32) -> bool {
    const WIDE: &[(u32, u32)] = &[
        (0x1100, 0x115F),
        (0x231A, 0x231B),
        (0x2329, 0x232A),
        (0x23E9, 0x23EC),
        (0x23F0, 0x23F0),
        (0x23F3, 0x23F3),
        (0x25FD, 0x25FE),
        (0x2614, 0x2615),
        (0x2648, 0x2653),
        (0x267F, 0x267F),
        (0x2693, 0x2693),
        (0x26A1, 0x26A1),
        (0x26AA, 0x26AB),
        (0x26BD, 0x26BE),
        (0x26C4, 0x26C5),
        (0x26CE, 0x26CE),
        (0x26D4, 0x26D4),
        (0x26EA, 0x26EA),
        (0x26F2, 0x26F3),
        (0x26F5, 0x26F5),
        (0x26FA, 0x26FA),
        (0x26FD, 0x26FD),
        (0x2705, 0x2705),
        (0x270A, 0x270B),
        (0x2728, 0x2728),
        (0x274C, 0x274C),
        (0x274E, 0x274E),
        (0x2753, 0x2755),
        (0x2757, 0x2757),
        (0x2795, 0x2797),
        (0x27B0, 0x27B0),
        (0x27BF, 0x27BF),
        (0x2B1B, 0x2B1C),
        (0x2B50, 0x2B50),
        (0x2B55, 0x2B55),
        (0x2E80, 0x303E),
        (0x3041, 0x33FF),
        (0x3400, 0x4DBF),
        (0x4E00, 0x9FFF),
        (0xA000, 0xA4CF),
        (0xA960, 0xA97F),
        (0xAC00, 0xD7A3),
        (0xF900, 0xFAFF),
        (0xFE10, 0xFE19),
        (0xFE30, 0xFE6F),
        (0xFF00, 0xFF60),
        (0xFFE0, 0xFFE6),
        (0x16FE0, 0x16FE4),
        (0x17000, 0x18AFF),
        (0x1B000, 0x1B2FF),
        (0x1F004, 0x1F004),
        (0x1F0CF, 0x1F0CF),
        (0x1F18E, 0x1F18E),
        (0x1F191, 0x1F19A),
        (0x1F200, 0x1F202),
        (0x1F210, 0x1F23B),
        (0x1F240, 0x1F248),
        (0x1F250, 0x1F251),
        (0x1F260, 0x1F265),
        (0x1F300, 0x1F320),
        (0x1F32D, 0x1F335),
        (0x1F337, 0x1F37C),
        (0x1F37E, 0x1F393),
        (0x1F3A0, 0x1F3CA),
        (0x1F3CF, 0x1F3D3),
        (0x1F3E0, 0x1F3F0),
        (0x1F3F4, 0x1F3F4),
        (0x1F3F8, 0x1F43E),
        (0x1F440, 0x1F440),
        (0x1F442, 0x1F4FC),
        (0x1F4FF, 0x1F53D),
        (0x1F54B, 0x1F54E),
        (0x1F550, 0x1F567),
        (0x1F57A, 0x1F57A),
        (0x1F595, 0x1F596),
        (0x1F5A4, 0x1F5A4),
        (0x1F5FB, 0x1F64F),
        (0x1F680, 0x1F6C5),
        (0x1F6CC, 0x1F6CC),
        (0x1F6D0, 0x1F6D2),
        (0x1F6D5, 0x1F6D7),
        (0x1F6DC, 0x1F6DF),
        (0x1F6EB, 0x1F6EC),
        (0x1F6F4, 0x1F6FC),
        (0x1F7E0, 0x1F7EB),
        (0x1F7F0, 0x1F7F0),
        (0x1F90C, 0x1F93A),
        (0x1F93C, 0x1F945),
        (0x1F947, 0x1F9FF),
        (0x1FA70, 0x1FAFF),
        (0x20000, 0x2FFFD),
        (0x30000, 0x3FFFD),
    ];
    WIDE.iter().any(|&(a, b)| (a..=b).contains(&u))
}

/// The listing budget in characters and the rule that gave it.
pub fn listing_budget(context_window: Option<u64>, char_budget: Option<usize>) -> (usize, String) {
    if let Some(b) = char_budget.filter(|&b| b > 0) {
        return (b, format!("SLASH_COMMAND_TOOL_CHAR_BUDGET={b} (--char-budget)"));
    }
    let ctx = context_window.unwrap_or(DEFAULT_CONTEXT_WINDOW);
    let chars = (ctx.saturating_mul(CHARS_PER_TOKEN) / 100).max(1) as usize;
    (
        chars,
        format!(
            "1% of the context window at {CHARS_PER_TOKEN} characters per token (claude-opus-5-5): floor({ctx} × {CHARS_PER_TOKEN} × 0.01) = {chars}; widths are terminal columns"
        ),
    )
}

/// One line of the listing before the budget is applied.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Line {
    /// `- name` (what the line shrinks to).
    pub name_only: String,
    /// `- name: description`.
    pub full: String,
    /// Built-in skills keep their full line whatever the budget.
    pub fixed: bool,
}

/// Fits `lines` (in listing order, usage counts all zero) into `budget`: which lines keep their
/// description, and the width the full listing needs (display widths plus joining newlines).
pub fn fit(lines: &[Line], budget: usize) -> (Vec<bool>, usize) {
    if lines.is_empty() {
        return (vec![], 0);
    }
    let joins = lines.len() - 1;
    let needed: usize = lines.iter().map(|l| display_width(&l.full)).sum::<usize>() + joins;
    if needed <= budget || lines.iter().all(|l| l.fixed) {
        return (vec![true; lines.len()], needed);
    }
    let base: usize =
        lines.iter().map(|l| display_width(if l.fixed { &l.full } else { &l.name_only })).sum::<usize>() + joins;
    let mut left = budget as i64 - base as i64;
    let mut keep: Vec<bool> = lines.iter().map(|l| l.fixed).collect();
    for (i, l) in lines.iter().enumerate() {
        if l.fixed {
            continue;
        }
        let extra = display_width(&l.full) as i64 - display_width(&l.name_only) as i64;
        if extra <= left {
            keep[i] = true;
            left -= extra;
        }
    }
    (keep, needed)
}

struct Loaded {
    skill: std::sync::Arc<ClaudeSkill>,
    source: Option<usize>,
    path: String,
    /// The entry's folder (`None` for the built-in skill).
    dir: Option<std::path::PathBuf>,
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let lib = input.library;
    let mut b = Builder::default();
    let mut absent = vec![];
    let mut loaded: Vec<Loaded> = vec![];
    // Name -> index in `loaded`.
    let mut slots: std::collections::HashMap<String, usize> = std::collections::HashMap::new();
    // Highest priority first: the last source given, then back to the first.
    for si in (0..lib.sources.len()).rev() {
        let mut entries: Vec<&Entry> = lib.entries.iter().filter(|e| e.source == si).collect();
        sort_as_claude_code(&mut entries, |e| folder_name(e));
        for e in entries {
            let path = prompt::listed_file(input, e);
            let folder = folder_name(e);
            let record = prompt::skill(&folder, &folder, &path, Some(si)).of(e);
            match &*e.reading("claude-code", &path, |e| load(e, &path).map(std::sync::Arc::new)) {
                Err(reason) => {
                    if reason.starts_with('[') {
                        b.warnings.push(reason.clone());
                    }
                    absent.push(record.decided(Decision::Invalid, reason));
                }
                Ok(skill) => {
                    let skill = skill.clone();
                    b.warnings.extend(skill.warnings.iter().cloned());
                    if let Some(winner) = slots.get(&skill.name).map(|&k| &loaded[k]) {
                        let from = winner.source.map_or_else(String::new, |s| input.source_path(s));
                        absent.push(record.decided(
                            Decision::Shadowed,
                            format!(
                                "`{folder}` from {from} wins: Claude Code loads skill folders highest priority first (the last --source first) and keeps the first skill of each name"
                            ),
                        ));
                    } else {
                        slots.insert(skill.name.clone(), loaded.len());
                        loaded.push(Loaded { skill, source: Some(si), path, dir: Some(e.skill.dir.clone()) });
                    }
                }
            }
        }
    }
    let builtin = ClaudeSkill {
        name: BUILTIN_NAME.into(),
        display_name: None,
        description: BUILTIN_DESCRIPTION.into(),
        has_user_description: true,
        when_to_use: None,
        disable_model_invocation: false,
        user_invocable: true,
        allowed_tools: vec![],
        argument_names: vec![],
        body: String::new(),
        warnings: vec![],
    };
    if loaded.iter().any(|l| l.skill.name == BUILTIN_NAME) {
        absent.push(prompt::skill(BUILTIN_NAME, "", "", None).decided(
            Decision::Shadowed,
            "the built-in plugin skill `plugin-authoring` gives way to a skill folder of the same name",
        ));
    } else {
        loaded.push(Loaded { skill: std::sync::Arc::new(builtin), source: None, path: String::new(), dir: None });
    }
    let all: Vec<&ClaudeSkill> = loaded.iter().map(|l| &*l.skill).collect();
    struct Listed<'a> {
        l: &'a Loaded,
        line: Line,
        cut: bool,
    }
    let mut listed: Vec<Listed> = vec![];
    for l in &loaded {
        if l.skill.disable_model_invocation {
            absent.push(prompt::skill(&l.skill.name, &l.skill.name, &l.path, l.source).in_dir(l.dir.clone()).decided(
                Decision::Hidden,
                format!(
                    "disable-model-invocation: true: left out of the listing (only the user can run it, as /{})",
                    l.skill.name
                ),
            ));
            continue;
        }
        let name = entry_name(&l.skill, &all);
        let (desc, cut) = listing_description(&l.skill);
        let name_only = format!("- {name}");
        let full = format!("{name_only}: {desc}");
        listed.push(Listed { l, line: Line { name_only, full, fixed: l.source.is_none() }, cut });
    }
    let (budget, rule) = listing_budget(input.options.context_window, input.options.char_budget);
    let lines: Vec<Line> = listed.iter().map(|x| x.line.clone()).collect();
    let (keep, needed) = fit(&lines, budget);
    if needed > budget && !keep.iter().all(|k| *k) {
        b.warnings.push(format!(
            "Skill listing over budget: {} skills, {needed} chars > {budget} budget \u{2014} descriptions will be truncated. Run /skills to disable some, or raise skillListingBudgetFraction in settings.",
            listed.len()
        ));
    }
    b.push(HEADER.trim_end_matches('\n'));
    b.push("\n\n");
    for (i, x) in listed.iter().enumerate() {
        if i > 0 {
            b.push("\n");
        }
        let s = &x.l.skill;
        let mut record = prompt::skill(
            entry_name(s, &all),
            if x.l.source.is_some() { s.name.as_str() } else { "" },
            &x.l.path,
            x.l.source,
        )
        .in_dir(x.l.dir.clone());
        let text = if keep[i] {
            if x.cut {
                record = record.decided(
                    Decision::Truncated,
                    "description and when_to_use over 1,536 characters (UTF-16 units): cut to 1,535 + \"…\"",
                );
            }
            &x.line.full
        } else {
            record = record.decided(
                Decision::NameOnly,
                format!(
                    "the full listing needs {needed} display columns, over the budget of {budget}: name only (descriptions stay for the most-used skills first; with no usage yet, in listing order while they fit)"
                ),
            );
            &x.line.name_only
        };
        b.entry(record, |t| t.push_str(text));
    }
    for a in absent {
        b.absent(a);
    }
    let budget = Budget { limit: budget, unit: "display columns", needed, rule };
    prompt::finish(&FORMAT, input.options, b, Some(budget), vec![skill_tool()])
}

// ---------------------------------------------------------------------------------------------
// Invocation texts (for the session simulator).

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
fn defuse(args: &str) -> String {
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

const HOLD: char = '\u{FFFF}';
const MARK: char = '\u{FFFE}';

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

// ---------------------------------------------------------------------------------------------
// The session: the Skill tool, `/name args` and permission rules.

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

fn glob(pattern: &str, text: &str) -> bool {
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
fn known(lib: &crate::library::Library) -> Vec<(ClaudeSkill, String)> {
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
        Step::Edit { .. } => unreachable!("edits are handled by the session"),
    }
}

/// Reads every skill as [`render`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    let input = RenderInput { library: lib, options: &prompt::PromptOptions::default() };
    for e in &lib.entries {
        let path = prompt::listed_file(&input, e);
        e.reading("claude-code", &path, |e| load(e, &path).map(std::sync::Arc::new));
    }
}

/// Sorts as Claude Code sorts skill folders: JavaScript's `a.localeCompare(b)` in an English
/// locale, which is ICU's collation of the CLDR root order at full strength with punctuation not
/// ignored (`_` before `-` before `.`, digits before letters, then accents, then case with
/// lowercase first; digits compared one by one). Captured on `tests/fixtures/prompt-trees/
/// collation` (Claude Code 2.1.330); feruca implements the same Unicode Collation Algorithm over
/// the same CLDR root table. Ties (strings ICU finds equal) keep byte order.
pub fn sort_as_claude_code<T: Clone>(items: &mut Vec<T>, key: impl Fn(&T) -> String) {
    let mut collator = feruca::Collator::new(feruca::Tailoring::default(), false, true);
    let mut keyed: Vec<(String, T)> = items.drain(..).map(|t| (key(&t), t)).collect();
    keyed.sort_by(|a, b| collator.collate(a.0.as_str(), b.0.as_str()));
    items.extend(keyed.into_iter().map(|(_, t)| t));
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(name: &str, desc: &str, fixed: bool) -> Line {
        Line { name_only: format!("- {name}"), full: format!("- {name}: {desc}"), fixed }
    }

    #[test]
    fn everything_fits_under_the_budget() {
        let lines = [line("a", "xx", false), line("b", "yy", false)];
        // 7 + 7 + 1 newline.
        assert_eq!(fit(&lines, 15), (vec![true, true], 15));
        assert_eq!(fit(&lines, 14).1, 15);
    }

    #[test]
    fn a_later_shorter_skill_fits_after_a_longer_one_did_not() {
        let lines = [line("a", &"x".repeat(50), false), line("b", "y", false), line("p", "fixed", true)];
        // base: "- a" 3 + "- b" 3 + "- p: fixed" 10 + 2 = 18; a needs +52, b +3.
        let (keep, needed) = fit(&lines, 30);
        assert_eq!(keep, vec![false, true, true]);
        assert_eq!(needed, 55 + 6 + 10 + 2);
    }

    #[test]
    fn fixed_lines_stay_even_over_the_budget() {
        let lines = [line("a", "desc", false), line("p", &"x".repeat(100), true)];
        let (keep, _) = fit(&lines, 10);
        assert_eq!(keep, vec![false, true]);
        let only_fixed = [line("p", &"x".repeat(100), true)];
        assert_eq!(fit(&only_fixed, 10).0, vec![true]);
    }

    #[test]
    fn widths_are_terminal_columns() {
        assert_eq!(display_width("abc"), 3);
        assert_eq!(display_width("日本"), 4);
        assert_eq!(display_width("e\u{301}"), 1);
        assert_eq!(display_width("🚀"), 2);
        assert_eq!(display_width("👍🏽"), 2);
        // A wide description over the budget by width though not by length.
        let lines = [
            line("wide-a", &"日".repeat(100), false),
            line("wide-b", &"b".repeat(100), false),
            line("wide-c", "x", false),
        ];
        let (keep, needed) = fit(&lines, 250);
        assert_eq!(needed, 210 + 110 + 11 + 2);
        assert_eq!(keep, vec![true, false, true]);
    }

    fn skill(desc: &str) -> ClaudeSkill {
        parse_skill("s", &format!("---\nname: s\ndescription: {desc}\n---\nBody\n"), "s/SKILL.md")
    }

    #[test]
    fn the_description_is_cut_in_utf16_units_with_an_ellipsis() {
        let s = skill(&"a".repeat(1536));
        assert_eq!(listing_description(&s), ("a".repeat(1536), false));
        let s = skill(&"a".repeat(1537));
        let (d, cut) = listing_description(&s);
        assert!(cut);
        assert_eq!(d, format!("{}…", "a".repeat(1535)));
        // 🚀 is two UTF-16 units: 767 of them are 1534 units, the 768th would cross 1535.
        let s = skill(&"🚀".repeat(800));
        let (d, _) = listing_description(&s);
        assert_eq!(utf16_len(&d), 1536);
        assert!(d.ends_with("🚀\u{FFFD}…"));
        assert_eq!(utf16_len("🚀"), 2);
    }

    #[test]
    fn frontmatter_reading_matches_claude_code() {
        let s = parse_skill("colon", "---\nname: colon\ndescription: Use when: the user asks\n---\n\nBody\n", "p");
        assert_eq!(s.description, "Use when: the user asks");
        let s = parse_skill("crlf", "---\r\nname: x\r\ndescription: Use when: crlf\r\n---\r\n\r\nCRLF body.\r\n", "p");
        assert_eq!(s.description, "CRLF body.");
        assert_eq!(s.display_name, None);
        assert_eq!(s.warnings.len(), 1);
        let s = parse_skill("d", "---\nname: d\ndescription: uses a --- separator\n---\n\nBody\n", "p");
        assert_eq!(s.description, "uses a");
        assert_eq!(s.body, "separator\n---\n\nBody\n");
        let s = parse_skill("n", "---\nname: 42\ndescription: 1.50\ndisable-model-invocation: yes\n---\nB", "p");
        assert_eq!(s.display_name.as_deref(), Some("42"));
        assert_eq!(s.description, "1.5");
        assert!(s.disable_model_invocation);
        let s = parse_skill("t", "---\nname: t\ndescription: \"a\\tb  c\\u0007d <x> & 'q'\"\n---\n", "p");
        assert_eq!(s.description, "a b  c d &lt;x&gt; & 'q'");
        let s = parse_skill("h", "\n---\nname: h\n---\n", "p");
        assert_eq!(s.description, "---");
        let s = parse_skill("l", &format!("# {}\n", "word ".repeat(30)), "p");
        assert_eq!(s.description, format!("{}...", &"word ".repeat(30)[..97]));
        let s = parse_skill("u", "---\nname: u\nuser-invocable:\nwhen_to_use: [a, b]\n---\nBody", "p");
        assert!(!s.user_invocable);
        assert_eq!(s.when_to_use.as_deref(), Some("a,b"));
    }

    #[test]
    fn display_names_follow_the_command_lookup() {
        let a = parse_skill("a", "---\nname: Upper-Dup\n---\n", "p");
        let b = parse_skill("b", "---\nname: Upper-Dup\n---\n", "p");
        let c = parse_skill("c", "---\nname: a\n---\n", "p");
        let d = parse_skill("d", "---\nname: My Skill\n---\n", "p");
        let e = parse_skill("e", "---\nname: help\n---\n", "p");
        let all = [&a, &b, &c, &d, &e];
        assert_eq!(entry_name(&a, &all), "a (Upper-Dup)");
        assert_eq!(entry_name(&b, &all), "b");
        assert_eq!(entry_name(&c, &all), "c");
        assert_eq!(entry_name(&d, &all), "d");
        assert_eq!(entry_name(&e, &all), "e");
    }

    #[test]
    fn arguments_are_filled_in_or_appended() {
        let names = vec!["file".to_string()];
        assert_eq!(substitute_arguments("Run $ARGUMENTS now", Some("a b"), &[]), "Run a b now");
        assert_eq!(substitute_arguments("Body\n", Some("a b"), &[]), "Body\n\n\nARGUMENTS: a b");
        assert_eq!(substitute_arguments("Body\n", Some(""), &[]), "Body\n");
        assert_eq!(substitute_arguments("$0 and $1 and $5", Some("\"x y\" z"), &[]), "x y and z and $5");
        assert_eq!(substitute_arguments("$ARGUMENTS[1]|$ARGUMENTS[9]", Some("a b"), &[]), "b|$ARGUMENTS[9]");
        assert_eq!(substitute_arguments("Open $file.", Some("f.txt"), &names), "Open f.txt.");
        assert_eq!(substitute_arguments("Costs \\$1, $ARGUMENTS", Some("$ARGUMENTS"), &[]), "Costs $1, $ARGUMENTS");
        assert_eq!(substitute_arguments("x $ARGUMENTS", None, &[]), "x $ARGUMENTS");
    }
}

#[cfg(test)]
mod session_tests {
    use super::*;

    #[test]
    fn permission_rules() {
        assert!(permission_matches("Read", "Read", Some("/x")));
        assert!(permission_matches("Bash(git:*)", "Bash", Some("git status")));
        assert!(permission_matches("Bash(git:*)", "Bash", Some("git")));
        assert!(!permission_matches("Bash(git:*)", "Bash", Some("gitk")));
        assert!(permission_matches("Bash(git *)", "Bash", Some("git diff --stat")));
        assert!(!permission_matches("Bash(git *)", "Bash", Some("rm -rf /")));
        assert!(permission_matches("Skill(pdf)", "Skill", Some("pdf")));
        assert!(!permission_matches("Skill(pdf)", "Skill", Some("docx")));
        assert!(!permission_matches("Bash(python3:*)", "Read", Some("python3 x")));
    }
}
