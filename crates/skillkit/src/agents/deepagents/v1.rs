//! DeepAgents `SkillsMiddleware` V1 as a seed document describes it: seed
//! `004_3536bc534ef998c7.txt`, a blog walk-through ("SkillsMiddleware解析", 2026-03-05; the page
//! starts with unrelated feed links). Sections below are the article's own table of contents
//! ("§2.1 技能加载机制" … "§7 渐进式披露模式").
//!
//! - Source: sources are backend folders given in order (§2.3.3 初始化参数 `sources`, §2.3.3
//!   使用示例 `["/skills/base/", "/skills/user/", "/skills/project/"]`); "后面的源会覆盖前面的源
//!   (last one wins)" (§2.1). The seed does not say where the winner is listed: as in the real
//!   program ([`crate::agents::deepagents`], 0.7.32) it keeps the slot of the skill it replaced (a Python
//!   dict keyed by name; seed 000 §3.3 quotes that loop, `all_skills[skill["name"]] = skill`).
//! - Discovery: each skill is a folder holding `SKILL.md` (§2.2 技能结构); only direct child
//!   folders of a source (the seed shows no deeper layout; 0.7.32 lists the source with `ls`).
//!   Order within a source is not in the seed: 0.7.32's (paths sorted with their trailing `/`).
//! - Reading: the `SkillMetadata` fields (§2.3.1: name ≤ 64, description ≤ 1,024, path, license,
//!   compatibility ≤ 500, metadata, allowed_tools), the name rules (§4: lowercase alphanumerics
//!   and single hyphens, ≤ 64, must match the folder), 10 MB file limit (§5), POSIX backend paths
//!   (§6). The seed does not say what happens to a skill that breaks a rule; the loader is the
//!   real one ([`crate::agents::deepagents::read`], shared with `deepagents-v2`): a bad name only warns,
//!   a description over 1,024 characters is cut, a file without `name`/`description`, with broken
//!   YAML or over 10 MB is skipped with a logged warning.
//! - Text: the template of §3 (系统提示模板) verbatim, [`SKILLS_SYSTEM_PROMPT`], "注入系统提示"
//!   by `modify_request` into the system message (§2.3.3 核心方法). The seed shows the template
//!   from `## Skills System` to `...the task!` and no `{skills_load_warnings}` slot; it does not
//!   define the two slots. Choices where it is silent (from 0.7.32):
//!   - `{skills_locations}`: one line `**{label} Skills**: `{source}`` per source as given, joined
//!     with `\n`, ` (higher priority)` after the last; label by
//!     [`crate::agents::deepagents::source_label`].
//!   - `{skills_list}`: per skill `- **{name}**: {description}`, ` (License: …, Compatibility: …)`
//!     when set, `\n  -> Allowed tools: a, b` when `allowed-tools` is set, then
//!     ``\n  -> Read `{path}` for full instructions``; skills joined with `\n`; `{path}` is the
//!     backend path (the source made absolute) `/{folder}/SKILL.md`.
//!   - An empty library: `(No skills available yet. You can create skills in {a} or {b})`.
//!   - No newline before or after the template (the blog shows none; 0.7.32's literal has none;
//!     the January 2026 literal the blog copies began with `\n\n` and ended with `\n`).
//!   - Load errors: the template has no warnings slot, so a missing source is only logged (the
//!     0.7.32 message, in `warnings`), never shown.
//! - Budget and tools: none. Every skill is listed in full (no listing budget in the seed); the
//!   model reads the listed path itself (§3 step 2 "Use the path shown in the skill list above",
//!   §7), so the profile offers no skill tool.

use crate::agent::{Agent, AgentKind, LintProfile};
use crate::agents::deepagents::{empty_list, entry_text, listed, load, locations, Loaded};
use crate::library::discover::DiscoveryPolicy;
use crate::library::NameKey;
use crate::prompt::{self, Builder, Format, Placement, Prompt, RenderInput};

pub static AGENT: Agent = Agent {
    id: "deepagents-v1",
    title: "DeepAgents V1 (seed template)",
    kind: AgentKind::TestProfile,
    label: "DeepAgents V1 (seed)",
    source: "seed 004_3536bc534ef998c7.txt (the V1 template quoted there)",
    lint: LintProfile::DEFAULT,
    discovery: DiscoveryPolicy::CHILDREN,
    key: NameKey::Frontmatter,
    prompt: Some(render),
    read: Some(crate::agents::deepagents::read_all),
    activation: Some(ACTIVATION),
    installs: &[],
};

