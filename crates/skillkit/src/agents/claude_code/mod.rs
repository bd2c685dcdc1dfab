//! Claude Code, verified against Claude Code CLI 2.1.332 (`@anthropic-ai/claude-code`, the native
//! Bun binary): the skill loader, listing and Skill tool read in the JavaScript the binary embeds,
//! and the requests captured from the real program (`claude -p` against a local mock API) on
//! every tree in `tests/fixtures/prompt-trees` (goldens in
//! `tests/fixtures/prompt-goldens/claude-code-2.1.332`) plus extra trees made to settle the edge
//! cases below. Only facts are encoded (formats, limits, messages); none of its code.
//! Reviewed 2.1.332 (`tests/oracles/drift.sh`): every golden captured from 2.1.330 came back
//! byte-identical, so no 2.1.330 profile is kept; the built-in command rule below holds for both.
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
//!   it first (a folder of that name, one of the built-in commands in [`BUILTIN_COMMANDS`] such
//!   as `/help` or `/security-review`, captured, or an earlier skill with the same display name);
//!   the rule is the same in the full and the names-only listing. Booleans (`disable-model-invocation`, `user-invocable`) accept
//!   `true/false`, `1/0`, `yes/no`, `on/off` as text too.
//! - Listing: a system-role message in the middle of the conversation holds
//!   `The following skills are available for use with the Skill tool:\n\n` and one line per skill,
//!   `- {name}: {description}` joined by `\n`, no trailing newline; a `disable-model-invocation`
//!   skill is left out; `user-invocable: false` skills are listed. The combined description is cut
//!   past 1,536 UTF-16 code units to 1,535 + `…`. After the library's skills come Claude Code's
//!   own: its bundled skills ([`BUNDLED`], ten, in its registration order: `dataviz` … `run`), the
//!   built-in plugin skill `plugin-authoring`, then the built-in commands `init` and
//!   `security-review` ([`BUNDLED_COMMANDS`]). The bundled skills and the two commands are on by
//!   default and left out with `disableBundledSkills: true` (settings file or `--agent-setting`;
//!   every golden outside `settings-bundled-*` was captured with them off); `plugin-authoring`
//!   always stays. A library skill folder of one of these names replaces it (the library's line
//!   in the library's place, captured on `bundled-names`). The set is the one `claude -p` lists
//!   with an API key and no network (it depends on Claude Code's feature gates). Claude Code's
//!   own entries are listed as written (raw newlines in `claude-api`'s kept), cut by
//!   `skillListingMaxDescChars` and `skillOverrides` like any other (`settings-bundled-max-desc-overrides`).
//! - Budget: `SLASH_COMMAND_TOOL_CHAR_BUDGET` (our `--char-budget`) when set, else
//!   `floor(context window × 3 × 1%)`: 3 characters per token for the default model
//!   `claude-opus-5-5` (4 for the claude-3, opus/sonnet 4.0-4.6 and haiku 4.5 models), whose
//!   window is 1,000,000 tokens, so 30,000 by default (measured: a 37,000-character listing keeps
//!   exactly the 70 descriptions that fit in 30,000). Line lengths are terminal display widths
//!   (wide CJK and emoji count 2, combining marks 0), plus one per joining newline. Over the
//!   budget, built-in and bundled skills keep their line (about 6,200 columns of the 30,000 with
//!   the bundled skills on: `settings-bundled-budget-60` lists 56 of 60 in full, 60 without), every other skill starts as `- name` and, most used
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
//!
//! The code is in one file per job: `js` (JavaScript string facts), `load` (reading a skill
//! folder), `listing` (the injected text and its budget), `invoke` (what an invocation returns)
//! and `session` (the Skill tool, `/name args` and permission rules in a session).

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::library::discover::DiscoveryPolicy;
use crate::library::{Entry, Library, NameKey};
use crate::prompt::{self, folder_name, Budget, Builder, Decision, Prompt, RenderInput};
use crate::skill::FileProblem;
use crate::syntax::yaml::{self, Node, NodeKind, ScalarStyle};
use std::path::Path;

mod facts;
mod invoke;
mod js;
mod listing;
mod load;
mod session;

pub use self::{facts::*, invoke::*, js::*, listing::*, load::*, session::*};

pub static AGENT: Agent = Agent {
    id: "claude-code",
    title: "Claude Code",
    kind: AgentKind::Agent,
    label: "Claude Code 2.1",
    source: SOURCE,
    lint: LintProfile::DEFAULT,
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Folder,
    prompt: Some(render),
    read: Some(read_all),
    activation: Some(ACTIVATION),
    installs: &[
        crate::package::format::PackageFormat::ClaudePlugin,
        crate::package::format::PackageFormat::ClaudeMarketplace,
    ],
};

/// A skill is activated by the `Skill` tool naming it (the listing's only way in).
pub const ACTIVATION: crate::agent::Activation = crate::agent::Activation {
    rule: "`Skill` with `skill: S`",
    tools: |p| p.tools.clone(),
    call: |p, name, args| {
        if name != "Skill" {
            return None;
        }
        let skill = crate::agents::activation::skill_named_by(p, args, "skill")?;
        Some(crate::agent::SkillCall::Invoke {
            skill,
            args: args.get("args").and_then(|a| a.as_str()).map(str::to_string),
        })
    },
};
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
