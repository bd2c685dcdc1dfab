//! The listing: the text Claude Code injects to advertise skills, within its budget.

use super::*;
use crate::agent_settings::{self, SkillOverride};

/// The combined description as listed: `description` plus ` - {when_to_use}`, cut past 1,536
/// UTF-16 units to 1,535 + `…`. The flag says whether it was cut.
pub fn listing_description(skill: &ClaudeSkill) -> (String, bool) {
    listing_description_within(skill, MAX_LISTING_DESCRIPTION)
}

/// [`listing_description`] under `skillListingMaxDescChars = max` (at least 1): past `max`
/// UTF-16 units, the first `max - 1` + `…` (captured with 20 and 100 in 2.1.330).
pub fn listing_description_within(skill: &ClaudeSkill, max: usize) -> (String, bool) {
    let max = max.max(1);
    let full = match &skill.when_to_use {
        Some(w) => format!("{} - {w}", skill.description),
        None => skill.description.clone(),
    };
    if utf16_len(&full) > max {
        (format!("{}\u{2026}", utf16_prefix(&full, max - 1)), true)
    } else {
        (full, false)
    }
}

/// `[\p{L}\p{M}\p{N}_:.-]+`, at most 256 UTF-16 units: a display name Claude Code will show.
pub(super) fn showable_name(s: &str) -> bool {
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

pub(super) fn is_wide(u: u32) -> bool {
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
    listing_budget_with(context_window, char_budget.map(|b| (b, "--char-budget")), None)
}

/// The listing budget as Claude Code 2.1.330 computes it: `SLASH_COMMAND_TOOL_CHAR_BUDGET` when
/// set (with where it was set), else `max(1, floor(window × chars per token × fraction))` in
/// double-precision arithmetic, multiplied left to right as its JavaScript does, the fraction
/// being `skillListingBudgetFraction` (default 0.01).
pub fn listing_budget_with(
    context_window: Option<u64>,
    char_budget: Option<(usize, &str)>,
    fraction: Option<f64>,
) -> (usize, String) {
    if let Some((b, from)) = char_budget.filter(|&(b, _)| b > 0) {
        return (b, format!("SLASH_COMMAND_TOOL_CHAR_BUDGET={b} ({from})"));
    }
    let ctx = context_window.unwrap_or(DEFAULT_CONTEXT_WINDOW);
    let share = fraction.unwrap_or(DEFAULT_BUDGET_FRACTION);
    let chars = ((ctx as f64 * CHARS_PER_TOKEN as f64 * share).floor().max(1.0)) as usize;
    let rule = match fraction {
        None => format!(
            "1% of the context window at {CHARS_PER_TOKEN} characters per token (claude-opus-5-5): floor({ctx} × {CHARS_PER_TOKEN} × 0.01) = {chars}; widths are terminal columns"
        ),
        Some(f) => format!(
            "skillListingBudgetFraction {f} of the context window at {CHARS_PER_TOKEN} characters per token (claude-opus-5-5): floor({ctx} × {CHARS_PER_TOKEN} × {f}) = {chars}; widths are terminal columns"
        ),
    };
    (chars, rule)
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

pub(super) struct Loaded {
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
    let builtin = |name: &str, description: &str| ClaudeSkill {
        name: name.into(),
        display_name: None,
        description: description.into(),
        has_user_description: true,
        when_to_use: None,
        disable_model_invocation: false,
        user_invocable: true,
        allowed_tools: vec![],
        argument_names: vec![],
        body: String::new(),
        warnings: vec![],
    };
    // The bundled skills (on unless `disableBundledSkills: true`), then the built-in plugin skill,
    // then the built-in commands listed as skills; a library skill of the same name replaces each.
    let bundled = input.options.settings.flag(agent_settings::DISABLE_BUNDLED) != Some(true);
    let none: &[(&str, &str)] = &[];
    let builtins = (if bundled { BUNDLED } else { none })
        .iter()
        .chain([(BUILTIN_NAME, BUILTIN_DESCRIPTION)].iter())
        .chain((if bundled { BUNDLED_COMMANDS } else { none }).iter());
    for (name, description) in builtins {
        if let Some(l) = loaded.iter().find(|l| l.skill.name == *name) {
            let what = if *name == BUILTIN_NAME { "built-in plugin skill" } else { "bundled skill" };
            absent.push(prompt::skill(*name, "", "", None).decided(
                Decision::Shadowed,
                format!(
                    "Claude Code's {what} `{name}` gives way to the library's skill folder of the same name ({})",
                    l.path
                ),
            ));
        } else {
            let skill = std::sync::Arc::new(builtin(name, description));
            loaded.push(Loaded { skill, source: None, path: String::new(), dir: None });
        }
    }
    let all: Vec<&ClaudeSkill> = loaded.iter().map(|l| &*l.skill).collect();
    let settings = &input.options.settings;
    let max_desc = settings.count(agent_settings::MAX_DESC_CHARS).map_or(MAX_LISTING_DESCRIPTION, |n| n as usize);
    let origin_of = |name: &str| match settings.override_origin(name) {
        Some(agent_settings::Origin::AgentFile { path }) => format!(" (set in {})", prompt::path_string(path)),
        Some(agent_settings::Origin::Config { path }) => format!(" (set in {})", prompt::path_string(path)),
        Some(agent_settings::Origin::CommandLine { flag }) => format!(" (set by {flag})"),
        _ => String::new(),
    };
    struct Listed<'a> {
        l: &'a Loaded,
        line: Line,
        cut: bool,
        /// `skillOverrides` says `name-only`.
        name_only: bool,
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
        let o = settings.skill_override(&l.skill.name);
        if let Some(o @ (SkillOverride::Off | SkillOverride::UserInvocableOnly)) = o {
            let what = if o == SkillOverride::Off {
                "turned off for the model and for /name".to_string()
            } else {
                format!("left out of the listing (only the user can run it, as /{})", l.skill.name)
            };
            absent.push(prompt::skill(&l.skill.name, &l.skill.name, &l.path, l.source).in_dir(l.dir.clone()).decided(
                Decision::Hidden,
                format!("skillOverrides: \"{}\"{}: {what}", o.as_str(), origin_of(&l.skill.name)),
            ));
            continue;
        }
        if o == Some(SkillOverride::NameOnly) {
            // Listed as `- {command name}` (never the display name), kept whatever the budget.
            let line = format!("- {}", l.skill.name);
            listed.push(Listed {
                l,
                line: Line { name_only: line.clone(), full: line, fixed: true },
                cut: false,
                name_only: true,
            });
            continue;
        }
        let name = entry_name(&l.skill, &all);
        let (desc, cut) = listing_description_within(&l.skill, max_desc);
        let name_only = format!("- {name}");
        let full = format!("{name_only}: {desc}");
        listed.push(Listed { l, line: Line { name_only, full, fixed: l.source.is_none() }, cut, name_only: false });
    }
    let char_budget = match input.options.char_budget {
        Some(b) => Some((b, "--char-budget".to_string())),
        None => settings.count(agent_settings::CHAR_BUDGET).map(|b| {
            let from = match settings
                .effective("claude-code")
                .into_iter()
                .find(|e| e.key == agent_settings::CHAR_BUDGET)
                .map(|e| e.origin)
            {
                Some(agent_settings::Origin::AgentFile { path }) => format!("env in {}", prompt::path_string(&path)),
                Some(agent_settings::Origin::Config { path }) => prompt::path_string(&path),
                Some(agent_settings::Origin::CommandLine { flag }) => flag,
                _ => "settings".into(),
            };
            (b as usize, from)
        }),
    };
    let (budget, rule) = listing_budget_with(
        input.options.context_window,
        char_budget.as_ref().map(|(b, f)| (*b, f.as_str())),
        settings.number(agent_settings::BUDGET_FRACTION),
    );
    let lines: Vec<Line> = listed.iter().map(|x| x.line.clone()).collect();
    let (keep, needed) = fit(&lines, budget);
    // What Claude Code's own entries (bundled skills, the plugin skill) take of the budget.
    let builtin_names: Vec<&str> =
        listed.iter().filter(|x| x.l.source.is_none()).map(|x| x.l.skill.name.as_str()).collect();
    let builtin_width: usize =
        listed.iter().filter(|x| x.l.source.is_none()).map(|x| display_width(&x.line.full) + 1).sum();
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
            if x.name_only { s.name.clone() } else { entry_name(s, &all) },
            if x.l.source.is_some() { s.name.as_str() } else { "" },
            &x.l.path,
            x.l.source,
        )
        .in_dir(x.l.dir.clone());
        let text = if x.name_only {
            record = record.decided(
                Decision::NameOnly,
                format!("skillOverrides: \"name-only\"{}: listed without its description", origin_of(&s.name)),
            );
            &x.line.full
        } else if keep[i] {
            if x.cut {
                record = record.decided(
                    Decision::Truncated,
                    if max_desc == MAX_LISTING_DESCRIPTION {
                        "description and when_to_use over 1,536 characters (UTF-16 units): cut to 1,535 + \"…\"".to_string()
                    } else {
                        format!("description and when_to_use over skillListingMaxDescChars = {max_desc} (UTF-16 units): cut to {} + \"…\"", max_desc.max(1) - 1)
                    },
                );
            }
            &x.line.full
        } else {
            record = record.decided(
                Decision::NameOnly,
                format!(
                    "the full listing needs {needed} display columns, over the budget of {budget}: name only (descriptions stay for the most-used skills first; with no usage yet, in listing order while they fit){}",
                    if builtin_width > 0 && builtin_names.len() > 1 {
                        format!("; Claude Code's own skills ({}) keep their whole lines and take {builtin_width} of the {budget}", builtin_names.join(", "))
                    } else {
                        String::new()
                    }
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
