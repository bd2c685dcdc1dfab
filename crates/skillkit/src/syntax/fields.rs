//! Every frontmatter field we know: the six of the agentskills.io specification and the
//! extension fields particular agents read. Sources: agentskills.io `docs/specification.mdx`;
//! Claude Code skills documentation (Aug 2026); harness9 design (seed 002).

/// Who reads a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// One of the agentskills.io specification's fields.
    Spec,
    /// Read by the named agents only.
    Extension(&'static [&'static str]),
}

#[derive(Clone, Copy, Debug)]
pub struct KnownField {
    pub key: &'static str,
    pub origin: Origin,
    pub summary: &'static str,
}

const CLAUDE: &[&str] = &["Claude Code"];

pub const KNOWN_FIELDS: &[KnownField] = &[
    KnownField {
        key: "name",
        origin: Origin::Spec,
        summary: "the skill's id: lowercase letters, digits and single hyphens, equal to the folder name",
    },
    KnownField {
        key: "description",
        origin: Origin::Spec,
        summary: "what the skill does and when to use it (1-1024 characters)",
    },
    KnownField { key: "license", origin: Origin::Spec, summary: "license name or the bundled license file" },
    KnownField { key: "compatibility", origin: Origin::Spec, summary: "environment requirements (1-500 characters)" },
    KnownField { key: "metadata", origin: Origin::Spec, summary: "a map from string keys to string values" },
    KnownField {
        key: "allowed-tools",
        origin: Origin::Spec,
        summary: "space-separated tools that are pre-approved (experimental)",
    },
    KnownField {
        key: "when_to_use",
        origin: Origin::Extension(CLAUDE),
        summary: "extra trigger phrases appended to the description",
    },
    KnownField {
        key: "argument-hint",
        origin: Origin::Extension(CLAUDE),
        summary: "autocomplete hint for the slash command",
    },
    KnownField {
        key: "arguments",
        origin: Origin::Extension(CLAUDE),
        summary: "named positional arguments for `$name` substitution",
    },
    KnownField {
        key: "disable-model-invocation",
        origin: Origin::Extension(CLAUDE),
        summary: "only the user can invoke the skill",
    },
    KnownField {
        key: "user-invocable",
        origin: Origin::Extension(CLAUDE),
        summary: "`false` hides the skill from the `/` menu",
    },
    KnownField {
        key: "disallowed-tools",
        origin: Origin::Extension(CLAUDE),
        summary: "tools removed while the skill is active",
    },
    KnownField { key: "model", origin: Origin::Extension(CLAUDE), summary: "model override while the skill runs" },
    KnownField {
        key: "effort",
        origin: Origin::Extension(CLAUDE),
        summary: "reasoning effort: low, medium, high, xhigh or max",
    },
    KnownField {
        key: "context",
        origin: Origin::Extension(CLAUDE),
        summary: "`fork` runs the skill in a forked subagent",
    },
    KnownField { key: "agent", origin: Origin::Extension(CLAUDE), summary: "subagent type used with `context: fork`" },
    KnownField {
        key: "background",
        origin: Origin::Extension(CLAUDE),
        summary: "run a forked skill in the background",
    },
    KnownField {
        key: "hooks",
        origin: Origin::Extension(CLAUDE),
        summary: "hooks registered while the skill is active",
    },
    KnownField { key: "paths", origin: Origin::Extension(CLAUDE), summary: "globs limiting automatic activation" },
    KnownField { key: "shell", origin: Origin::Extension(CLAUDE), summary: "`bash` or `powershell` for `!` commands" },
    KnownField {
        key: "trigger",
        origin: Origin::Extension(&["harness9"]),
        summary: "phrases that make harness9 suggest the skill",
    },
];

pub const SPEC_FIELDS: [&str; 6] = ["name", "description", "license", "compatibility", "metadata", "allowed-tools"];

pub fn known_field(key: &str) -> Option<&'static KnownField> {
    KNOWN_FIELDS.iter().find(|f| f.key == key)
}

/// What particular agents do with a field, where it differs from reading it as the specification
/// says: (field, agent, how). Sources: Claude Code skills documentation (Aug 2026, `B.1` of
/// `shared/reference/deepagents-claudecode.md`); Codex 0.169.0 and Gemini CLI 0.61.0 as captured
/// by the oracles (`oracles.md` §4–5); DeepAgents `SkillMetadata` (HEAD, §A).
pub const FIELD_READERS: &[(&str, &str, &str)] = &[
    ("name", "Claude Code", "the listed name (the folder's name when absent); the `/` command is always the folder's name"),
    ("name", "Codex", "the listed name (the folder's name when absent); a name unlike the folder is accepted"),
    ("name", "Gemini CLI", "the listed name; a later source's skill of the same name wins"),
    ("name", "DeepAgents", "validated (1-64 characters); the key that merges sources (the last source wins)"),
    ("description", "Claude Code", "listed, with `when_to_use` appended, cut at 1,536 characters; the whole listing shares about 1% of the context window"),
    ("description", "Codex", "listed on one line; over 1,024 characters it is cut to 1,021 and `...`; a skill without one is skipped"),
    ("description", "Gemini CLI", "listed in `<description>` in the system prompt"),
    ("description", "DeepAgents", "listed; over 1,024 characters it is truncated, with a warning"),
    ("when_to_use", "Claude Code", "appended to the description in the listing; counts toward its 1,536 characters"),
    ("when_to_use", "Codex", "ignored"),
    ("license", "DeepAgents", "kept as text (`license: true` becomes `True`)"),
    ("license", "Claude Code", "accepted and ignored"),
    ("compatibility", "DeepAgents", "kept; over 500 characters it is truncated, with a warning"),
    ("compatibility", "Claude Code", "accepted and ignored"),
    ("metadata", "DeepAgents", "kept as a map of strings (anything else becomes `{}`, with a warning)"),
    ("metadata", "Claude Code", "accepted and ignored"),
    ("allowed-tools", "Claude Code", "tools pre-approved for the turn that invokes the skill (it does not restrict)"),
    ("allowed-tools", "DeepAgents", "kept as a list of tool names"),
    ("disable-model-invocation", "Claude Code", "`true` leaves the skill out of the listing: only the user invokes it"),
    ("disable-model-invocation", "Codex", "ignored (the skill is listed)"),
];

/// What each agent does with `key`, from [`FIELD_READERS`]: (agent, how).
pub fn readers(key: &str) -> impl Iterator<Item = (&'static str, &'static str)> + '_ {
    FIELD_READERS.iter().filter(move |(k, _, _)| *k == key).map(|(_, a, how)| (*a, *how))
}
