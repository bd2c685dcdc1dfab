//! skills-ref 0.1.1 (PyPI, agentskills/agentskills `skills-ref/` at 69ef37e): `agentskills
//! validate` as a lint profile (as strict as skills-ref, with its exact messages).
//! The `to-prompt` rendering is not written yet.

use crate::agent::{Agent, Level::*};
use crate::diagnostic::Severity::*;
use crate::discover::DiscoveryPolicy;
use crate::library::NameKey;

/// skills-ref accepts what strictyaml reads (every scalar a string) and rejects flow style,
/// anchors, tags, duplicate keys and any key outside the six spec fields.
pub static AGENT: Agent = Agent {
    id: "agentskills",
    title: "skills-ref (agentskills validate)",
    source: "skills-ref 0.1.1 (PyPI), agentskills/agentskills skills-ref/ at 69ef37e",
    skills_ref_messages: true,
    levels: &[
        ("flow-style", Set(Error)),
        ("yaml-anchor", Set(Error)),
        ("yaml-tag", Set(Error)),
        ("unknown-key", Set(Error)),
        ("extension-key", Off),
        ("misspelled-key", Off),
        ("yaml-implicit-type", Off),
        ("name-non-ascii", Off),
        ("frontmatter-schema", Set(Warning)),
        ("closing-delimiter-at-eof", Off),
    ],
    // skills-ref validates the folders it is given; for libraries we use the client guide's search.
    discovery: DiscoveryPolicy::CLIENT_GUIDE,
    key: NameKey::Frontmatter,
    prompt: None,
};
