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