const FORMAT: Format = Format {
    agent: "deepagents-v1",
    source: AGENT.source,
    placement: Placement::SystemPrompt,
    placement_detail: "injected into the system message by modify_request on every model call (seed 004 §2.3.3); appended after \"\\n\\n\" when a base prompt exists (DeepAgents' append_to_system_message)",
    default_context_window: 200_000,
    estimate: false,
};

/// The system-prompt template of seed 004 §3 (系统提示模板), verbatim.
pub const SKILLS_SYSTEM_PROMPT: &str = r#"## Skills System

You have access to a skills library that provides specialized capabilities and domain knowledge.

{skills_locations}

**Available Skills:**

{skills_list}

**How to Use Skills (Progressive Disclosure):**

Skills follow a **progressive disclosure** pattern - you see their name and description above, but only read full instructions when needed:

1. **Recognize when a skill applies**: Check if the user's task matches a skill's description
2. **Read the skill's full instructions**: Use the path shown in the skill list above
3. **Follow the skill's instructions**: SKILL.md contains step-by-step workflows, best practices, and examples
4. **Access supporting files**: Skills may include helper scripts, configs, or reference docs - use absolute paths

**When to Use Skills:**
- User's request matches a skill's domain (e.g., "research X" -> web-research skill)
- You need specialized knowledge or structured workflows
- A skill provides proven patterns for complex tasks

**Executing Skill Scripts:**
Skills may contain Python scripts or other executable files. Always use absolute paths from the skill list.

**Example Workflow:**

User: "Can you research the latest developments in quantum computing?"

1. Check available skills -> See "web-research" skill with its path
2. Read the skill using the path shown
3. Follow the skill's research workflow (search -> organize -> synthesize)
4. Use any helper scripts with absolute paths

Remember: Skills make you more capable and consistent. When in doubt, check if a skill exists for the task!"#;

/// `SKILL.md` files over this many bytes are skipped (seed 004 §5, seed 000 附录 C
/// `MAX_SKILL_FILE_SIZE = 10 * 1024 * 1024`).
pub const MAX_SKILL_FILE_SIZE: u64 = 10 * 1024 * 1024;

/// A template cut at its two slots: text before `{skills_locations}`, between it and
/// `{skills_list}`, and after (Python's `str.format` fills each slot once, never re-reading what
/// it inserted).
pub fn template_parts(template: &'static str) -> [&'static str; 3] {
    let (head, rest) = template.split_once("{skills_locations}").expect("template has {skills_locations}");
    let (middle, tail) = rest.split_once("{skills_list}").expect("template has {skills_list}");
    [head, middle, tail]
}

pub fn render(input: &RenderInput<'_>) -> Prompt {
    let Loaded { skills, absent, warnings } = load(input);
    let [head, middle, tail] = template_parts(SKILLS_SYSTEM_PROMPT);
    let mut b = Builder { warnings, ..Builder::default() };
    b.push(head);
    b.push(&locations(input));
    b.push(middle);
    if skills.is_empty() {
        b.push(&empty_list(input));
    }
    for (n, (m, i)) in skills.iter().enumerate() {
        if n > 0 {
            b.push("\n");
        }
        b.entry(listed(input, m, *i), |t| t.push_str(&entry_text(m)));
    }
    b.push(tail);
    for a in absent {
        b.absent(a);
    }
    prompt::finish(&FORMAT, input.options, b, None, vec![])
}

/// A skill is activated by reading its `SKILL.md` with the filesystem's `read_file` (seed 001:
/// the listing gives the path; the tool is DeepAgents' own, as the 0.7.32 profile offers it).
pub const ACTIVATION: crate::agent::Activation = crate::agent::Activation {
    rule: "`read_file` with `file_path` S's SKILL.md",
    tools: |_| vec![crate::agents::deepagents::read_file::read_file_tool()],
    call: |p, name, args| {
        let skill =
            if name == "read_file" { crate::agents::activation::skill_file_in(p, args, "file_path") } else { None };
        skill.map(crate::agent::SkillCall::invoke)
    },
};
#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn template_is_the_blog_text_without_surrounding_newlines() {
        assert!(SKILLS_SYSTEM_PROMPT.starts_with("## Skills System\n\nYou have access"));
        assert!(SKILLS_SYSTEM_PROMPT.ends_with("check if a skill exists for the task!"));
        let [head, middle, tail] = template_parts(SKILLS_SYSTEM_PROMPT);
        assert!(head.ends_with("domain knowledge.\n\n"));
        assert_eq!(middle, "\n\n**Available Skills:**\n\n");
        assert!(tail.starts_with("\n\n**How to Use Skills (Progressive Disclosure):**\n\n"));
        assert!(
            tail.contains("\n2. **Read the skill's full instructions**: Use the path shown in the skill list above\n")
        );
        assert!(tail.contains("**When to Use Skills:**\n- User's"));
    }
}
