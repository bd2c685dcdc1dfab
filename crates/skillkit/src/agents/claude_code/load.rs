//! Reading: how Claude Code loads a skill folder (its frontmatter parser and what it skips).

use super::*;

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
pub(super) fn frontmatter_fields(src: &str, parsed: Option<&yaml::Yaml>) -> Result<Vec<(String, Js)>, String> {
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
pub(super) fn heading_text(h: &str) -> Option<&str> {
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
pub(super) fn is_hidden_char(c: char) -> bool {
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

pub(super) fn is_emoji_like(c: char) -> bool {
    let u = c as u32;
    (0x1F000..=0x1FAFF).contains(&u) || (0x2600..=0x27BF).contains(&u) || (0x2B00..=0x2BFF).contains(&u)
}

/// Drops terminal escape sequences (`Bun.stripANSI`): CSI, OSC and two-character ESC sequences.
pub(super) fn strip_ansi(s: &str) -> String {
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
pub(super) fn tool_list(v: Option<&Js>) -> Vec<String> {
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
pub(super) fn argument_names(v: Option<&Js>) -> Vec<String> {
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
pub(super) fn parse_skill_with(
    folder: &str,
    text: &str,
    path: &str,
    skill: Option<&crate::skill::Skill>,
) -> ClaudeSkill {
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

/// Reads every skill as [`render`] does, remembering each reading ([`Agent::read`]).
pub fn read_all(lib: &Library) {
    let input = RenderInput { library: lib, options: &prompt::PromptOptions::default() };
    for e in &lib.entries {
        let path = prompt::listed_file(&input, e);
        e.reading("claude-code", &path, |e| load(e, &path).map(std::sync::Arc::new));
    }
}
